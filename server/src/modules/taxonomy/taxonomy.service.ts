import type { Dialect } from '../../db/database.js';
import type { Executor } from '../../db/executor.js';
import { isUniqueViolation } from '../../db/errors.js';
import { holdCategoryNames, holdImageDocuments, holdImageRows } from '../../db/locks.js';
import type { Clock } from '../../lib/clock.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { categoryDisplayName, foldKey } from '../../lib/text.js';
import { cleanLine, cutBetweenCharacters, lengthOf } from '../../lib/typed-text.js';
import * as repo from './taxonomy.repository.js';
import type { Taxonomy, TaxonomyRow } from './taxonomy.repository.js';

export const TAG_NAME_MAX_LENGTH = 50;
/** What the back-office's name field takes (admin.routes NameBody). */
export const CATEGORY_NAME_MAX_LENGTH = 60;
/**
 * The longest name a request may carry before it is tidied: the spaces around it and a tag's
 * leading '#' do not count against the limits above, which the service checks on the tidied
 * name; this only bounds what the edge reads.
 */
export const TYPED_NAME_MAX_LENGTH = 200;

export const MAX_TAGS_PER_IMAGE = 10;

export const TAXONOMY_MESSAGES = {
  categoryNotFound: 'Categoria non trovata',
  tagNotFound: 'Tag non trovato',
  blankName: 'Il nome non può essere vuoto.',
  missingCategory: 'La categoria scelta non esiste.',
  categoryExists: 'Esiste già una categoria con questo nome.',
  tagExists: 'Esiste già un tag con questo nome.',
  // By its role: category 1 may be renamed, so its name here could be one it no longer has.
  uncategorisedProtected:
    'La categoria che accoglie le immagini senza categoria non può essere eliminata.',
  nameTooLong: (max: number) => `Il nome può contenere al massimo ${String(max)} caratteri.`,
  imageTagTooLong: `Ogni tag può contenere al massimo ${String(TAG_NAME_MAX_LENGTH)} caratteri.`,
  // The back-office's own check before sending says the same (web imageTags.ts).
  tooManyTags: `Puoi assegnare al massimo ${String(MAX_TAGS_PER_IMAGE)} tag.`,
  // Said like the image and user forms' 409 (moderation.service, users.rules).
  staleCategory:
    'Un altro amministratore ha rinominato questa categoria dopo che l’hai aperta: ricarica per vedere i dati aggiornati e ripeti la modifica.',
  staleTag:
    'Un altro amministratore ha rinominato questo tag dopo che l’hai aperto: ricarica per vedere i dati aggiornati e ripeti la modifica.',
} as const;

/** Category 1 exists always (D4, D6). */
export const UNCATEGORISED_ID = 1;

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

/** A tag name as people type it, not cut: ' #Roma ' and 'roma' are the same tag. */
export function tidyTagName(value: string): string {
  return cleanLine(value, Number.POSITIVE_INFINITY).replace(/^#+\s*/u, '');
}

/** An uploader's tag name: tidied, and cut at the limit between whole characters. */
export function cleanTagName(value: string): string {
  return cutBetweenCharacters(tidyTagName(value), TAG_NAME_MAX_LENGTH).trimEnd();
}

/**
 * The tags an administrator or an uploader gives an image: refused, not cut, when one is past
 * the limit once tidied or when there are more distinct names than an image takes (the
 * back-office's edit dialog says the same before sending).
 */
export function checkImageTagNames(names: readonly string[]): void {
  if (names.some((name) => lengthOf(tidyTagName(name)) > TAG_NAME_MAX_LENGTH)) {
    throw badRequest(TAXONOMY_MESSAGES.imageTagTooLong);
  }
  const distinct = new Set(
    names
      .map(cleanTagName)
      .filter((name) => name !== '')
      .map(foldKey),
  );
  if (distinct.size > MAX_TAGS_PER_IMAGE) throw badRequest(TAXONOMY_MESSAGES.tooManyTags);
}

/**
 * The key of a category's name as visitors read it: SPEC §3 shows 'messaggi_città' as 'Città'
 * (web/src/lib/format.ts categoryDisplayName drops the prefix and turns underscores into spaces),
 * so two categories whose shown names agree would look like one.
 */
export function shownCategoryKey(nome: string): string {
  const words = nome
    .replace(/^messaggio?_/iu, '')
    .split('_')
    .filter((word) => word !== '');
  return foldKey(words.length === 0 ? nome : words.join(' ').replace(/\s+/gu, ' '));
}

const ITALIAN = new Intl.Collator('it');

/** `rows` in Italian alphabetical order of `shown`; the id settles names that collate alike. */
function collated<Row extends { id: number }>(rows: Row[], shown: (row: Row) => string): Row[] {
  return rows
    .map((row) => ({ row, shown: shown(row) }))
    .sort((a, b) => ITALIAN.compare(a.shown, b.shown) || a.row.id - b.row.id)
    .map(({ row }) => row);
}

/**
 * Category lists in the order of the names on screen: stored 'messaggi_amicizia' is read
 * 'Amicizia' and belongs among the A's, not the M's where its stored key would put it. The
 * order never changes between two calls.
 */
export function inShownOrder<Row extends { id: number; nome: string }>(rows: Row[]): Row[] {
  return collated(rows, (row) => categoryDisplayName(row.nome));
}

/**
 * Tag lists in Italian alphabetical order ('àncora' among the a's), the same on both engines:
 * ORDER BY of the stored key follows the code points on SQLite and the database's collation on
 * PostgreSQL, which put accented names after 'z' under C and among their letters under
 * it_IT or en_US.
 */
export function inNameOrder<Row extends { id: number; nome: string }>(rows: Row[]): Row[] {
  return collated(rows, (row) => row.nome);
}

export type TaxonomyService = ReturnType<typeof createTaxonomyService>;

export function createTaxonomyService(db: Executor, dialect: Dialect, clock: Clock) {
  async function getCategory(id: number): Promise<TaxonomyRow> {
    const row = await repo.findById(db, 'categories', id);
    if (row === undefined) throw notFound(TAXONOMY_MESSAGES.categoryNotFound);
    return row;
  }

  /** The category an image is to be put in exists, or a 400 that says it does not. */
  async function requireCategory(id: number, tx: Executor = db): Promise<void> {
    if ((await repo.findById(tx, 'categories', id)) === undefined) {
      throw badRequest(TAXONOMY_MESSAGES.missingCategory);
    }
  }

  async function getTag(id: number): Promise<TaxonomyRow> {
    const row = await repo.findById(db, 'tags', id);
    if (row === undefined) throw notFound(TAXONOMY_MESSAGES.tagNotFound);
    return row;
  }

  /**
   * A tag as the public sees it: only one with approved images exists for them. An upload
   * creates its tags at once, while the image waits for review, and they stay when it is
   * rejected or deleted; their names are the uploader's words, as private as the image's title
   * (docs/ARCHITECTURE.md, "Tags typed by uploaders"). The ids are sequential, so answering
   * any tag by id would let anyone read them one by one.
   */
  async function getPublicTag(id: number): Promise<TaxonomyRow> {
    const row = await getTag(id);
    if (row.image_count === 0) throw notFound(TAXONOMY_MESSAGES.tagNotFound);
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
    // Made in the order of their keys, not as named: two writers making the same new tags
    // named in opposite orders each waited on PostgreSQL for the key the other had just
    // inserted (a deadlock, answered 500); in one order the later waits for the earlier.
    const missing = [...wanted].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    for (const [key, nome] of missing) {
      if (ids.has(key)) continue;
      const created = await repo.insertTagIfMissing(tx, {
        nome,
        nome_key: key,
        created_at: clock.now().toISOString(),
      });
      if (created !== undefined) {
        ids.set(key, created);
        continue;
      }
      // Created by a concurrent request in the meantime (two uploads with the same new tag,
      // found by test-faults/kill-9.test.ts): use that one.
      const [row] = await repo.findByKeys(tx, 'tags', [key]);
      if (row !== undefined) ids.set(key, row.id);
    }
    return [...ids.values()];
  }

  /** Replaces an image's tags with those named (created when missing). */
  async function assignTags(imageId: number, names: readonly string[], tx: Executor = db) {
    await repo.setImageTags(tx, imageId, await resolveTagNames(names, tx));
  }

  const existsMessage = (taxonomy: Taxonomy) =>
    taxonomy === 'categories' ? TAXONOMY_MESSAGES.categoryExists : TAXONOMY_MESSAGES.tagExists;

  /** A name as it is stored, refused (never cut) past its kind's limit once tidied. */
  function cleanName(taxonomy: Taxonomy, name: string): string {
    const nome =
      taxonomy === 'tags' ? tidyTagName(name) : cleanLine(name, Number.POSITIVE_INFINITY);
    if (nome === '') throw badRequest(TAXONOMY_MESSAGES.blankName);
    const max = taxonomy === 'tags' ? TAG_NAME_MAX_LENGTH : CATEGORY_NAME_MAX_LENGTH;
    if (lengthOf(nome) > max) throw badRequest(TAXONOMY_MESSAGES.nameTooLong(max));
    return nome;
  }

  /**
   * A category another one would be shown as (shownCategoryKey): refused like a taken name. No
   * constraint can say it, so it is read in the writer's transaction, under a lock every
   * category's creation and rename takes first (holdCategoryNames), before any row: two at
   * once read one after the other's commit.
   */
  async function refuseShownTwice(trx: Executor, nome: string, id?: number) {
    const key = shownCategoryKey(nome);
    const rows = await repo.listAll(trx, 'categories');
    if (rows.some((row) => row.id !== id && shownCategoryKey(row.nome) === key)) {
      throw badRequest(TAXONOMY_MESSAGES.categoryExists);
    }
  }

  /** A taken stored key (D6: unique case-insensitively) says what a taken shown name says. */
  async function refusingTaken<Row>(taxonomy: Taxonomy, write: () => Promise<Row>) {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error)) throw badRequest(existsMessage(taxonomy));
      throw error;
    }
  }

  /** D6: names are unique case-insensitively, and so are categories' names as shown. */
  async function create(taxonomy: Taxonomy, name: string): Promise<TaxonomyRow> {
    const nome = cleanName(taxonomy, name);
    const row = { nome, nome_key: foldKey(nome), created_at: clock.now().toISOString() };
    if (taxonomy === 'tags') return refusingTaken(taxonomy, () => repo.insert(db, taxonomy, row));
    return db.transaction().execute(async (trx) => {
      await holdCategoryNames(trx, dialect);
      await refuseShownTwice(trx, nome);
      return refusingTaken(taxonomy, () => repo.insert(trx, taxonomy, row));
    });
  }

  /**
   * Renames. With `revision` (what the rename dialog was opened with), a rename committed by
   * someone else since is not undone: 409. Answers the renamed row.
   *
   * The refusals come in this order: the name itself (blank, too long: 400, as the schema's
   * own checks), the row gone (404), a stale dialog (409), then the name taken (400). A stale
   * dialog's name was chosen against a list that is out of date, and its 409 makes the web app
   * reload that list (web/src/admin/features/taxonomy/saveName.ts); a 400 left it as it was.
   */
  async function rename(taxonomy: Taxonomy, id: number, name: string, revision?: number) {
    const nome = cleanName(taxonomy, name);
    return db.transaction().execute(async (trx) => {
      // Locks in the order the other writers take them: the category names' lock before any
      // row (creations, renames); a tag's images before the tag's row (deletions, and the
      // image edits that wait for the tag's row through their links).
      const images = taxonomy === 'tags' ? await lockImagesWithTag(trx, id) : [];
      if (taxonomy === 'categories') await holdCategoryNames(trx, dialect);
      const current = await repo.lockById(trx, dialect, taxonomy, id);
      if (current === undefined) throw notFoundFor(taxonomy);
      if (revision !== undefined && current.revision !== revision) throw staleFor(taxonomy);
      // Categories are chosen by id, so a form filled before a rename still means the same one.
      if (taxonomy === 'categories') await refuseShownTwice(trx, nome, id);
      const renamed = await refusingTaken(taxonomy, () =>
        repo.rename(trx, taxonomy, id, { nome, nome_key: foldKey(nome) }, revision),
      );
      // The row is locked and its revision was read under the lock: nothing can change it now.
      if (renamed === undefined) throw staleFor(taxonomy);
      // Tags are sent by name: a form filled with the old one would bring it back.
      await repo.bumpRevisions(trx, images);
      return renamed;
    });
  }

  const staleFor = (taxonomy: Taxonomy) =>
    conflict(
      taxonomy === 'categories' ? TAXONOMY_MESSAGES.staleCategory : TAXONOMY_MESSAGES.staleTag,
    );

  /**
   * The images carrying a tag, locked as moderation's edits lock an image (its search
   * document first, then its row): their revisions are raised by the tag's rename or
   * deletion, and an edit of one of them meanwhile waits for it, or is waited for.
   */
  async function lockImagesWithTag(trx: Executor, tagId: number): Promise<number[]> {
    const images = (await repo.imageIdsWithTag(trx, tagId)).sort((a, b) => a - b);
    await holdImageDocuments(trx, dialect, images);
    await holdImageRows(trx, images);
    return images;
  }

  const notFoundFor = (taxonomy: Taxonomy) =>
    notFound(
      taxonomy === 'categories'
        ? TAXONOMY_MESSAGES.categoryNotFound
        : TAXONOMY_MESSAGES.tagNotFound,
    );

  /**
   * D6: category 1 stays; the images of another deleted category move to 1 (with its approved
   * count); a deleted tag takes its links along. Returns the ids of the images it touched.
   */
  async function remove(taxonomy: Taxonomy, id: number): Promise<number[]> {
    if (taxonomy === 'categories' && id === UNCATEGORISED_ID) {
      throw badRequest(TAXONOMY_MESSAGES.uncategorisedProtected);
    }
    return db.transaction().execute(async (trx) => {
      if (taxonomy === 'categories') {
        // The images first, then the category's row: the order in which an approval, an edit
        // or a deletion of one of them takes the two (moderation's lockTarget), so that none
        // waits for another in a circle on PostgreSQL.
        const images = await repo.moveImagesToCategory(trx, id, UNCATEGORISED_ID);
        // Read now, locked: what approvals committed before is in the count moved to 1.
        const row = await repo.lockById(trx, dialect, taxonomy, id);
        if (row === undefined) throw notFoundFor(taxonomy);
        // An image moved into the category by an edit or an upload that held the row until
        // now was not there for the first move; none can enter it any more (its writer would
        // wait for this lock, then find the category gone).
        const late = await repo.moveImagesToCategory(trx, id, UNCATEGORISED_ID);
        await repo.adjustCount(trx, 'categories', [UNCATEGORISED_ID], row.image_count);
        await repo.remove(trx, taxonomy, id);
        return [...images, ...late];
      }
      if ((await repo.findById(trx, taxonomy, id)) === undefined) throw notFoundFor(taxonomy);
      // A form still showing the tag would create it again on saving.
      const images = await lockImagesWithTag(trx, id);
      await repo.bumpRevisions(trx, images);
      // An edit or an approval giving an image the tag while these were read holds the tag's
      // row (its link's foreign key) until it commits, with a search document that names the
      // tag: the row locked now waits for it, and a second look finds its image, whose link
      // the cascade below removes, so the caller reindexes it too. Not locked like the others:
      // its writer already raised its revision, and once the tag's row is held no new link
      // can come. (SQLite's write lock already kept every writer out since the first look.)
      await repo.lockById(trx, dialect, taxonomy, id);
      const seen = new Set(images);
      const late = (await repo.imageIdsWithTag(trx, id)).filter((image) => !seen.has(image));
      await repo.remove(trx, taxonomy, id);
      return [...images, ...late];
    });
  }

  /**
   * Moves approved-image counts by the deltas given (a zero moves nothing). Every writer of
   * the counts takes their rows in one order, categories before tags, each by id (locked
   * first on PostgreSQL, since a multi-row UPDATE takes its rows in the order its plan reads
   * them): an edit moving an image from one category to another, beside one moving another
   * image the other way (or trading two tags), took the first's row and waited for the
   * second's while the other did the opposite, a deadlock answered 500.
   */
  async function moveCounts(
    tx: Executor,
    deltas: { categories: ReadonlyMap<number, number>; tags: ReadonlyMap<number, number> },
  ): Promise<void> {
    for (const taxonomy of ['categories', 'tags'] as const) {
      const moved = [...deltas[taxonomy]].filter(([, delta]) => delta !== 0);
      const ids = moved.map(([id]) => id).sort((a, b) => a - b);
      await repo.lockCounts(tx, dialect, taxonomy, ids);
      for (const delta of new Set(moved.map(([, by]) => by))) {
        await repo.adjustCount(
          tx,
          taxonomy,
          moved.filter(([, by]) => by === delta).map(([id]) => id),
          delta,
        );
      }
    }
  }

  /** An image entering (+1) or leaving (-1) the approved set moves its category and tag counts. */
  async function adjustApprovedCounts(
    tx: Executor,
    imageId: number,
    categoryId: number,
    delta: 1 | -1,
  ): Promise<void> {
    const tags = await repo.tagIdsOfImage(tx, imageId);
    await moveCounts(tx, {
      categories: new Map([[categoryId, delta]]),
      tags: new Map(tags.map((id) => [id, delta])),
    });
  }

  /**
   * An image's category and tags as an administrator sets them; for an approved image the
   * counts follow (out with the old, in with the new, as one move), in the caller's
   * transaction.
   */
  async function recategorise(
    tx: Executor,
    image: { id_image: number; id_categoria: number; approved: boolean },
    changes: { id_categoria?: number | undefined; tags?: readonly string[] | undefined },
  ): Promise<void> {
    if (changes.id_categoria !== undefined) await requireCategory(changes.id_categoria, tx);
    const oldTags = image.approved ? await repo.tagIdsOfImage(tx, image.id_image) : [];
    const categoryId = changes.id_categoria ?? image.id_categoria;
    if (changes.id_categoria !== undefined) {
      await repo.setImageCategory(tx, image.id_image, changes.id_categoria);
    }
    if (changes.tags !== undefined) await assignTags(image.id_image, changes.tags, tx);
    if (!image.approved) return;
    const categories = new Map<number, number>([[image.id_categoria, -1]]);
    categories.set(categoryId, (categories.get(categoryId) ?? 0) + 1);
    const tags = new Map<number, number>(oldTags.map((id) => [id, -1]));
    for (const id of await repo.tagIdsOfImage(tx, image.id_image)) {
      tags.set(id, (tags.get(id) ?? 0) + 1);
    }
    await moveCounts(tx, { categories, tags });
  }

  return {
    create,
    rename,
    remove,
    recategorise,
    requireCategory,
    searchAll: async (taxonomy: Taxonomy, term: string) => {
      const rows = await repo.search(db, taxonomy, term);
      return taxonomy === 'categories' ? inShownOrder(rows) : inNameOrder(rows);
    },
    imageIdsWithTag: (id: number) => repo.imageIdsWithTag(db, id),
    imageIdsInCategory: (id: number) => repo.imageIdsInCategory(db, id),
    adjustApprovedCounts,
    assignTags,
    createCategory: (name: string) => create('categories', name),
    getCategory,
    getTag,
    getPublicTag,
    resolveTagNames,
    listCategories: async () => inShownOrder(await repo.listAll(db, 'categories')),
    popularCategories: (limit: number) => repo.listPopular(db, 'categories', limit),
    popularTags: (limit: number) => repo.listPopular(db, 'tags', limit),
    listUsedTags: async () => inNameOrder(await repo.listUsed(db, 'tags')),
    recountAll: () => repo.recountAll(db),
  };
}
