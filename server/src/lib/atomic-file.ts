import fs from 'node:fs/promises';

/**
 * Writes `bytes` to `target` so that nobody ever sees half a file: first to `temporary` (same
 * folder, so the rename is atomic), flushed to disk, then renamed. On failure the temporary
 * file is removed. The folder must exist.
 */
export async function writeFileAtomically(
  target: string,
  temporary: string,
  bytes: Buffer,
  mode: number,
): Promise<void> {
  try {
    const handle = await fs.open(temporary, 'wx', mode);
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temporary, target);
  } catch (error) {
    await fs.rm(temporary, { force: true });
    throw error;
  }
}
