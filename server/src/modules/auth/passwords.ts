import { randomBytes } from 'node:crypto';
import argon2, { type HashOptions } from 'argon2';

/*
 * argon2id with OWASP's recommended parameters (19 MiB, 2 passes, 1 lane): strong against GPU
 * cracking while a login costs tens of milliseconds and little memory on a 2-core server.
 * The parameters are stored inside each hash, so raising them later keeps old hashes valid.
 */
const OPTIONS: HashOptions = {
  type: argon2.argon2id,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, OPTIONS);
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    // A malformed stored hash must read as "wrong password", never as a server error.
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the same time as a real check when the user does not exist, so response timing does
 * not tell an attacker which usernames are registered.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  await verifyPassword(await dummyHash, password);
  return false;
}

/** A password for generated accounts: 120 random bits, easy to copy. */
export function generatePassword(): string {
  return randomBytes(15).toString('base64url');
}
