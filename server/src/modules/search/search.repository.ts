import { sql, type RawBuilder } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { Executor } from '../../db/executor.js';
import type { ImageStatus } from '../../db/tables.js';
import { chunks } from '../../db/chunks.js';
import { deletionKeys, hasFuzzyKeys, type VocabularyForm } from './search.fuzzy.js';
import type { SearchDocument } from './search.text.js';

/*
 * All the SQL of search. The index is `image_search` (migration 2026-11-21T1500-search): an
 * FTS5 table on SQLite, a table of weighted tsvectors on PostgreSQL. Both hold ready-made
 * stems (search.text.ts), so matching is identical; only ranking formulas differ (bm25 and
 * ts_rank_cd), with the same field weights. The fallback's vocabulary is `search_vocabulary`
 * (migration 2026-11-25T0800-search-vocabulary, search.fuzzy.ts), an ordinary table, the same
 * on both engines, written together with each document.
 *
 * PostgreSQL finds the candidates of whole words in `search_terms` (migrations
 * 2026-11-25T2100-search-terms and 2026-11-27T0900-search-terms-approved), one btree row per
 * (term, image) with the image's publication time, which triggers derive from the documents
 * of approved images: the documents' GIN index returns matches in table order, so taking the
 * newest few thousand of a word meant reading every matching row first (docs/PERFORMANCE.md,
 * "Search on PostgreSQL: words in 0.1–1 % of the images"). Several words whose images seldom
 * overlap are still cheaper to intersect in the GIN index, which reads only the images holding
 * all of them ("Search on PostgreSQL: two words, the path chosen per query"). FTS5's index is
 * in rowid order already.
 *
 * A word made dense (migration 2026-11-29T0900-search-term-blocks) is also kept as bitmaps of
 * blocks of TERM_BLOCK ids, `search_term_blocks`, against which the rarer word's images are
 * tested a block at a time (docs/PERFORMANCE.md, "Two common words: bitmaps of id blocks").
 */

export type SearchOrder = 'relevance' | 'newest';

/**
 * How many matches a search considers at most: the most recently uploaded ones (highest
 * id_image). Ranking, sorting and counting a bounded set keeps a word found in a third of a
 * million images as fast as a rare one; beyond the cap, `total` stops at the cap and `capped`
 * says so.
 */
export const SEARCH_CANDIDATE_CAP = 2000;

/**
 * Field weights, title first. SQLite's bm25 takes them per column in table order; PostgreSQL's
 * ts_rank_cd takes them as {D, C, B, A}, and the fields are stored with weights A..D in the
 * same order. The title and the tags weigh well above the OCR text, which is long and noisy.
 */
const WEIGHTS = { title: 1.0, tags: 0.4, body: 0.2, author: 0.1 } as const;

export interface SearchQuery {
  /** Stems, every one required. */
  terms: readonly string[];
  /** Whether the last stem also matches longer words that start with it. */
  prefixLast: boolean;
  skip: number;
  limit: number;
  order: SearchOrder;
}

export interface SearchPage {
  /** Approved image ids of the requested page, best (or newest) first. */
  ids: number[];
  /** Approved images matching, counted among the candidates (so at most the cap). */
  total: number;
  /** True when there were more matches than the cap: `total` is then a lower bound. */
  capped: boolean;
}

/** A strict search's page, with the query's terms no approved image holds when it knows them. */
export interface StrictPage extends SearchPage {
  /** PostgreSQL, several whole words: those held by no approved image (the page is empty). */
  unheld?: readonly string[];
}

/** An image with everything it is found by, as the service turns it into a document. */
export interface ImageSearchSource {
  id_image: number;
  status: ImageStatus;
  titolo_img: string | null;
  extracted_text: string | null;
  ocr_alternates: string | null;
  category: string | null;
  username: string | null;
  tags: string[];
}

interface Hit {
  id: number;
  score: number;
  /** PostgreSQL's candidates read from search_terms carry it; the others are null. */
  published_at: string | null;
}

/**
 * A query term with the number of images holding it, counted up to DRIVE_BELOW (a dense term,
 * held by any, is not counted: DRIVE_BELOW), and where its newest SHARE_SAMPLE images lie: its
 * highest image id and the mean gap between their ids (0 when it has fewer than two images).
 */
interface TermCount {
  term: string;
  images: number;
  newest: number;
  spacing: number;
  /** Whether the term is kept as bitmaps too (search_dense_terms). */
  dense: boolean;
}

/**
 * PostgreSQL: a whole-word query's terms, rarest first, and how many of the rarest term's
 * newest images were sampled and how many of those hold every other term (both 0 for a single
 * term).
 */
interface TermPlan {
  terms: TermCount[];
  sampled: number;
  holding: number;
}

/**
 * PostgreSQL: a multi-word search is driven by its rarest word when fewer images than this
 * hold it (see newestWithEvery). Counting up to it reads about 40 index pages per word.
 */
const DRIVE_BELOW = 10_000;

/**
 * PostgreSQL: how many of the driving word's newest images are looked up under the other words
 * to estimate the share of its images that hold them all. The words' counts alone cannot tell
 * a phrase (`vento parole`: nearly every image of the rarer word holds the other) from two
 * unrelated words (`sempre parole`: a third of them), and the two want different paths. 64
 * lookups read a few leaf pages near the newest end of each range; the share comes out within
 * about ±0.06 of the true one for a word in a third of the images.
 *
 * The same number of each word's newest ids also tells how common a word counted past
 * DRIVE_BELOW is: they span about SHARE_SAMPLE / density ids (one or two leaf pages read
 * backwards), where counting `sempre` up to 40,000 instead of 10,000 took 7 ms instead of 2.
 */
const SHARE_SAMPLE = 64;

/**
 * PostgreSQL: what reading one matching document through the GIN index costs, in lookups of an
 * image under a word in search_terms (a btree descent each). The GIN path reads every image
 * holding all the words, a heap row each wherever it lies in the table, plus the words' posting
 * lists; the lookups stop at the cap. Measured at 1M images (docs/PERFORMANCE.md, "two words,
 * the path chosen per query"): a matching document took 1.7–3.6 µs with its page in shared
 * buffers and about 9 µs from the OS cache, a lookup 1.4–1.8 µs and about 5 µs.
 */
const DOCUMENT_COST = 2;

/**
 * PostgreSQL: what the GIN index's intersection of the words' posting lists costs per image of
 * the driving word and other word, in lookups. Negligible beside the documents when the driver
 * is rare, it is what the GIN path costs when common words seldom meet: at 1M images the
 * bitmap of `amiciz & amor` (82,443 and 118,492 images, 2,111 together) took 5–12 ms, that of
 * `silenz & sempr` 2.2 ms, about 0.1 µs per image of the rarer word; with a third word
 * (`amore sempre luce`) the GIN path took 33–56 ms where the merge took 26.
 */
const POSTING_COST = 1 / 16;

/**
 * PostgreSQL: what merging the words' lists costs per entry read, in lookups. The merge walks
 * every list backwards from the newest id until `cap` images hold them all, reading each list
 * sequentially: at 1M images 0.13–0.3 µs per entry (`amore sempre`, 23,000 entries, 3–7.5 ms;
 * `sempre silenzio`, about 270,000 entries, 34–76 ms).
 */
const ENTRY_COST = 1 / 10;

/**
 * How many image ids one row of `search_term_blocks` covers: the block size of migration
 * 2026-11-29T0900-search-term-blocks, fixed there.
 */
export const TERM_BLOCK = 8192;

/**
 * PostgreSQL: what the bitmaps path costs per block it reads, in lookups: a btree descent to
 * the driving word's ids in the block, and the row of each other word's bitmap (1 KB, read in
 * place), on top of the driving word's entries read in order at ENTRY_COST each.
 */
const BLOCK_COST = 1;

/**
 * PostgreSQL: what the intersect path costs besides its blocks' rows and its lookups, in
 * lookups: the blocks' bits counted, ordered twice and sent (1 KB for each block that can reach
 * the page) and read in the process, and a second statement for the times. Measured at 1M
 * images (docs/PERFORMANCE.md, "Common words ANDed"), the path took 5–8 ms whatever the words,
 * where the bitmaps read `sempre silenzio`, `sempre vento` and `amore sempre` as fast.
 */
const INTERSECT_COST = 500;

/**
 * PostgreSQL: a word is made dense (kept as bitmaps too) when this many approved images hold
 * it, and at least one in DENSE_SHARE of the ids up to the newest: about 80 images or more a
 * block of TERM_BLOCK ids, where its 1 KB bitmap costs no more than its btree entries. Below, a
 * word's images are few enough to look up one by one.
 */
export const DENSE_AT = 10_000;
export const DENSE_SHARE = 100;

/** The bar a word must reach to be made dense; DENSE_AT and DENSE_SHARE unless a test lowers it. */
export interface DenseBar {
  images?: number;
  share?: number;
}

/**
 * How a multi-word search reads its candidates on PostgreSQL: `lookups` (the rarest word's
 * images, newest first, each looked up under the other words), `documents` (the GIN index of
 * the documents intersects every word's list), `merge` (every word's list read backwards
 * from search_terms, merged by the planner), `bitmaps` (the rarest word's images read
 * backwards a block of ids at a time, each tested against the other words' bitmaps of that
 * block; only when every other word is dense) or `intersect` (every word's bitmaps ANDed a
 * block at a time, the ids read off the bits left; only when every word is dense). Chosen per
 * query by default (choosePath); tests and benchmarks force one. All five give the newest
 * `cap` images holding every word.
 */
export const MULTI_WORD_PATHS = ['lookups', 'documents', 'merge', 'bitmaps', 'intersect'] as const;
export type MultiWordPath = (typeof MULTI_WORD_PATHS)[number];

/**
 * `candidateCap` and `driveBelow` default to SEARCH_CANDIDATE_CAP and DRIVE_BELOW; tests lower
 * them to reach the cap and each way of reading a multi-word search with a few images, and
 * force `multiWordPath` to compare the two paths' answers.
 */
export interface SearchRepositoryOptions {
  candidateCap?: number;
  driveBelow?: number;
  multiWordPath?: MultiWordPath;
}

/** What choosePath weighs: the words' frequencies and the sample of the driver's images. */
export interface PathEstimate {
  /** Images holding the driving (rarest) word: counted, or estimated past `driveBelow`. */
  images: number;
  /** Images holding each other word, likewise. */
  others: readonly number[];
  /** The highest image id holding any of the words: the id range the lists cover. */
  newest: number;
  sampled: number;
  holding: number;
  /** Whether every other word is dense, so the bitmaps path can read them. */
  othersDense?: boolean;
  /** Whether the driving word is dense too, so the intersect path can read them all. */
  drivingDense?: boolean;
  /** Newest first: the images up to the end of the page asked for (skip + limit). */
  newestPage?: number;
}

/**
 * The cheapest path, in lookups, for a multi-word search driven by a word held by `images`
 * images, of whose newest `sampled` ones `holding` hold every other word. With a share s of the
 * driving word's images holding them all, the lookups stop after cap / s images (all of them
 * when fewer than the cap match); the GIN path reads every one of the images · s matches and
 * intersects the posting lists; the merge reads every list over the ids where cap matches lie,
 * cap / (s · the driver's density) of them. The merge is weighed only when every word is held
 * by `driveBelow` images or more: below, the lookups are bounded by the driver's count, and
 * the planner's merge of a rare word with a common one read the common one whole. The bitmaps
 * are weighed when every word but the driver is dense; the intersect path when every word is
 * and the page is asked newest first. Exported for its unit test.
 */
export function choosePath(plan: PathEstimate, cap: number, driveBelow: number): MultiWordPath {
  const { images, others, newest, sampled, holding } = plan;
  if (sampled === 0) return 'lookups';
  const share = holding / sampled;
  // The driving word's images read before `cap` hold every other word (all, when fewer do).
  const driven = share === 0 ? images : Math.min(images, cap / share);
  const costs: Array<[MultiWordPath, number]> = [
    ['lookups', driven],
    ['documents', images * (share * DOCUMENT_COST + POSTING_COST * others.length)],
  ];
  if (plan.othersDense === true && newest > 0 && images > 0) {
    // The blocks those images span, each read once with a bitmap row per other word.
    const blocks = Math.min(newest / TERM_BLOCK, (driven * newest) / images / TERM_BLOCK);
    costs.push([
      'bitmaps',
      driven * ENTRY_COST + Math.max(1, blocks) * BLOCK_COST * (1 + others.length),
    ]);
  }
  if (
    plan.othersDense === true &&
    plan.drivingDense === true &&
    plan.newestPage !== undefined &&
    newest > 0
  ) {
    // Every block's rows ANDed, then the publication times of the blocks that reach the page:
    // the page's images and about a block's more (intersected, newestOf).
    // Ranking needs every candidate's time and document, which the other paths read as cheaply.
    const blocks = Math.max(1, newest / TERM_BLOCK);
    const lookups = Math.min(cap, images * share, plan.newestPage + (images * share) / blocks);
    costs.push(['intersect', INTERSECT_COST + blocks * BLOCK_COST * (1 + others.length) + lookups]);
  }
  if (images >= driveBelow && newest > 0) {
    const density = images / newest;
    const ids = share === 0 ? newest : Math.min(newest, cap / (share * density));
    const entries = (ids * (images + others.reduce((sum, n) => sum + n, 0))) / newest;
    costs.push(['merge', entries * ENTRY_COST]);
  }
  let [best, cheapest] = costs[0] ?? ['lookups', 0];
  for (const [path, cost] of costs) {
    if (cost < cheapest) [best, cheapest] = [path, cost];
  }
  return best;
}

/**
 * A word's number of images: its count below `driveBelow`, or else estimated from the ids its
 * newest images span, assuming they are spread over ids 1 to its newest as near the top.
 */
function estimatedImages({ images, newest, spacing }: TermCount, driveBelow: number): number {
  if (images < driveBelow || spacing === 0) return images;
  return Math.max(driveBelow, newest / spacing);
}

/**
 * PostgreSQL: the joins of each term's row of search_term_blocks to the block of `b1`, aliased
 * b{first}, b{first + 1}…
 */
function blockJoins(terms: readonly TermCount[], first: number): RawBuilder<unknown>[] {
  return terms.map(({ term }, index) => {
    const alias = sql.raw(`b${String(index + first)}`);
    return sql`JOIN search_term_blocks ${alias} ON ${alias}.term = ${term} AND ${alias}.block = b1.block`;
  });
}

/**
 * PostgreSQL: the images of `ids` that hold `term`, each with its publication time, looked up
 * one by one: LIMIT 1 keeps the planner from joining the term's whole list instead (15 ms for
 * `amiciz` at 1M images, against about 1 µs a lookup).
 */
function timesOf(
  term: string,
  ids: readonly number[],
): RawBuilder<{ id: number; published_at: string | null }> {
  return sql<{ id: number; published_at: string | null }>`
    SELECT held.id_image AS id, held.published_at
    FROM unnest(${ids}::int[]) AS wanted (id)
    CROSS JOIN LATERAL (
      SELECT id_image, published_at FROM search_terms
      WHERE search_terms.term = ${term} AND search_terms.id_image = wanted.id
      LIMIT 1
    ) AS held
  `;
}

export type SearchRepository = ReturnType<typeof createSearchRepository>;

/** Code-unit order: any one total order will do, as long as every writer uses it. */
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export function createSearchRepository(
  db: Executor,
  dialect: Dialect,
  options: SearchRepositoryOptions = {},
) {
  const cap = options.candidateCap ?? SEARCH_CANDIDATE_CAP;
  const driveBelow = options.driveBelow ?? DRIVE_BELOW;
  const postgres = dialect === 'postgres';

  /**
   * The candidates: matching documents, highest image id first, at most `cap`. Both engines
   * walk their index by id and stop at the cap, whatever the number of matches.
   */
  function hits(
    query: SearchQuery,
    withScore: boolean,
    plan: TermPlan,
    path: MultiWordPath,
    knownIds: readonly number[],
  ): RawBuilder<Hit> {
    if (postgres) {
      const tsquery = sql`${tsqueryText(query)}::tsquery`;
      const weightList = [WEIGHTS.author, WEIGHTS.body, WEIGHTS.tags, WEIGHTS.title].join(',');
      const weights = sql`${`{${weightList}}`}::float4[]`;
      // Normalisation 1 divides by 1 + log(document length): bm25 also prefers the shorter
      // of two documents holding the words, and without it the engines ordered OCR-only
      // documents differently (issue 9, step 5: 5 of 317 evaluation queries, all recovered).
      const normalization = sql.lit(1);
      if (path !== 'documents') {
        // Only the candidates' documents are read, and only to rank them: by the function of
        // migration 2026-12-02T1400-search-rank-documents, a bitmap heap scan that asks for the
        // pages ahead, so a first search of a word in 0.14–0.5 % of the images reads them from
        // the disk in 43–55 ms instead of 108–167 (docs/PERFORMANCE.md, "Documents asked for
        // ahead").
        const candidates = newestWithEvery(plan.terms, path, knownIds);
        return withScore
          ? sql<Hit>`(
              WITH c AS MATERIALIZED (SELECT * FROM ${candidates} AS newest)
              SELECT c.id, ranked.score, c.published_at
              FROM search_rank_documents(
                ARRAY(SELECT id FROM c), ${tsquery}, ${weights}, ${normalization}
              ) AS ranked
              JOIN c ON c.id = ranked.id_image
            )`
          : sql<Hit>`(SELECT c.id, 0 AS score, c.published_at FROM ${candidates} AS c)`;
      }
      const score = withScore
        ? sql`ts_rank_cd(${weights}, document, ${tsquery}, ${normalization})`
        : sql`0`;
      // The prefix retry (a word still being typed, only when nothing matched it whole)
      // merges every term starting with it, which the GIN index does in one scan; words that
      // seldom meet are intersected there, and each match's document is ranked as it is read.
      // Whole words come here only when few images hold them all, but when each is common the
      // planner expects many and walks the primary key backwards through every document (213 ms
      // for `amiciz & amor` at 1M, against 11–26 ms by the bitmap): OFFSET 0 keeps the
      // match from seeing the ORDER BY, so it is read through the bitmap and sorted. A prefix
      // may match most images, where that walk is the right plan, so it is left to the planner.
      const fence = query.prefixLast ? sql`` : sql`OFFSET 0`;
      return sql<Hit>`(
        SELECT id_image AS id, ${score} AS score, NULL::timestamptz AS published_at
        FROM (SELECT id_image, document FROM image_search WHERE document @@ ${tsquery} ${fence})
          AS matching
        ORDER BY id_image DESC
        LIMIT ${cap}
      )`;
    }
    // bm25 is lower for better matches; negated so both engines sort by score descending.
    const score = withScore
      ? sql`-bm25(image_search, ${sql.lit(WEIGHTS.title)}, ${sql.lit(WEIGHTS.tags)}, ${sql.lit(WEIGHTS.body)}, ${sql.lit(WEIGHTS.author)})`
      : sql`0`;
    return sql<Hit>`(
      SELECT rowid AS id, ${score} AS score, NULL AS published_at
      FROM image_search
      WHERE image_search MATCH ${fts5Text(query)}
      ORDER BY rowid DESC
      LIMIT ${cap}
    )`;
  }

  /**
   * PostgreSQL: the query's distinct terms, rarest first, each with its number of images
   * counted up to DRIVE_BELOW (an index-only count of at most that many rows per term) and the
   * ids its SHARE_SAMPLE newest images span, which tell the rarer of two words counted past
   * DRIVE_BELOW; and how many of the rarest term's SHARE_SAMPLE newest images hold every
   * other term: one statement, so choosing the path costs no round trip of its own.
   */
  async function byRarity(terms: readonly string[]): Promise<TermPlan> {
    const unique = [...new Set(terms)];
    // A single term drives alone: its count would choose nothing.
    if (unique.length === 1) {
      const term = { term: unique[0] ?? '', images: 0, newest: 0, spacing: 0, dense: false };
      return { terms: [term], sampled: 0, holding: 0 };
    }
    const result = await sql<TermCount & { sampled: number; holding: number }>`
      WITH counted AS MATERIALIZED (
        SELECT term, images, newest, spacing, dense,
          row_number() OVER (ORDER BY images, spacing DESC, term COLLATE "C") AS rarity
        FROM (
          SELECT wanted.term, CASE
            -- A dense word was held by DENSE_AT images when it was made so: it is not counted
            -- again (a count to 10,000 reads about 40 index pages, 1–2 ms a word), as if its
            -- count had reached the cap, and its number is estimated from its newest ids.
            WHEN dense.held AND span.newest > 0 THEN ${driveBelow}
            ELSE (
              SELECT count(*)::int FROM (
                SELECT 1 FROM search_terms WHERE search_terms.term = wanted.term
                LIMIT ${driveBelow}
              ) AS counted
            )
          END AS images, span.newest, span.spacing, dense.held AS dense
          FROM unnest(${unique}::text[]) AS wanted (term)
          CROSS JOIN LATERAL (
            SELECT EXISTS (
              SELECT 1 FROM search_dense_terms WHERE search_dense_terms.term = wanted.term
            ) AS held
          ) AS dense
          CROSS JOIN LATERAL (
            SELECT coalesce(max(id_image), 0) AS newest,
              coalesce((max(id_image) - min(id_image))::float8 / nullif(count(*) - 1, 0), 0)
                AS spacing
            FROM (
              SELECT id_image FROM search_terms
              WHERE search_terms.term = wanted.term
              ORDER BY id_image DESC
              LIMIT ${SHARE_SAMPLE}
            ) AS newest
          ) AS span
        ) AS counts
      ),
      sample AS (
        SELECT NOT EXISTS (
          SELECT 1 FROM counted other
          WHERE other.rarity > 1 AND NOT EXISTS (
            SELECT 1 FROM search_terms held
            WHERE held.term = other.term AND held.id_image = newest.id_image
          )
        ) AS holds_all
        FROM counted rarest CROSS JOIN LATERAL (
          SELECT id_image FROM search_terms
          WHERE search_terms.term = rarest.term
          ORDER BY id_image DESC
          LIMIT ${SHARE_SAMPLE}
        ) AS newest
        WHERE rarest.rarity = 1
      )
      SELECT counted.term, counted.images, counted.newest, counted.spacing, counted.dense,
        (SELECT count(*)::int FROM sample) AS sampled,
        (SELECT count(*)::int FROM sample WHERE holds_all) AS holding
      FROM counted
      ORDER BY counted.rarity
    `.execute(db);
    const first = result.rows[0];
    return {
      terms: result.rows.map(({ term, images, newest, spacing, dense }) => ({
        term,
        images,
        newest,
        spacing,
        dense,
      })),
      sampled: first?.sampled ?? 0,
      holding: first?.holding ?? 0,
    };
  }

  /** PostgreSQL: how a whole-word search reads its candidates. */
  function multiWordPath(plan: TermPlan, query: SearchQuery): MultiWordPath {
    const [rarest, ...others] = plan.terms;
    if (rarest === undefined || others.length === 0) return 'lookups';
    const othersDense = others.every(({ dense }) => dense);
    if (options.multiWordPath !== undefined) {
      // Forced by a test or a benchmark: a word without bitmaps would read as held by nothing.
      if (options.multiWordPath === 'bitmaps' && !othersDense) {
        throw new Error('the bitmaps path needs every word but the rarest made dense');
      }
      if (options.multiWordPath === 'intersect' && !(othersDense && rarest.dense)) {
        throw new Error('the intersect path needs every word made dense');
      }
      return options.multiWordPath;
    }
    const estimate: PathEstimate = {
      images: estimatedImages(rarest, driveBelow),
      others: others.map((term) => estimatedImages(term, driveBelow)),
      newest: Math.max(...plan.terms.map(({ newest }) => newest)),
      sampled: plan.sampled,
      holding: plan.holding,
      othersDense,
      drivingDense: rarest.dense,
      ...(query.order === 'newest' ? { newestPage: query.skip + query.limit } : {}),
    };
    return choosePath(estimate, cap, driveBelow);
  }

  /**
   * PostgreSQL: the newest `cap` images holding every term, from search_terms alone (index-
   * only scans), reading the first term's ids backwards and stopping at the cap. With several
   * terms, by `lookups` the first (rarest) drives and each of its images is looked up under the
   * other terms (a subquery per term, which the planner runs per row and cannot turn into a
   * join): at most as many lookups per other term as the rarest has images, whatever those
   * terms' frequency. Left to its estimates the planner merged a word in 0.5 % of 1M images
   * with one in 37 % by reading all 371,000 ids of the latter. By `merge` their lists are
   * joined and the planner merges them, stopping at the cap: cheaper when many images hold
   * every term (choosePath). By `bitmaps` the other terms' blocks are read newest first, and
   * in each the first term's ids are read backwards and tested against the blocks' bits: a
   * descent a block instead of one an image. By `intersect` the images are already known
   * (`knownIds`, from intersected) and only their publication times are read.
   */
  function newestWithEvery(
    terms: readonly TermCount[],
    path: Exclude<MultiWordPath, 'documents'>,
    knownIds: readonly number[],
  ): RawBuilder<{ id: number; published_at: string | null }> {
    const [first = { term: '' }, ...others] = terms;
    if (path === 'intersect') return sql`(${timesOf(first.term, knownIds)})`;
    if (path === 'lookups') {
      // Below the oldest image of any other term nothing can match: the walk stops there. The
      // choice trusts the density of each word's newest images, and a word that only lately
      // became common (a new tag) would otherwise leave a common driver looked up to its end.
      const lookups = others.map(
        ({ term }) => sql`AND t0.id_image >= (
          SELECT min(id_image) FROM search_terms oldest WHERE oldest.term = ${term}
        ) AND (
          SELECT true FROM search_terms other
          WHERE other.term = ${term} AND other.id_image = t0.id_image
        )`,
      );
      return sql<{ id: number; published_at: string | null }>`(
        SELECT t0.id_image AS id, t0.published_at
        FROM search_terms t0
        WHERE t0.term = ${first.term} ${sql.join(lookups, sql` `)}
        ORDER BY t0.id_image DESC
        LIMIT ${cap}
      )`;
    }
    if (path === 'bitmaps') {
      // b1 walks the blocks where the second term has images, newest first; the others' blocks
      // are joined to it. The ids come out block by block, each block's newest first, so the
      // sort by (block, id) is done a block at a time and stops at the cap.
      const [second = { term: '' }, ...rest] = others;
      const joins = blockJoins(rest, 2);
      const tests = others.map((_, index) => {
        const alias = sql.raw(`b${String(index + 1)}`);
        return sql`AND get_bit(${alias}.bits, t0.id_image % ${sql.lit(TERM_BLOCK)}) = 1`;
      });
      return sql<{ id: number; published_at: string | null }>`(
        SELECT t0.id_image AS id, t0.published_at
        FROM search_term_blocks b1 ${sql.join(joins, sql` `)}
        CROSS JOIN LATERAL (
          SELECT id_image, published_at FROM search_terms
          WHERE search_terms.term = ${first.term}
            AND search_terms.id_image >= b1.block * ${sql.lit(TERM_BLOCK)}
            AND search_terms.id_image <= b1.block * ${sql.lit(TERM_BLOCK)} + ${sql.lit(TERM_BLOCK - 1)}
          ORDER BY search_terms.id_image DESC
        ) AS t0
        WHERE b1.term = ${second.term} ${sql.join(tests, sql` `)}
        ORDER BY b1.block DESC, t0.id_image DESC
        LIMIT ${cap}
      )`;
    }
    const joins = others.map(({ term }, index) => {
      const alias = sql.raw(`t${String(index + 1)}`);
      return sql`JOIN search_terms ${alias} ON ${alias}.id_image = t0.id_image AND ${alias}.term = ${term}`;
    });
    return sql<{ id: number; published_at: string | null }>`(
      SELECT t0.id_image AS id, t0.published_at
      FROM search_terms t0 ${sql.join(joins, sql` `)}
      WHERE t0.term = ${first.term}
      ORDER BY t0.id_image DESC
      LIMIT ${cap}
    )`;
  }

  /**
   * PostgreSQL, every term dense: how many of the newest `cap` images hold every term, and the
   * ids of those that can be among the first `reach` of them newest first. Each block's rows of
   * the terms are ANDed; the blocks, newest first, until they hold `cap` images, are the
   * candidates. Then the blocks whose bounds of publication (migration
   * 2026-12-01T2100-search-published-bounds; a block without bounds could hold any time) end
   * latest, until they hold `reach` candidates: the `reach`th image newest first was published
   * no earlier than the earliest of their bounds' starts, so a block whose bounds end before
   * that holds none of those images, and only the others' bits are sent. The ids are read off
   * the bits here, where reading 2,000 positions off a bit string took 6.5 ms in PL/pgSQL
   * (docs/PERFORMANCE.md, "Two common words: bitmaps of id blocks"). A bit string is sent as its
   * binary form (bit_send: its length, then the bits, the first in the first byte's high bit).
   */
  async function intersected(
    terms: readonly TermCount[],
    reach: number,
  ): Promise<{ total: number; ids: number[] }> {
    const [first = { term: '' }, ...others] = terms;
    const joins = blockJoins(others, 2);
    const anded = sql.join(
      [first, ...others].map((_, index) => sql.raw(`b${String(index + 1)}.bits`)),
      sql` & `,
    );
    const result = await sql<{ block: number; before: number; bits: Buffer; total: number }>`
      WITH counted AS (
        SELECT block, bits, bit_count(bits) AS held
        FROM (
          SELECT b1.block, ${anded} AS bits
          FROM search_term_blocks b1 ${sql.join(joins, sql` `)}
          WHERE b1.term = ${first.term}
        ) AS blocks
      ),
      by_id AS (
        SELECT block, bits, held,
          sum(held) OVER (ORDER BY block DESC ROWS UNBOUNDED PRECEDING) - held AS before
        FROM counted
        WHERE held > 0
      ),
      candidates AS MATERIALIZED (
        SELECT by_id.block, by_id.bits, by_id.before,
          least(by_id.held, ${cap} - by_id.before) AS taken,
          coalesce(bounds.oldest, '-infinity') AS oldest,
          coalesce(bounds.newest, 'infinity') AS newest
        FROM by_id LEFT JOIN search_published_bounds AS bounds USING (block)
        WHERE by_id.before < ${cap}
      ),
      by_time AS (
        SELECT oldest,
          sum(taken) OVER (ORDER BY newest DESC, block DESC ROWS UNBOUNDED PRECEDING) - taken
            AS earlier
        FROM candidates
      )
      SELECT block, before::int, substring(bit_send(bits) FROM 5) AS bits,
        (SELECT sum(taken) FROM candidates)::int AS total
      FROM candidates
      WHERE newest >= (SELECT min(oldest) FROM by_time WHERE earlier < ${reach})
      ORDER BY block DESC
    `.execute(db);
    const ids: number[] = [];
    for (const { block, before, bits } of result.rows) {
      const base = block * TERM_BLOCK;
      let left = cap - before;
      for (let byte = bits.length - 1; byte >= 0 && left > 0; byte -= 1) {
        const value = bits[byte] ?? 0;
        if (value === 0) continue;
        for (let bit = 7; bit >= 0 && left > 0; bit -= 1) {
          if ((value & (0x80 >> bit)) !== 0) {
            ids.push(base + byte * 8 + bit);
            left -= 1;
          }
        }
      }
    }
    return { total: result.rows[0]?.total ?? 0, ids };
  }

  /** PostgreSQL: a page of the given images newest first (timesOf). */
  async function newestOf(term: string, ids: readonly number[], query: SearchQuery) {
    const result = await sql<{ id: number }>`
      SELECT id FROM (${timesOf(term, ids)}) AS held
      ORDER BY published_at DESC NULLS LAST, id DESC
      LIMIT ${query.limit} OFFSET ${query.skip}
    `.execute(db);
    return result.rows.map((row) => row.id);
  }

  /**
   * Adds the document's forms (words and stems) that are new to the vocabulary, with their
   * deletion keys. Forms are never taken out when the last document holding them goes: a stale
   * one only makes the fallback look up a term that matches nothing, and the vocabulary grows
   * with the distinct words ever indexed, not with the images.
   */
  async function addToVocabulary(documents: readonly SearchDocument[]): Promise<void> {
    const forms = documents.flatMap((document) =>
      document.forms.filter(({ form }) => hasFuzzyKeys(form)),
    );
    if (forms.length === 0) return;
    const known = new Set<string>();
    for (const batch of chunks([...new Set(forms.map(({ form }) => form))])) {
      // A form is known when its own key (variant = form) is stored.
      const rows = await db
        .selectFrom('search_vocabulary')
        .select(['form', 'term'])
        .where('variant', 'in', batch)
        .whereRef('variant', '=', 'form')
        .execute();
      for (const row of rows) known.add(`${row.form} ${row.term}`);
    }
    // In one order for every writer, all of a transaction's documents together: PostgreSQL
    // locks each new row until the commit, and two writers adding the same new words in
    // opposite orders deadlocked.
    const rows = forms
      .filter(({ form, term }) => !known.has(`${form} ${term}`))
      .flatMap(({ form, term }) => deletionKeys(form).map((variant) => ({ variant, form, term })))
      .sort(
        (a, b) =>
          compare(a.variant, b.variant) || compare(a.form, b.form) || compare(a.term, b.term),
      )
      // Documents of one batch share words: each row once.
      .filter(
        (row, i, all) =>
          i === 0 ||
          row.variant !== all[i - 1]?.variant ||
          row.form !== all[i - 1]?.form ||
          row.term !== all[i - 1]?.term,
      );
    for (const batch of chunks(rows, 300)) {
      await db
        .insertInto('search_vocabulary')
        .values(batch)
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
  }

  return {
    /**
     * Adds these documents' new terms to the vocabulary in one sorted pass: a transaction
     * writing several documents calls it first, then upsertImageDocument with `vocabulary:
     * 'added'`.
     */
    addToVocabulary,

    /** Stores or replaces the document of one image, and adds its new terms to the vocabulary. */
    async upsertImageDocument(
      id_image: number,
      document: SearchDocument,
      options: { vocabulary?: 'added' } = {},
    ): Promise<void> {
      if (options.vocabulary !== 'added') await addToVocabulary([document]);
      if (postgres) {
        // Guarded by EXISTS: an image deleted meanwhile gets no document (nor an FK error).
        await sql`
          INSERT INTO image_search (id_image, document)
          SELECT ${id_image}, ${tsvectorText(document)}::tsvector
          WHERE EXISTS (SELECT 1 FROM images WHERE id_image = ${id_image})
          ON CONFLICT (id_image) DO UPDATE SET document = excluded.document
        `.execute(db);
        return;
      }
      // CAST: better-sqlite3 binds JavaScript numbers as REAL, and FTS5 wants integer rowids.
      await sql`
        INSERT OR REPLACE INTO image_search (rowid, title, tags, body, author)
        VALUES (CAST(${id_image} AS INTEGER), ${document.title}, ${document.tags},
          ${document.body}, ${document.author})
      `.execute(db);
    },

    async removeImageDocument(id_image: number): Promise<void> {
      if (postgres) {
        await sql`DELETE FROM image_search WHERE id_image = ${id_image}`.execute(db);
        return;
      }
      // CAST matters here: FTS5 ignores a REAL rowid constraint, which would delete every row.
      await sql`DELETE FROM image_search WHERE rowid = CAST(${id_image} AS INTEGER)`.execute(db);
    },

    /**
     * PostgreSQL: the words to make dense: held by at least DENSE_AT approved images and by
     * one in DENSE_SHARE of the ids up to the newest approved image, and not dense yet. The
     * candidates are the most common values of the planner's statistics on search_terms (up to
     * 1,000 words, refreshed by autovacuum's ANALYZE; statistics target 1000), so no word's
     * images are counted unless its estimate comes within half of the bar; each candidate is
     * then counted exactly, up to the bar. Nothing before the first ANALYZE, nothing on SQLite.
     */
    async wordsToMakeDense(bar: DenseBar = {}): Promise<string[]> {
      if (!postgres) return [];
      const least = bar.images ?? DENSE_AT;
      const share = bar.share ?? DENSE_SHARE;
      const result = await sql<{ term: string }>`
        WITH wanted AS (
          SELECT greatest(${least}::int, (
            SELECT coalesce(max(id_image), 0) FROM images WHERE status = 'approved'
          ) / ${share}::int) AS images
        ),
        common AS (
          SELECT stats.term, stats.freq * greatest(pg_class.reltuples, 0) AS estimate
          FROM pg_stats
          CROSS JOIN LATERAL unnest(pg_stats.most_common_vals::text::text[],
            pg_stats.most_common_freqs) AS stats (term, freq)
          JOIN pg_class ON pg_class.oid = 'search_terms'::regclass
          WHERE pg_stats.schemaname = current_schema()
            AND pg_stats.tablename = 'search_terms' AND pg_stats.attname = 'term'
        )
        SELECT common.term FROM common, wanted
        WHERE common.estimate * 2 >= wanted.images
          AND NOT EXISTS (
            SELECT 1 FROM search_dense_terms WHERE search_dense_terms.term = common.term
          )
          AND (
            SELECT count(*) FROM (
              SELECT 1 FROM search_terms WHERE search_terms.term = common.term
              LIMIT wanted.images
            ) AS counted
          ) >= wanted.images
        ORDER BY common.term
      `.execute(db);
      return result.rows.map(({ term }) => term);
    },

    /**
     * PostgreSQL: keeps a word as bitmaps too (search_make_dense), true when it was not yet.
     * Writers of search terms wait meanwhile (at 1M images 0.7 s for a word in a third of them,
     * 9 ms for one in 1 %); searches go on.
     */
    async makeDense(term: string): Promise<boolean> {
      if (!postgres) return false;
      const result = await sql<{ made: boolean }>`
        SELECT search_make_dense(${term}) AS made
      `.execute(db);
      return result.rows[0]?.made === true;
    },

    /**
     * Drops documents of images that are gone or no longer approved. PostgreSQL deletes
     * documents with their image by foreign key, SQLite cannot; a maintenance job may call this
     * after bulk deletions (stale documents are harmless to results, but take candidate slots).
     */
    async removeStaleDocuments(): Promise<number> {
      const result = postgres
        ? await sql`
            DELETE FROM image_search s
            WHERE NOT EXISTS (
              SELECT 1 FROM images i WHERE i.id_image = s.id_image AND i.status = 'approved'
            )`.execute(db)
        : await sql`
            DELETE FROM image_search
            WHERE rowid NOT IN (SELECT id_image FROM images WHERE status = 'approved')
          `.execute(db);
      return Number(result.numAffectedRows ?? 0);
    },

    /** One page of approved images matching every term. */
    async searchApprovedImages(query: SearchQuery): Promise<StrictPage> {
      const plan: TermPlan =
        postgres && !query.prefixLast
          ? await byRarity(query.terms)
          : { terms: [], sampled: 0, holding: 0 };
      // Several words are counted (byRarity; a single one is not): one that no approved image
      // holds (search_terms has only theirs) matches nothing, and a query with a misread word,
      // which the fallback then answers, skips two statements here.
      const unheld = plan.terms.length > 1 ? plan.terms.filter(({ images }) => images === 0) : [];
      if (unheld.length > 0) {
        return { ids: [], total: 0, capped: false, unheld: unheld.map(({ term }) => term) };
      }
      const path = postgres && !query.prefixLast ? multiWordPath(plan, query) : 'documents';
      let candidates: number[] = [];
      if (path === 'intersect') {
        // Ranked, every candidate counts. Two statements, each with a snapshot of its own: an
        // image published anew or withdrawn as the first ends may be missed or still counted,
        // as by a search answered a moment earlier (the public lists are kept for a second).
        const reach = Math.max(1, query.order === 'newest' ? query.skip + query.limit : cap);
        const { total, ids } = await intersected(plan.terms, reach);
        if (total === 0) return { ids: [], total, capped: false };
        if (query.order === 'newest') {
          const page = await newestOf(plan.terms[0]?.term ?? '', ids, query);
          return { ids: page, total, capped: total >= cap };
        }
        candidates = ids;
      }
      // Materialized: the candidates are read once, then ordered and counted.
      const withHits = db.with(
        (cte) => cte('hits').materialized(),
        () => hits(query, query.order === 'relevance', plan, path, candidates),
      );
      if (path !== 'documents') {
        // PostgreSQL, read from search_terms, which holds approved images only with their publication
        // time: nothing to look up in `images` (docs/PERFORMANCE.md, "Strict searches without
        // the images table").
        let page = withHits
          .selectFrom('hits')
          .select((eb) => ['hits.id', eb.fn.countAll<number>().over().as('total')]);
        if (query.order === 'relevance') page = page.orderBy('hits.score', 'desc');
        const rows = await page
          .orderBy('hits.published_at', (ob) => ob.desc().nullsLast())
          .orderBy('hits.id', 'desc')
          .limit(query.limit)
          .offset(query.skip)
          .execute();
        const total =
          rows[0]?.total ??
          (
            await withHits
              .selectFrom('hits')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .executeTakeFirstOrThrow()
          ).n;
        return { ids: rows.map((row) => row.id), total, capped: total >= cap };
      }
      // The GIN index's matches and SQLite's are documents, which may be stale (SQLite keeps a
      // deleted image's): the status is checked on the images table itself, so an image no
      // longer approved never shows.
      const approvedHits = withHits
        .selectFrom('hits')
        .innerJoin('images', 'images.id_image', 'hits.id')
        .where('images.status', '=', 'approved');

      let page = approvedHits.select((eb) => [
        'images.id_image',
        eb.fn.countAll<number>().over().as('total'),
        eb.selectFrom('hits').select(eb.fn.countAll<number>().as('n')).as('hit_count'),
      ]);
      if (query.order === 'relevance') page = page.orderBy('hits.score', 'desc');
      const rows = await page
        // Approved images always have published_at; NULLS LAST only pins both engines down.
        .orderBy('images.published_at', (ob) => ob.desc().nullsLast())
        .orderBy('images.id_image', 'desc')
        .limit(query.limit)
        .offset(query.skip)
        .execute();

      const first = rows[0];
      if (first !== undefined) {
        return {
          ids: rows.map((row) => row.id_image),
          total: first.total,
          capped: (first.hit_count ?? 0) >= cap,
        };
      }
      // A page past the end: the window count came with no row, so count on its own.
      const counts = await withHits
        .selectNoFrom((eb) => [
          eb
            .selectFrom('hits')
            .innerJoin('images', 'images.id_image', 'hits.id')
            .where('images.status', '=', 'approved')
            .select(eb.fn.countAll<number>().as('n'))
            .as('total'),
          eb.selectFrom('hits').select(eb.fn.countAll<number>().as('n')).as('hit_count'),
        ])
        .executeTakeFirstOrThrow();
      return { ids: [], total: counts.total ?? 0, capped: (counts.hit_count ?? 0) >= cap };
    },

    /** The vocabulary's forms stored under any of `keys` (a query word's deletion keys). */
    async vocabularyCandidates(keys: readonly string[]): Promise<VocabularyForm[]> {
      if (keys.length === 0) return [];
      return db
        .selectFrom('search_vocabulary')
        .select(['form', 'term'])
        .distinct()
        .where('variant', 'in', keys)
        .execute();
    },

    /**
     * For each list of terms, the approved images whose documents hold any of them, highest id
     * first, at most the candidate cap: the strict search's walk by id, stopped at the cap.
     *
     * PostgreSQL reads every list in one statement, from search_terms alone (an index-only
     * scan per term, merged per list), which holds the terms of approved images only
     * (migration 2026-11-27T0900, triggers on the documents and on the images' status).
     * Checking each candidate in `images` as well cost a btree descent per id, 2,000 of them
     * scattered over the table for a word in 0.5 % of 1M images (8–16 ms a list, most of the
     * fallback's statements; docs/PERFORMANCE.md, "Search's fallback without the images
     * table"). SQLite keeps a deleted image's document until removeStaleDocuments runs, so it
     * checks each candidate, a lookup by rowid in process, one statement per list.
     */
    async approvedWithAnyOf(lists: ReadonlyArray<readonly string[]>): Promise<number[][]> {
      const found: number[][] = lists.map(() => []);
      if (postgres) {
        const distinct = lists.map((terms) => [...new Set(terms)]);
        const listOf = distinct.flatMap((terms, list) => terms.map(() => list));
        const terms = distinct.flat();
        if (terms.length === 0) return found;
        // One row per list, its ids as one comma-separated string: up to 2,000 ids a list
        // parsed as rows cost the driver about 2.5 ms a fallback search at 1M images, split
        // from one string about a tenth of it. A list of one term (most of them) is its index
        // walk as it comes, with no sort; only a list of several terms is merged, sorted and
        // cut. No ORDER BY inside string_agg: PostgreSQL 15 sorts an ordered aggregate's
        // input again whatever its order, which was two thirds of this statement's time
        // (docs/PERFORMANCE.md, "Search's fallback: its order from its lists' own"); the
        // aggregate reads its sorted subquery in order, and newestFirst checks it.
        const result = await sql<{ list: number; ids: string | null }>`
          SELECT lists.list, CASE WHEN lists.terms = 1 THEN (
            SELECT string_agg(newest.id::text, ',')
            FROM (
              SELECT id_image AS id FROM search_terms
              WHERE search_terms.term = lists.first
              ORDER BY id_image DESC
              LIMIT ${cap}
            ) AS newest
          ) ELSE (
            SELECT string_agg(hits.id::text, ',')
            FROM (
              SELECT DISTINCT newest.id
              FROM unnest(${listOf}::int[], ${terms}::text[]) AS wanted (list, term)
              CROSS JOIN LATERAL (
                SELECT id_image AS id FROM search_terms
                WHERE search_terms.term = wanted.term
                ORDER BY id_image DESC
                LIMIT ${cap}
              ) AS newest
              WHERE wanted.list = lists.list
              ORDER BY newest.id DESC
              LIMIT ${cap}
            ) AS hits
          ) END AS ids
          FROM (
            SELECT list, count(*) AS terms, min(term) AS first
            FROM unnest(${listOf}::int[], ${terms}::text[]) AS listed (list, term)
            GROUP BY list
          ) AS lists
        `.execute(db);
        for (const { list, ids } of result.rows) {
          if (ids !== null) found[list] = newestFirst(ids.split(',').map(Number));
        }
        return found;
      }
      for (const [list, terms] of lists.entries()) {
        if (terms.length === 0) continue;
        const result = await sql<{ id: number }>`
          WITH hits AS MATERIALIZED (
            SELECT rowid AS id FROM image_search
            WHERE image_search MATCH ${fts5Any(terms)}
            ORDER BY rowid DESC
            LIMIT ${cap}
          )
          SELECT hits.id
          FROM hits JOIN images i ON i.id_image = hits.id
          WHERE i.status = 'approved'
          ORDER BY hits.id DESC
        `.execute(db);
        found[list] = result.rows.map((row) => row.id);
      }
      return found;
    },

    /** What the OCR read of each image (text and alternates), for the fallback's nearness. */
    async readTexts(
      ids: readonly number[],
    ): Promise<
      Array<{ id_image: number; extracted_text: string | null; ocr_alternates: string | null }>
    > {
      if (ids.length === 0) return [];
      return db
        .selectFrom('images')
        .select(['id_image', 'extracted_text', 'ocr_alternates'])
        .where('id_image', 'in', ids)
        .execute();
    },

    /** The images with what they are found by; ids that do not exist are simply absent. */
    async loadSources(ids: readonly number[]): Promise<ImageSearchSource[]> {
      if (ids.length === 0) return [];
      const images = await db
        .selectFrom('images')
        .leftJoin('categories', 'categories.id_categoria', 'images.id_categoria')
        .leftJoin('users', 'users.id_utente', 'images.id_utente')
        .select([
          'images.id_image',
          'images.status',
          'images.titolo_img',
          'images.extracted_text',
          'images.ocr_alternates',
          'categories.nome as category',
          'users.username',
        ])
        .where('images.id_image', 'in', ids)
        .execute();
      const tags = await db
        .selectFrom('image_tags')
        .innerJoin('tags', 'tags.id_tag', 'image_tags.id_tag')
        .select(['image_tags.id_image', 'tags.nome'])
        .where('image_tags.id_image', 'in', ids)
        .orderBy('image_tags.id_image')
        .orderBy('tags.nome')
        .execute();
      const tagsByImage = new Map<number, string[]>();
      for (const tag of tags) {
        const list = tagsByImage.get(tag.id_image) ?? [];
        list.push(tag.nome);
        tagsByImage.set(tag.id_image, list);
      }
      return images.map((image) => ({ ...image, tags: tagsByImage.get(image.id_image) ?? [] }));
    },

    /** Approved images of a category (images_public_by_category), for a rename. */
    async approvedImageIdsInCategory(id_categoria: number): Promise<number[]> {
      const rows = await db
        .selectFrom('images')
        .select('id_image')
        .where('id_categoria', '=', id_categoria)
        .where('status', '=', 'approved')
        .execute();
      return rows.map((row) => row.id_image);
    },

    /** Approved images carrying a tag (image_tags_by_tag), for a rename. */
    async approvedImageIdsWithTag(id_tag: number): Promise<number[]> {
      const rows = await db
        .selectFrom('image_tags')
        .innerJoin('images', 'images.id_image', 'image_tags.id_image')
        .select('images.id_image')
        .where('image_tags.id_tag', '=', id_tag)
        .where('images.status', '=', 'approved')
        .execute();
      return rows.map((row) => row.id_image);
    },

    /** Approved images of an uploader (images_public_by_user), for a username change. */
    async approvedImageIdsOfUser(id_utente: number): Promise<number[]> {
      const rows = await db
        .selectFrom('images')
        .select('id_image')
        .where('id_utente', '=', id_utente)
        .where('status', '=', 'approved')
        .execute();
      return rows.map((row) => row.id_image);
    },

    /** Approved image ids after `afterId`, in id order (primary key), for a full rebuild. */
    async approvedImageIdsAfter(afterId: number, limit: number): Promise<number[]> {
      const rows = await db
        .selectFrom('images')
        .select('id_image')
        .where('id_image', '>', afterId)
        .where('status', '=', 'approved')
        .orderBy('id_image')
        .limit(limit)
        .execute();
      return rows.map((row) => row.id_image);
    },
  };
}

/*
 * Query texts. Terms are stems made only of letters and digits (search.text.ts), so nothing a
 * user types can reach either query language as syntax: 'OR', 'NEAR', '*', '-', quotes are
 * gone or plain words by now. Each term is still quoted and escaped, as a second line of
 * defence, and the text is always a bound parameter.
 */

/** FTS5: quoted strings side by side are ANDed; `*` after the last makes it a prefix. */
function fts5Text(query: SearchQuery): string {
  const quoted = query.terms.map((term) => `"${term.replaceAll('"', '""')}"`);
  return quoted.join(' ') + (query.prefixLast ? '*' : '');
}

/*
 * PostgreSQL gets documents and queries as tsvector and tsquery literals, not through
 * to_tsvector and to_tsquery: its text parser would split the terms again by its own idea of
 * a letter, which follows the database's locale and Unicode tables ('❶ab' became 'ab' under
 * C.UTF-8), so a term could be stored under other lexemes than search_terms' lookups and
 * SQLite's FTS5 use. The literals hold the terms exactly as search.text.ts made them.
 */

/** A lexeme quoted for a tsvector or tsquery literal. */
function quotedLexeme(term: string): string {
  return `'${term.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
}

/** tsquery: quoted lexemes joined with &; `:*` after the last makes it a prefix. */
function tsqueryText(query: SearchQuery): string {
  return query.terms.map(quotedLexeme).join(' & ') + (query.prefixLast ? ':*' : '');
}

/** PostgreSQL's last position; later words are counted there, as to_tsvector does. */
const MAX_TSVECTOR_POSITION = 16383;
/** The positions to_tsvector keeps of one lexeme in one field; ts_rank_cd ranks by them. */
const MAX_POSITIONS_IN_FIELD = 255;
/** The positions `||` keeps of one lexeme across fields. */
const MAX_POSITIONS_PER_LEXEME = 256;

/**
 * The document as a tsvector literal, weighted and positioned as
 * `setweight(to_tsvector('simple', title), 'A') || … 'D'` made it from the same terms: each
 * field's words numbered on from the largest position the fields before it kept, every
 * position with its field's weight ('mur':1A,4C 'parl':2A).
 */
export function tsvectorText(
  document: Pick<SearchDocument, 'title' | 'tags' | 'body' | 'author'>,
): string {
  const fields = [
    [document.title, 'A'],
    [document.tags, 'B'],
    [document.body, 'C'],
    [document.author, 'D'],
  ] as const;
  const positions = new Map<string, string[]>();
  let last = 0;
  for (const [text, weight] of fields) {
    if (text === '') continue;
    const inField = new Map<string, number>();
    let largest = 0;
    text.split(' ').forEach((term, index) => {
      const seen = inField.get(term) ?? 0;
      if (seen >= MAX_POSITIONS_IN_FIELD) return;
      inField.set(term, seen + 1);
      const own = Math.min(index + 1, MAX_TSVECTOR_POSITION);
      largest = Math.max(largest, own);
      const held = positions.get(term);
      const position = `${Math.min(last + own, MAX_TSVECTOR_POSITION)}${weight}`;
      if (held === undefined) positions.set(term, [position]);
      else if (held.length < MAX_POSITIONS_PER_LEXEME) held.push(position);
    });
    last = Math.min(last + largest, MAX_TSVECTOR_POSITION);
  }
  return [...positions].map(([term, held]) => `${quotedLexeme(term)}:${held.join(',')}`).join(' ');
}

/** FTS5: any of the terms (OR), each quoted. */
function fts5Any(terms: readonly string[]): string {
  return terms.map((term) => `"${term.replaceAll('"', '""')}"`).join(' OR ');
}

/**
 * `ids` highest first and each once, as approvedWithAnyOf promises: its statement's order is
 * the one PostgreSQL reads a sorted subquery in, which a different plan could change. Checking
 * costs a pass; a list out of order is sorted, so a plan change costs time, never a wrong order.
 */
function newestFirst(ids: number[]): number[] {
  for (let i = 1; i < ids.length; i += 1) {
    if ((ids[i] ?? 0) >= (ids[i - 1] ?? 0)) {
      return [...new Set(ids)].sort((a, b) => b - a);
    }
  }
  return ids;
}
