import type { Kysely } from 'kysely';

/*
 * The OCR's alternates (issue 9, docs/READING.md step 10): Italian words of the recogniser's
 * other likely readings that the text it chose lacks (jobs/image-analysis/ocr.ts), folded and
 * space-separated. Search indexes them at its lowest weight; nothing shows them. Null for
 * images analysed before this column existed.
 * Frozen: never edit a migration that has shipped; add a new one.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('images').addColumn('ocr_alternates', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('images').dropColumn('ocr_alternates').execute();
}
