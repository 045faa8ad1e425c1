/** Rows per multi-row INSERT and ids per IN list: far below both engines' parameter limits. */
export const CHUNK = 1000;

/** Splits bulk statements so no single one outgrows SQLite's or PostgreSQL's bound parameters. */
export function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
