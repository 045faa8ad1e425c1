import type { Executor } from '../../db/executor.js';

/* The SQL of the image-analysis job (habit 3). */

export function findImageFile(
  db: Executor,
  id: number,
): Promise<{ id_image: number; filename: string } | undefined> {
  return db
    .selectFrom('images')
    .select(['id_image', 'filename'])
    .where('id_image', '=', id)
    .executeTakeFirst();
}

export interface ImageAnalysis {
  extracted_text: string;
  text_folded: string;
  ocr_confidence: number;
  ocr_alternates: string;
  phash: string;
}

/** Stores the analysis; false when the image was deleted meanwhile. */
export async function saveImageAnalysis(
  db: Executor,
  id: number,
  analysis: ImageAnalysis,
): Promise<boolean> {
  const result = await db
    .updateTable('images')
    .set(analysis)
    .where('id_image', '=', id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
