import type { PhotoReading } from './reader.js';

/*
 * The messages between the server and its reading process (reader-process.ts and
 * reader-child.ts), sent over Node's IPC channel with the 'advanced' serialisation, which
 * carries the photo's bytes as they are.
 */

/** Environment variable giving the child the CPU time (ms) one photo may take. */
export const CPU_BUDGET_ENV = 'MURI_READER_CPU_BUDGET_MS';

export interface ReadRequest {
  id: number;
  image: Uint8Array;
}

export type ReadReply =
  { id: number; ok: true; reading: PhotoReading } | { id: number; ok: false; message: string };

export function isReadRequest(message: unknown): message is ReadRequest {
  if (typeof message !== 'object' || message === null) return false;
  const { id, image } = message as Partial<ReadRequest>;
  return Number.isSafeInteger(id) && image instanceof Uint8Array;
}

export function isReadReply(message: unknown): message is ReadReply {
  if (typeof message !== 'object' || message === null) return false;
  const reply = message as Partial<ReadReply>;
  if (!Number.isSafeInteger(reply.id)) return false;
  if (reply.ok === true) {
    const reading = (reply as { reading?: Partial<PhotoReading> }).reading;
    return (
      typeof reading === 'object' &&
      typeof reading.text === 'string' &&
      typeof reading.confidence === 'number' &&
      typeof reading.alternates === 'string' &&
      typeof reading.phash === 'string'
    );
  }
  return reply.ok === false && typeof (reply as { message?: unknown }).message === 'string';
}
