import type { Kysely } from 'kysely';

/*
 * The OCR's confidence in its reading (issue 9): the mean word confidence (0–100) that
 * jobs/image-analysis/ocr.ts reports, stored with the text. The duplicate finder lets two
 * images whose texts disagree still group by their perceptual hash when either reading is
 * not confident (modules/duplicates/duplicates.signature.ts). Null for images analysed before
 * this column existed, or whose text was set by other means: such texts are trusted as before.
 * Frozen: never edit a migration that has shipped; add a new one.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('images').addColumn('ocr_confidence', 'integer').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('images').dropColumn('ocr_confidence').execute();
}
