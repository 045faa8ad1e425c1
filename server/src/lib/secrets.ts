import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * The JWT secret (D3): JWT_SECRET when set, otherwise one generated on first start and kept in
 * the data folder (readable by the owner only), so tokens survive restarts. Several processes
 * sharing the folder agree on one secret: each writes a private temporary file and hard-links
 * it into place, which fails for all but the first, so nobody ever reads a half-written file.
 */
export async function loadJwtSecret(
  configured: string | undefined,
  dataDir: string,
): Promise<string> {
  if (configured !== undefined) return configured;
  const file = path.join(dataDir, 'jwt-secret');
  const existing = await readIfExists(file);
  if (existing !== undefined) return checked(existing, file);

  await fs.mkdir(dataDir, { recursive: true });
  const candidate = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await fs.writeFile(candidate, randomBytes(48).toString('base64url'), { mode: 0o600 });
  try {
    await fs.link(candidate, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await fs.rm(candidate, { force: true });
  }
  return checked(await fs.readFile(file, 'utf8'), file);
}

async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function checked(content: string, file: string): string {
  const secret = content.trim();
  if (secret.length < 32) {
    throw new Error(`The secret in ${file} is shorter than 32 characters; delete it to regenerate`);
  }
  return secret;
}
