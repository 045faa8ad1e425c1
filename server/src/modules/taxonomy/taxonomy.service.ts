import type { Executor } from '../../db/executor.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { Clock } from '../../lib/clock.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { foldKey } from '../../lib/text.js';
import * as repo from './taxonomy.repository.js';
import type { TaxonomyRow } from './taxonomy.repository.js';

export const TAXONOMY_MESSAGES = {
  categoryNotFound: 'Categoria non trovata',
  tagNotFound: 'Tag non trovato',
  blankName: 'Il nome non può essere vuoto.',
  categoryExists: 'Esiste già una categoria con questo nome.',
} as const;

/** Category 1 exists always (D4, D6). */
export const UNCATEGORISED_ID = 1;
export const TAG_NAME_MAX_LENGTH = 50;
export const MAX_TAGS_PER_IMAGE = 10;

export const toCategory = (row: TaxonomyRow) => ({
  id_categoria: row.id,
  nome: row.nome,
  count: row.image_count,
  created_at: row.created_at,
});

export const toTag = (row: TaxonomyRow) => ({
  id_tag: row.id,
  nome: row.nome,
  image_count: row.image_count,
  created_at: row.created_at,
});

/** A tag name as people type it: '#Roma ' and 'roma' are the same tag. */
export function cleanTagName(value: string): string {
  return value
    .normalize('NFC')
    .replace(/^#+/u, '')
    .replace(/\s+/gu, ' ')
    .trim()
    .slice(0, TAG_NAME_MAX_LENGTH);
}

export type TaxonomyService = ReturnType<typeof createTaxonomyService>;

export function createTaxonomyService(db: Executor, clock: Clock) {
  async function getCategory(id: number): Promise<TaxonomyRow> {
    const row = await repo.findById(db, 'categories', id);
    if (row === undefined) throw notFound(TAXONOMY_MESSAGES.categoryNotFound);
    return row;
  }

  async function getTag(id: number): Promise<TaxonomyRow> {
    const row = await repo.findById(db, 'tags', id);
    if (row === undefined) throw notFound(TAXONOMY_MESSAGES.tagNotFound);
    return row;
  }

  /**
   * The ids of tags named in `names`, creating the missing ones (case-insensitively unique).
   * Blank names are dropped; at most MAX_TAGS_PER_IMAGE distinct names are kept.
   */
  async function resolveTagNames(names: readonly string[], tx: Executor = db): Promise<number[]> {
    const wanted = new Map<string, string>();
    for (const name of names.map(cleanTagName)) {
      const key = foldKey(name);
      // The first spelling wins: '["Roma", "roma"]' is one tag called 'Roma'.
      if (name !== '' && !wanted.has(key) && wanted.size < MAX_TAGS_PER_IMAGE) {
        wanted.set(key, name);
      }
    }
    const existing = await repo.findByKeys(tx, 'tags', [...wanted.keys()]);
    const ids = new Map(existing.map((row) => [row.nome_key, row.id]));
    for (const [key, nome] of wanted) {
      if (ids.has(key)) continue;
      try {
        const created = await repo.insert(tx, 'tags', {
          nome,
          nome_key: key,
          created_at: clock.now().toISOString(),
        });
        ids.set(key, created.id);
      } catch (error) {
        // Created by a concurrent request in the meantime: use that one.
        if (!isUniqueViolation(error)) throw error;
        const [row] = await repo.findByKeys(tx, 'tags', [key]);
        if (row !== undefined) ids.set(key, row.id);
      }
    }
    return [...ids.values()];
  }

  /** Replaces an image's tags with those named (created when missing). */
  async function assignTags(imageId: number, names: readonly string[], tx: Executor = db) {
    await repo.setImageTags(tx, imageId, await resolveTagNames(names, tx));
  }

  /** D6: names are unique case-insensitively. */
  async function createCategory(name: string): Promise<TaxonomyRow> {
    const nome = name.normalize('NFC').replace(/\s+/gu, ' ').trim();
    if (nome === '') throw badRequest(TAXONOMY_MESSAGES.blankName);
    try {
      return await repo.insert(db, 'categories', {
        nome,
        nome_key: foldKey(nome),
        created_at: clock.now().toISOString(),
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw badRequest(TAXONOMY_MESSAGES.categoryExists);
      throw error;
    }
  }

  /** An image entering (+1) or leaving (-1) the approved set moves its category and tag counts. */
  async function adjustApprovedCounts(
    tx: Executor,
    imageId: number,
    categoryId: number,
    delta: 1 | -1,
  ): Promise<void> {
    await repo.adjustCount(tx, 'categories', [categoryId], delta);
    await repo.adjustCount(tx, 'tags', await repo.tagIdsOfImage(tx, imageId), delta);
  }

  return {
    adjustApprovedCounts,
    assignTags,
    createCategory,
    getCategory,
    getTag,
    resolveTagNames,
    listCategories: () => repo.listAll(db, 'categories'),
    popularCategories: (limit: number) => repo.listPopular(db, 'categories', limit),
    listUsedTags: () => repo.listUsed(db, 'tags'),
    recountAll: () => repo.recountAll(db),
  };
}
