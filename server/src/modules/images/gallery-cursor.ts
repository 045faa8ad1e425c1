import { badRequest } from '../../lib/errors.js';
import { MAX_ROW_ID } from '../../lib/schemas.js';

/*
 * Keyset pagination of the galleries (issue 8, goal 2). A page is continued from the last
 * image of the previous one, (sort time, id), instead of skipping N rows: an offset makes the
 * database walk and throw away every earlier row, so page 8,000 of a million images costs
 * thousands of times page 1, while a keyset seek costs the same on every page.
 * The cursor is opaque to clients (base64url of a small JSON array), so its content can change
 * without breaking them; it is validated as strictly as any other input.
 */

export const CURSOR_MESSAGES = {
  invalid: 'Cursore di paginazione non valido.',
  withSkip: 'Usa cursor oppure skip, non entrambi.',
} as const;

/** Where a page ends: the sort time (publication, or the like for liked images) and the id. */
export interface GalleryPosition {
  at: string;
  id: number;
}

/** Exactly what Date.prototype.toISOString() writes: the stored timestamps' only shape. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function encodeCursor(position: GalleryPosition): string {
  return Buffer.from(JSON.stringify([position.at, position.id])).toString('base64url');
}

/** The position a cursor names; a 400 with an Italian message for anything else. */
export function decodeCursor(cursor: string): GalleryPosition {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badRequest(CURSOR_MESSAGES.invalid);
  }
  if (!Array.isArray(value) || value.length !== 2) throw badRequest(CURSOR_MESSAGES.invalid);
  const [at, id] = value as unknown[];
  if (
    typeof at !== 'string' ||
    !ISO_INSTANT.test(at) ||
    Number.isNaN(Date.parse(at)) ||
    new Date(at).toISOString() !== at ||
    typeof id !== 'number' ||
    !Number.isInteger(id) ||
    id < 1 ||
    id > MAX_ROW_ID
  ) {
    throw badRequest(CURSOR_MESSAGES.invalid);
  }
  return { at, id };
}
