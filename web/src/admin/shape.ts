import { errorMessage } from '../lib/api.js';

/** SPEC §5: an answer of unexpected shape is reported, never rendered half-broken. */
export const INVALID_SHAPE_MESSAGE = 'Formato dati non valido ricevuto dal server';

export class InvalidShapeError extends Error {
  constructor() {
    super(INVALID_SHAPE_MESSAGE);
    this.name = 'InvalidShapeError';
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value when it is a list; otherwise the shape error. */
export function expectList<T>(value: unknown): T[] {
  if (!Array.isArray(value)) throw new InvalidShapeError();
  return value as T[];
}

/** The value when it is an object holding every named key; otherwise the shape error. */
// The caller names the type the JSON answer is known to have once checked; nothing can infer it.
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters
export function expectObject<T>(value: unknown, ...keys: string[]): T {
  if (!isRecord(value) || keys.some((key) => !(key in value))) throw new InvalidShapeError();
  return value as T;
}

/** `{<key>: [...], ...}` with the list under `key` (e.g. `{users, total}`). */
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- as above
export function expectListIn<T>(value: unknown, key: string): T {
  const record = expectObject<Record<string, unknown>>(value, key);
  expectList(record[key]);
  return record as T;
}

/** The message for a failed admin call: the shape error, the server's detail, or the fallback. */
export function adminErrorMessage(error: unknown, fallback: string): string {
  if (error instanceof InvalidShapeError) return error.message;
  return errorMessage(error, fallback);
}
