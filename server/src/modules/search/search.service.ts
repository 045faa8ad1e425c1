/*
 * Search of approved images (D6, GET /search): by title, OCR text, tags, category and
 * uploader, case- and accent-insensitive, with Italian word forms ('muro' finds 'muri').
 *
 * Design:
 * - The words are folded and stemmed here, in TypeScript, with the Italian Snowball stemmer
 *   (search.text.ts), for documents and queries alike. Each engine then only indexes and
 *   matches ready-made tokens, so SQLite and PostgreSQL find exactly the same images; their
 *   own Italian support differs (FTS5 has no Italian stemmer; PostgreSQL's 'italian' config
 *   has stop words and its own unaccent rules), and would not.
 * - The document has four weighted fields: title > tags and category > OCR text > username.
 *   SQLite indexes it in an FTS5 table (ranked by bm25 with column weights), PostgreSQL as a
 *   tsvector literal under a GIN index (ranked by ts_rank_cd), the terms passed as they are
 *   rather than through PostgreSQL's text parser, whose idea of a letter follows the locale.
 *   No extension (unaccent, pg_trgm) is needed, so no superuser either. PostgreSQL reads the
 *   candidates of whole words from `search_terms`, a btree of (term, image) derived from the
 *   documents by a trigger, in id order (search.repository.ts).
 * - Strict matches first: every query word must match; if nothing does, the last word is
 *   tried again as a prefix (a word still being typed). Only the retry uses prefixes because
 *   an indexed prefix of a common stem merges many terms, which is cheap only when it is rare.
 * - Then, when the strict search finds fewer images than a page (FALLBACK_BELOW), a fallback
 *   (issue 9: the text of a wall is read by OCR, and one misread letter used to lose the
 *   picture) adds after them the approved images holding at least half of the query words
 *   (articles and prepositions not counted, unless the query has nothing else: FUNCTION_WORDS),
 *   each word whole or within one slip: a letter wrong, missing, extra, or two swapped, for
 *   words or stems of five letters or more (search.fuzzy.ts). More words matched first, then
 *   fewer slips, then rarer words (held by fewer photos), then (among the first two pages) the
 *   photo whose reading comes nearest to the words it lacks, then the most recently uploaded;
 *   the same in both orders, so a strict match always comes first.
 *   The slips are found in the vocabulary table `search_vocabulary`, a deletion-neighbourhood
 *   index (SymSpell) that the document writers below keep, looked up by primary key: the
 *   same rows and the same answers on both engines, at a cost that does not grow with the
 *   number of images (see search.fuzzy.ts for why not trigrams, fts5vocab or ts_stat). The
 *   fallback ranks by words and slips, not by bm25/ts_rank_cd, so its order is the same on
 *   both engines too.
 * - Candidate cap (search.repository.ts, SEARCH_CANDIDATE_CAP): a search looks at most at the
 *   most recently uploaded few thousand matches, found by walking the index by id and
 *   stopping there. Ranking, sorting by date and counting that bounded set stays fast even
 *   for a word found in a third of 1M images; `total` then stops at the cap and
 *   `capped` is true. The price: for such a word, an image uploaded long ago but approved
 *   only now is outside the candidates until fewer newer uploads share the word.
 * - Only approved images are indexed (reindexImage removes the others). On PostgreSQL the
 *   words' lists (`search_terms`) hold approved images only, kept so by triggers, and are read
 *   without checking `images`; searches through documents (SQLite, PostgreSQL's GIN path)
 *   check images.status, since a document may be stale. The images shown are read from
 *   approved ones only (images.service inOrder), so a pending or rejected image never shows.
 *
 * Writers keep the index current: the image module calls reindexImage after every write that
 * changes a searchable field (upload, approval or rejection, title, category, tags, OCR); a
 * rename of a category, tag or user calls reindexByCategory/ByTag/ByUser. Inside a transaction,
 * create a service over the transaction: createSearchService(trx, dialect).
 */
import type { Dialect } from '../../db/database.js';
import type { Executor } from '../../db/executor.js';
import { isLockTimeout } from '../../db/errors.js';
import { holdImageDocuments } from '../../db/locks.js';
import { badRequest } from '../../lib/errors.js';
import { orderFallback } from './search.fallback-order.js';
import { FUNCTION_WORDS } from './italian-forms.js';
import { nearness, neighboursOf, queryKeys } from './search.fuzzy.js';
import {
  SEARCH_CANDIDATE_CAP,
  createSearchRepository,
  type DenseBar,
  type ImageSearchSource,
  type SearchOrder,
  type SearchPage,
  type SearchQuery,
  type SearchRepository,
  type SearchRepositoryOptions,
  type StrictPage,
} from './search.repository.js';
import { foldForSearch, queryWords, searchDocument, type SearchDocument } from './search.text.js';

export type { SearchOrder, SearchPage } from './search.repository.js';

export const SEARCH_MESSAGES = {
  blankQuery: 'Inserisci un testo da cercare.',
} as const;

/** Images read per round when many are reindexed at once (the full rebuild). */
const REINDEX_BATCH = 200;
/**
 * Images written per transaction by a reindex: short transactions, since on SQLite one holds
 * the server's only connection, reads included, until it ends.
 */
const LOCKED_BATCH = 20;
/**
 * A page holds at most this many images, whatever the caller asks: the route's largest page
 * (SPEC §9, 120 for search; it was 100 here, which cut the app's 120-image pages short).
 */
const MAX_PAGE_SIZE = 120;
/**
 * The fallback runs when the strict search finds fewer images than this (a full page of the
 * app). A constant, not the caller's page, so every page of one query sees the same list and
 * the same total.
 */
const FALLBACK_BELOW = MAX_PAGE_SIZE;
/**
 * The fallback's first this many matches are ranked by nearness too (looserMatches): two of
 * the app's pages, read in one query by primary key.
 */
const NEAR_RANKED = 240;
/** A prefix of a single letter matches nearly everything: the retry needs at least two. */
const MIN_PREFIX_LENGTH = 2;

export type SearchService = ReturnType<typeof createSearchService>;

export function createSearchService(
  db: Executor,
  dialect: Dialect,
  options: SearchRepositoryOptions = {},
) {
  const repo = createSearchRepository(db, dialect, options);
  const cap = options.candidateCap ?? SEARCH_CANDIDATE_CAP;

  function documentOf(source: ImageSearchSource): SearchDocument {
    return searchDocument({
      title: source.titolo_img,
      tags: source.tags,
      category: source.category,
      text: source.extracted_text,
      username: source.username,
      alternates: source.ocr_alternates,
    });
  }

  /**
   * Writes the documents of a batch, in id order: the vocabulary of all of them first, in one
   * sorted pass (search.repository.ts, addToVocabulary), then each document.
   */
  async function reindexBatch(writer: SearchRepository, batch: readonly number[]): Promise<void> {
    const sources = await writer.loadSources(batch);
    const approved = sources.filter((source) => source.status === 'approved');
    const documents = new Map(approved.map((source) => [source.id_image, documentOf(source)]));
    await writer.addToVocabulary([...documents.values()]);
    for (const id of batch) {
      const document = documents.get(id);
      if (document === undefined) await writer.removeImageDocument(id);
      else await writer.upsertImageDocument(id, document, { vocabulary: 'added' });
    }
  }

  /**
   * Rebuilds the documents of these images; ids that are gone or not approved are removed.
   * Each batch of LOCKED_BATCH is read and written in one transaction holding its images'
   * document locks (db/locks.ts), as moderation's transactions do: a decision, edit or
   * deletion of one of them either committed before the read or waits for the write. Read
   * outside one, a reindex that saw an image still pending removed the document its approval
   * had written since, and the approved image could not be found. Inside a caller's
   * transaction (moderation, which holds the lock) it runs there.
   */
  async function reindexImages(ids: readonly number[]): Promise<void> {
    const unique = [...new Set(ids)].sort((a, b) => a - b);
    for (let start = 0; start < unique.length; start += LOCKED_BATCH) {
      const batch = unique.slice(start, start + LOCKED_BATCH);
      if (db.isTransaction) {
        await reindexBatch(repo, batch);
        continue;
      }
      await db.transaction().execute(async (trx) => {
        await holdImageDocuments(trx, dialect, batch);
        await reindexBatch(createSearchRepository(trx, dialect, options), batch);
      });
    }
  }

  const service = {
    reindexImages,

    /** After any write to an image's searchable fields, its status, or its deletion. */
    reindexImage(id_image: number): Promise<void> {
      return reindexImages([id_image]);
    },

    /** After a category rename: its name is part of every document in it. */
    async reindexByCategory(id_categoria: number): Promise<void> {
      await reindexImages(await repo.approvedImageIdsInCategory(id_categoria));
    },

    /**
     * After a tag rename. (Deleting a tag removes its image_tags rows first, so the caller
     * collects the image ids before and calls reindexImages with them after.)
     */
    async reindexByTag(id_tag: number): Promise<void> {
      await reindexImages(await repo.approvedImageIdsWithTag(id_tag));
    },

    /** After a username change. */
    async reindexByUser(id_utente: number): Promise<void> {
      await reindexImages(await repo.approvedImageIdsOfUser(id_utente));
    },

    /**
     * PostgreSQL: keeps each word that became common as bitmaps too (search.repository
     * wordsToMakeDense), one word at a time, so writers wait for one word's filling at most.
     * When a word's lock is not granted within a second (a vacuum of search_terms running),
     * it and the words after it are left to the next upkeep. Run by the worker's hourly
     * upkeep; safe in several processes at once. Answers the words made dense.
     */
    async makeCommonWordsDense(bar?: DenseBar): Promise<string[]> {
      const made: string[] = [];
      for (const term of await repo.wordsToMakeDense(bar)) {
        try {
          if (await repo.makeDense(term)) made.push(term);
        } catch (error) {
          // The next word would wait for the same lock.
          if (isLockTimeout(error)) break;
          throw error;
        }
      }
      return made;
    },

    /** Rebuilds every document, in id order and bounded batches (a repair tool). */
    async reindexAll(): Promise<number> {
      let last = 0;
      let count = 0;
      for (;;) {
        const ids = await repo.approvedImageIdsAfter(last, REINDEX_BATCH);
        const next = ids.at(-1);
        if (next === undefined) break;
        await reindexImages(ids);
        count += ids.length;
        last = next;
      }
      await repo.removeStaleDocuments();
      return count;
    },

    /** Drops documents of deleted or unapproved images (SQLite keeps them after a cascade). */
    removeStaleDocuments(): Promise<number> {
      return repo.removeStaleDocuments();
    },

    /**
     * One page of approved images matching every word of `query`, best matches first
     * ('relevance', ties by newer publication) or newest first; when those are fewer than a
     * page, followed by the fallback's looser matches (see the header), `total` counting
     * both. A blank query is a 400 with an Italian message; one of only signs ('?!', '😀',
     * '%') has no word to look for and finds nothing, as a query of words found nowhere does
     * (it was the same 400, 'Inserisci un testo da cercare.', to someone who had).
     */
    async search(
      query: string,
      skip = 0,
      limit = 20,
      order: SearchOrder = 'relevance',
    ): Promise<SearchPage> {
      if (query.trim() === '') throw badRequest(SEARCH_MESSAGES.blankQuery);
      const words = queryWords(query);
      const terms = words.map(({ stem }) => stem);
      if (terms.length === 0) return { ids: [], total: 0, capped: false };
      const page = {
        terms,
        skip: wholeNumber(skip, 0, Number.MAX_SAFE_INTEGER, 0),
        limit: wholeNumber(limit, 1, MAX_PAGE_SIZE, 20),
        order,
      };
      const strict = await strictSearch(page);
      if (strict.capped || strict.total >= FALLBACK_BELOW) return strict;
      // Fewer strict matches than a page: all of them, in their order, then the looser ones.
      const strictIds =
        page.skip === 0 && strict.ids.length === strict.total
          ? strict.ids
          : (await strictSearch({ ...page, skip: 0, limit: FALLBACK_BELOW })).ids;
      const looser = await looserMatches(words, new Set(strictIds));
      const all = [...strictIds, ...looser.ids];
      return {
        ids: all.slice(page.skip, page.skip + page.limit),
        total: all.length,
        capped: looser.capped,
      };
    },
  };
  return service;

  /** Every word whole (stemmed); when that finds nothing, the last word also as a prefix. */
  async function strictSearch(page: Omit<SearchQuery, 'prefixLast'>): Promise<StrictPage> {
    const exact = await repo.searchApprovedImages({ ...page, prefixLast: false });
    const last = page.terms.at(-1) ?? '';
    if (exact.total > 0 || exact.capped || last.length < MIN_PREFIX_LENGTH) return exact;
    // A word before the last that no image holds is not being typed: no prefix can help.
    if (exact.unheld?.some((term) => term !== last) === true) return exact;
    return repo.searchApprovedImages({ ...page, prefixLast: true });
  }

  /**
   * The fallback: approved images holding at least half of the query words (rounded up; of
   * the words other than articles and prepositions when there are any), each
   * whole or within its allowed slips of a vocabulary term, the strict matches excluded. Best
   * first: more words matched, then fewer slips, then rarer words matched, then (NEAR_RANKED
   * first) nearer readings of the words lacking, then the most recently uploaded, in both
   * orders, so that a strict match always comes before them and a near one before a partial
   * one. One vocabulary lookup for all the words, one statement for all their lists (at most
   * two index walks a word, each bounded by the candidate cap) and, for nearness, one read of
   * NEAR_RANKED rows by primary key: the fallback's cost does not grow with the number of
   * images.
   */
  async function looserMatches(
    words: ReadonlyArray<{ word: string; stem: string }>,
    exclude: ReadonlySet<number>,
  ): Promise<{ ids: number[]; capped: boolean }> {
    // Half of the words a visitor meant: an article or a preposition ('il muro', 'la città')
    // is held by half of the walls and alone would bring them all (FUNCTION_WORDS). It still
    // ranks a photo holding it above one that does not. A query of such words only counts them.
    const meant = words.flatMap(({ word }, index) => (FUNCTION_WORDS.has(word) ? [] : [index]));
    const counting = meant.length > 0 ? meant : words.map((_, index) => index);
    const needed = Math.ceil(counting.length / 2);
    const counted = counting.reduce((bits, index) => bits | (1 << index), 0);
    // Every word's near terms from one vocabulary lookup: a term within a word's slips shares
    // one of that word's own keys, so the other words' keys add only terms neighboursOf drops.
    const keys = [...new Set(words.flatMap(({ word, stem }) => queryKeys(word, stem)))];
    const forms = keys.length > 0 ? await repo.vocabularyCandidates(keys) : [];
    // Each word's lists, the word itself (no slip) first, then its neighbours by slips, all
    // read by one statement.
    const lists = words.map(({ word, stem }) => {
      const neighbours = neighboursOf(word, stem, forms);
      const bySlips = [{ slips: 0, terms: [stem] }];
      for (const slips of [...new Set(neighbours.map((n) => n.slips))].sort((a, b) => a - b)) {
        bySlips.push({
          slips,
          terms: neighbours.filter((n) => n.slips === slips).map((n) => n.term),
        });
      }
      return bySlips;
    });
    const flat = lists.flatMap((bySlips, word) => bySlips.map(({ slips }) => ({ word, slips })));
    const hits = await repo.approvedWithAnyOf(lists.flat().map(({ terms }) => terms));
    const capped = hits.some((list) => list.length >= cap);
    const order = orderFallback(
      flat.map(({ word, slips }, index) => ({ word, slips, ids: hits[index] ?? [] })),
      words.length,
      needed,
      exclude,
      counted,
    );
    // The first NEAR_RANKED partial matches: within the same words and slips, the photo whose
    // reading comes nearest to the words it lacks first ('napoli muori' finds 'Napoli e poi
    // buoni' before another photo of Naples), instead of the newest. Only the first few, read
    // by primary key, so the cost stays bounded however many images match one word.
    const top = order.ids.slice(0, NEAR_RANKED).map((id, index) => ({
      id,
      rank: order.rank[index] ?? 0,
      matched: order.matched[index] ?? 0,
      near: 0,
    }));
    const head = top.filter(({ matched }) => matched !== (1 << words.length) - 1);
    if (head.length > 1) {
      const forms = new Map<number, string[]>();
      for (const row of await repo.readTexts(head.map((match) => match.id))) {
        const text = foldForSearch(`${row.extracted_text ?? ''} ${row.ocr_alternates ?? ''}`);
        forms.set(row.id_image, [...new Set(text.split(' '))]);
      }
      for (const match of head) {
        for (const [index, { word, stem }] of words.entries()) {
          if ((match.matched & (1 << index)) === 0) {
            match.near += nearness(word, stem, forms.get(match.id) ?? []);
          }
        }
      }
    }
    top.sort((a, b) => a.rank - b.rank || a.near - b.near || b.id - a.id);
    const ids = [...top.map((match) => match.id), ...order.ids.slice(NEAR_RANKED)];
    return { ids, capped };
  }
}

/** The route validates skip and limit; this only keeps a direct caller's slip harmless. */
function wholeNumber(value: number, min: number, max: number, fallback: number): number {
  if (!Number.isFinite(value)) return fallback;
  return Math.min(max, Math.max(min, Math.trunc(value)));
}
