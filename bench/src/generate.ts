import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { openDatabase, type DatabaseHandle, type Dialect } from '../../server/src/db/database.js';
import { migrateToLatest } from '../../server/src/db/migrate.js';
import { markSearchTermsCurrent } from '../../server/src/jobs/search-rebuild/search-rebuild.job.js';
import { systemClock } from '../../server/src/lib/clock.js';
import { PHRASES, TAGS, THEMES } from '../../server/src/demo/phrases.js';
import { createRandom, type Random } from '../../server/src/demo/random.js';
import { foldKey } from '../../server/src/lib/text.js';
import { hashPassword } from '../../server/src/modules/auth/passwords.js';
import { newStoredFilename } from '../../server/src/modules/images/images.storage.js';
import { deletionKeys, hasFuzzyKeys } from '../../server/src/modules/search/search.fuzzy.js';
import { tsvectorText } from '../../server/src/modules/search/search.repository.js';
import { createSearchService } from '../../server/src/modules/search/search.service.js';
import { searchDocument, stemWords } from '../../server/src/modules/search/search.text.js';
import * as taxonomyRepo from '../../server/src/modules/taxonomy/taxonomy.repository.js';

/*
 * Fills a fresh database with a large, realistic catalogue for the benchmarks (issue 8): N
 * approved images (rows only: no scenario reads image files), 10k users, 300 categories, 3k
 * tags and 5 interactions per image spread over the last 60 days (5M at 1M images).
 *
 * Consistency: the denormalised counters (images.*_count) are counted here while the
 * interactions are drawn, so they match the interactions table by construction; the category
 * and tag counts come from the taxonomy repository's own recount, and the search documents
 * from the search module's own searchDocument(), so the index holds what the server would
 * have written. Ids are given explicitly (1..N) so links need no round trip; PostgreSQL's
 * identity sequences are moved past them at the end.
 *
 * Speed: SQLite gets prepared multi-row INSERTs, one transaction per batch, with
 * synchronous=OFF while loading (a crash only loses a throwaway database); PostgreSQL gets
 * INSERT … SELECT FROM unnest($1::int[], …): one bound array per column, so 10k rows cost one
 * statement and no bind-parameter limit applies.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const USERS = 10_000;
const CATEGORIES = 300;
const TAG_COUNT = 3_000;
/** Interactions per image: 5M at 1M images, as issue 8 asks. */
const INTERACTIONS_PER_IMAGE = 5;
const INTERACTION_WINDOW_DAYS = 60;
/** Images are published over this many days before now, newest ids newest. */
const CATALOGUE_DAYS = 3 * 365;
const BATCH = 5_000;

/** The word written on a third of the generated walls (goal 3's search for a common word). */
const COMMON_WORD = 'sempre';

export interface BenchMeta {
  engine: Dialect;
  images: number;
  interactions: number;
  /** Ids the scenarios use: the largest category and tag, the busiest uploader, an image. */
  categoryId: number;
  tagId: number;
  userId: number;
  imageId: number;
  /** A word found in many images (search relevance) and the share of images it is in. */
  commonWord: string;
  commonWordShare: number;
  seconds: number;
}

export interface Catalogue {
  /** The data folder handed to the server (SQLite file, jwt secret). */
  dataDir: string;
  /** Set for PostgreSQL. */
  databaseUrl: string | undefined;
  meta: BenchMeta;
}

type Row = unknown[];

/** Where rows go: a table, its columns with their PostgreSQL types, and rows in that order. */
interface Sink {
  insert(table: string, columns: ReadonlyArray<readonly [string, string]>, rows: Row[]): void;
  flush(): Promise<void>;
  close(): Promise<void>;
}

const USER_COLUMNS = [
  ['id_utente', 'int'],
  ['username', 'text'],
  ['username_key', 'text'],
  ['email', 'text'],
  ['email_key', 'text'],
  ['password_hash', 'text'],
  ['is_active', 'int'],
  ['is_superuser', 'int'],
  ['age_confirmed_at', 'timestamptz'],
  ['created_at', 'timestamptz'],
  ['updated_at', 'timestamptz'],
] as const;
const NAMED_COLUMNS = [
  ['nome', 'text'],
  ['nome_key', 'text'],
  ['created_at', 'timestamptz'],
] as const;
const IMAGE_COLUMNS = [
  ['id_image', 'int'],
  ['filename', 'text'],
  ['original_filename', 'text'],
  ['titolo_img', 'text'],
  ['id_utente', 'int'],
  ['id_categoria', 'int'],
  ['status', 'text'],
  ['reviewed_at', 'timestamptz'],
  ['mime_type', 'text'],
  ['size_bytes', 'int'],
  ['width', 'int'],
  ['height', 'int'],
  ['placeholder', 'text'],
  ['extracted_text', 'text'],
  ['text_folded', 'text'],
  ['likes_count', 'int'],
  ['favorites_count', 'int'],
  ['downloads_count', 'int'],
  ['sad_count', 'int'],
  ['dislikes_count', 'int'],
  ['wow_count', 'int'],
  ['views_count', 'int'],
  ['created_at', 'timestamptz'],
  ['published_at', 'timestamptz'],
] as const;
const IMAGE_TAG_COLUMNS = [
  ['id_image', 'int'],
  ['id_tag', 'int'],
] as const;
const INTERACTION_COLUMNS = [
  ['id_image', 'int'],
  ['id_utente', 'int'],
  ['id_tipo_interazione', 'int'],
  ['viewer_key', 'text'],
  ['created_at', 'timestamptz'],
] as const;
const SEARCH_COLUMNS = [
  ['id', 'int'],
  ['title', 'text'],
  ['tags', 'text'],
  ['body', 'text'],
  ['author', 'text'],
] as const;
const VOCABULARY_COLUMNS = [
  ['variant', 'text'],
  ['form', 'text'],
  ['term', 'text'],
] as const;

/** Interaction type → the image counter it feeds (D5: 3 is a download, 7 a view). */
const COUNTER_INDEX: Record<number, number> = { 1: 0, 2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 7: 6 };

export async function generateCatalogue(options: {
  engine: Dialect;
  images: number;
  postgresUrl: string;
  seed?: string;
}): Promise<Catalogue> {
  const started = Date.now();
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'muri-bench-'));
  let databaseUrl: string | undefined;
  if (options.engine === 'postgres') {
    databaseUrl = await createPostgresDatabase(
      options.postgresUrl,
      `muri_bench_${String(process.pid)}_${Date.now().toString(36)}`,
    );
  }
  const config =
    databaseUrl === undefined
      ? { kind: 'sqlite' as const, file: path.join(dataDir, 'muri-parlanti.sqlite') }
      : { kind: 'postgres' as const, url: databaseUrl };

  // The schema comes from the server's own migrations.
  const schema = openDatabase(config);
  await migrateToLatest(schema.db);
  // The documents below are made with the current terms: no rebuild when a server starts.
  await markSearchTermsCurrent(schema.db, systemClock);
  await schema.close();

  const sink =
    config.kind === 'sqlite' ? openSqliteSink(config.file) : openPostgresSink(config.url);
  const random = createRandom(options.seed ?? 'muri-parlanti-bench');
  const now = Date.now();
  const iso = (ms: number) => new Date(ms).toISOString();

  // Users: one real argon2id hash shared by all (nobody logs in; the column stays realistic).
  const passwordHash = await hashPassword('bench-password-nobody-uses');
  const usernames: string[] = [];
  const userRows: Row[] = [];
  for (let id = 1; id <= USERS; id += 1) {
    const username = `${random.pick(NAMES)}.${random.pick(SURNAMES)}${String(id)}`;
    usernames.push(username);
    const email = `${username}@bench.muriparlanti.it`;
    const created = iso(now - random.float(60, CATALOGUE_DAYS + 200) * DAY_MS);
    userRows.push([
      id,
      username,
      foldKey(username),
      email,
      foldKey(email),
      passwordHash,
      1,
      0,
      created,
      created,
      created,
    ]);
  }
  sink.insert('users', USER_COLUMNS, userRows);

  // Categories 2..301 (1 'Non categorizzata' comes with the schema): the demo themes, then
  // each theme per city, so names read like real ones.
  const categoryNames = uniqueNames(
    CATEGORIES,
    THEMES.map((theme) => theme.category),
    (i) =>
      `${THEMES[i % THEMES.length]?.category ?? 'muri'}_${CITIES[i % CITIES.length] ?? 'x'}_${String(Math.floor(i / CITIES.length))}`,
  );
  const created = iso(now - (CATALOGUE_DAYS + 1) * DAY_MS);
  sink.insert(
    'categories',
    NAMED_COLUMNS,
    categoryNames.map((nome) => [nome, foldKey(nome), created]),
  );
  // Tags 1..3000: the demo vocabulary first, then place-and-year tags like real ones.
  const tagNames = uniqueNames(
    TAG_COUNT,
    [...TAGS],
    (i) => `${TAGS[i % TAGS.length] ?? 'muro'}${String(1990 + Math.floor(i / TAGS.length))}`,
  );
  sink.insert(
    'tags',
    NAMED_COLUMNS,
    tagNames.map((nome) => [nome, foldKey(nome), created]),
  );
  const tagIdByName = new Map(tagNames.map((nome, index) => [nome, index + 1]));
  const themeCategories = new Map<string, number[]>();
  categoryNames.forEach((nome, index) => {
    const theme = THEMES.find((t) => nome.startsWith(t.category));
    if (theme === undefined) return;
    const list = themeCategories.get(theme.category) ?? [];
    list.push(index + 2);
    themeCategories.set(theme.category, list);
  });
  await sink.flush();

  // Stems are the costly part of a search document; titles, tags, categories and usernames
  // repeat, so each distinct text is stemmed once (searchDocument joins the same stems).
  const stemCache = new Map<string, string>();
  // The search vocabulary (search.fuzzy.ts) of every document, as the writers would keep it.
  const vocabulary = new Map<string, { form: string; term: string }>();
  const stems = (text: string): string => {
    let cached = stemCache.get(text);
    if (cached === undefined) {
      const document = searchDocument({
        title: text,
        tags: [],
        category: null,
        text: null,
        username: null,
        alternates: null,
      });
      cached = document.title;
      stemCache.set(text, cached);
      for (const form of document.forms) {
        if (hasFuzzyKeys(form.form)) vocabulary.set(`${form.form} ${form.term}`, form);
      }
    }
    return cached;
  };
  const wordCounts = new Map<string, number>();
  const wordOf = new Map<string, string>();
  for (const phrase of PHRASES) {
    for (const word of phrase.text.split(/[^\p{L}\p{N}]+/u)) {
      const [stem] = stemWords(word);
      if (stem !== undefined && word.length >= 4 && !wordOf.has(stem)) wordOf.set(stem, word);
    }
  }

  const categoryCounts = new Map<number, number>();
  const tagCounts = new Map<number, number>();
  const uploaderCounts = new Map<number, number>();
  let interactionTotal = 0;
  const windowStart = now - INTERACTION_WINDOW_DAYS * DAY_MS;
  const catalogueStart = now - CATALOGUE_DAYS * DAY_MS;
  const sizes = [
    [2560, 1920],
    [1920, 2560],
    [2560, 1440],
    [1600, 1200],
    [2048, 2048],
  ] as const;

  for (let first = 1; first <= options.images; first += BATCH) {
    const last = Math.min(options.images, first + BATCH - 1);
    const imageRows: Row[] = [];
    const imageTagRows: Row[] = [];
    const interactionRows: Row[] = [];
    const searchRows: Row[] = [];
    for (let id = first; id <= last; id += 1) {
      const phrase = random.pick(PHRASES);
      // Popular themes and prolific uploaders: a skewed choice, like a real catalogue.
      const categoryId = skewedPick(random, themeCategories.get(phrase.category) ?? [1]);
      const userId = 1 + Math.floor(USERS * random.next() ** 3);
      const tagIds = new Set<number>();
      for (const tag of phrase.tags) tagIds.add(tagIdByName.get(tag) ?? 1);
      for (let extra = random.int(0, 2); extra > 0; extra -= 1) {
        tagIds.add(1 + Math.floor(TAG_COUNT * random.next() ** 2));
      }
      // Newer ids are newer: approval times follow upload order with some jitter.
      const publishedMs = Math.min(
        now - 60_000,
        catalogueStart + (id / options.images) * CATALOGUE_DAYS * DAY_MS + random.float(0, 3600e3),
      );
      const createdMs = publishedMs - random.float(1, 48) * 3600e3;
      // Goal 3 asks for a word found in a third of all images: a third of the walls read
      // 'sempre' after their phrase (as in 'per sempre'), the rest as the demo phrases go.
      const ocr = random.chance(1 / 3)
        ? `${phrase.text} ${COMMON_WORD}`
        : random.chance(0.7)
          ? phrase.text
          : null;

      const counters = [0, 0, 0, 0, 0, 0, 0];
      drawInteractions(
        random,
        id,
        Math.max(publishedMs, windowStart),
        now,
        (type, user, key, at) => {
          interactionRows.push([id, user, type, key, iso(at)]);
          const index = COUNTER_INDEX[type];
          if (index !== undefined) counters[index] = (counters[index] ?? 0) + 1;
        },
      );

      const [width, height] = random.pick(sizes);
      imageRows.push([
        id,
        newStoredFilename(),
        `IMG_${String(id)}.jpg`,
        phrase.text,
        userId,
        categoryId,
        'approved',
        iso(publishedMs),
        'image/webp',
        random.int(150_000, 900_000),
        width,
        height,
        PLACEHOLDER,
        ocr,
        ocr === null ? null : ocr.toLowerCase(),
        ...counters,
        iso(createdMs),
        iso(publishedMs),
      ]);
      for (const tagId of tagIds) {
        imageTagRows.push([id, tagId]);
        tagCounts.set(tagId, (tagCounts.get(tagId) ?? 0) + 1);
      }
      categoryCounts.set(categoryId, (categoryCounts.get(categoryId) ?? 0) + 1);
      uploaderCounts.set(userId, (uploaderCounts.get(userId) ?? 0) + 1);

      const category = categoryNames[categoryId - 2] ?? 'Non categorizzata';
      const doc = {
        title: stems(phrase.text),
        tags: [...[...tagIds].map((t) => stems(tagNames[t - 1] ?? '')), stems(category)]
          .filter((s) => s !== '')
          .join(' '),
        body: ocr === null ? '' : stems(ocr),
        author: stems(usernames[userId - 1] ?? ''),
      };
      searchRows.push([id, doc.title, doc.tags, doc.body, doc.author]);
      for (const stem of new Set(`${doc.title} ${doc.body}`.split(' '))) {
        if (wordOf.has(stem)) wordCounts.set(stem, (wordCounts.get(stem) ?? 0) + 1);
      }
    }
    interactionTotal += interactionRows.length;
    sink.insert('images', IMAGE_COLUMNS, imageRows);
    sink.insert('image_tags', IMAGE_TAG_COLUMNS, imageTagRows);
    sink.insert('interactions', INTERACTION_COLUMNS, interactionRows);
    sink.insert('image_search', SEARCH_COLUMNS, searchRows);
    await sink.flush();
    if (last % 100_000 === 0 || last === options.images) {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(
        `  ${String(last)} images, ${String(interactionTotal)} interactions (${seconds} s)\n`,
      );
    }
  }
  sink.insert(
    'search_vocabulary',
    VOCABULARY_COLUMNS,
    [...vocabulary.values()].flatMap(({ form, term }) =>
      deletionKeys(form).map((variant): Row => [variant, form, term]),
    ),
  );
  await sink.flush();
  await sink.close();

  // Statistics for the PostgreSQL planner first (autovacuum would gather them soon after a
  // real bulk load too): without them the recount below plans a scan of image_tags per tag.
  if (config.kind === 'postgres') await finishPostgres(config.url);
  // Category and tag counts through the taxonomy module's own recount.
  const database = openDatabase(config);
  await taxonomyRepo.recountAll(database.db);
  // PostgreSQL: the common words kept as bitmaps, as a server's first upkeep would.
  const dense = await createSearchService(database.db, database.dialect).makeCommonWordsDense();
  if (dense.length > 0) console.log(`  ${String(dense.length)} common words kept as bitmaps`);
  await database.close();

  const [commonStem, commonCount] = [...wordCounts].reduce(
    (best, entry) => (entry[1] > best[1] ? entry : best),
    ['', 0],
  );
  const meta: BenchMeta = {
    engine: config.kind,
    images: options.images,
    interactions: interactionTotal,
    categoryId: largest(categoryCounts),
    tagId: largest(tagCounts),
    userId: largest(uploaderCounts),
    imageId: Math.ceil(options.images / 2),
    commonWord: wordOf.get(commonStem) ?? commonStem,
    commonWordShare: commonCount / options.images,
    seconds: (Date.now() - started) / 1000,
  };
  await fs.writeFile(path.join(dataDir, 'bench-meta.json'), JSON.stringify({ meta, databaseUrl }));
  return { dataDir, databaseUrl, meta };
}

/** Reads a catalogue generated earlier (`--data <dir>`), to skip the generator. */
export async function readCatalogue(dataDir: string): Promise<Catalogue> {
  const saved = JSON.parse(await fs.readFile(path.join(dataDir, 'bench-meta.json'), 'utf8')) as {
    meta: BenchMeta;
    databaseUrl?: string;
  };
  return { dataDir, databaseUrl: saved.databaseUrl, meta: saved.meta };
}

/** The catalogue's database, opened as the server opens it. */
export function openCatalogue(catalogue: Catalogue): DatabaseHandle {
  return openDatabase(
    catalogue.databaseUrl !== undefined
      ? { kind: 'postgres', url: catalogue.databaseUrl }
      : { kind: 'sqlite', file: path.join(catalogue.dataDir, 'muri-parlanti.sqlite') },
  );
}

export async function dropCatalogue(catalogue: Catalogue, postgresUrl: string): Promise<void> {
  if (catalogue.databaseUrl !== undefined) {
    const client = new pg.Client({ connectionString: postgresUrl });
    await client.connect();
    try {
      const name = new URL(catalogue.databaseUrl).pathname.slice(1);
      await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
    } finally {
      await client.end();
    }
  }
  await fs.rm(catalogue.dataDir, { recursive: true, force: true });
}

/**
 * Reactions and views of one image between `from` and `to`: on average
 * INTERACTIONS_PER_IMAGE, skewed so a few images are popular. Toggles (1, 2, 4, 5, 6) are
 * drawn from distinct users, as the unique index demands; views repeat.
 */
function drawInteractions(
  random: Random,
  imageId: number,
  from: number,
  to: number,
  emit: (type: number, user: number | null, viewerKey: string | null, at: number) => void,
): void {
  // Mean of popularity is 1: 95 % ordinary images around 0.6, 5 % popular ones around 8.6.
  const popularity = random.chance(0.05) ? random.float(5, 12.2) : random.float(0.1, 1.1);
  const total = Math.round(INTERACTIONS_PER_IMAGE * popularity * random.float(0.5, 1.5));
  const when = () => random.float(from, to);
  const togglers = new Set<number>();
  for (let n = 0; n < total; n += 1) {
    const roll = random.next();
    if (roll < 0.7) {
      const user = random.chance(0.3) ? random.int(1, USERS) : null;
      emit(
        7,
        user,
        user === null ? `a:${imageId.toString(36)}-${String(n)}` : `u:${String(user)}`,
        when(),
      );
    } else if (roll < 0.75) {
      emit(3, random.int(1, USERS), null, when());
    } else {
      const user = random.int(1, USERS);
      if (togglers.has(user)) continue;
      togglers.add(user);
      emit(1, user, null, when());
      if (random.chance(0.25)) emit(2, user, null, when());
      if (random.chance(0.15)) emit(random.pick([4, 5, 6]), user, null, when());
    }
  }
}

function skewedPick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(items.length * random.next() ** 2)] ?? (items[0] as T);
}

function largest(counts: Map<number, number>): number {
  let best = 1;
  let bestCount = -1;
  for (const [id, count] of counts) {
    if (count > bestCount) [best, bestCount] = [id, count];
  }
  return best;
}

function uniqueNames(count: number, first: readonly string[], make: (i: number) => string) {
  const names = new Set(first.slice(0, count));
  for (let i = 0; names.size < count; i += 1) names.add(make(i));
  return [...names];
}

/** A ThumbHash of typical length (the placeholder's bytes travel in every gallery answer). */
const PLACEHOLDER = 'mQcKDwSHh4eIeHd4d3eIh3d4d4iHiIAHiHeIeA==';
const NAMES = ['giulia', 'marco', 'francesca', 'luca', 'chiara', 'sara', 'matteo', 'elena'];
const SURNAMES = ['rossi', 'russo', 'bianchi', 'romano', 'gallo', 'costa', 'fontana', 'conti'];
const CITIES = ['roma', 'milano', 'napoli', 'torino', 'bologna', 'firenze', 'genova', 'bari'];

function openSqliteSink(file: string): Sink {
  const sqlite = new SQLite(file);
  // A throwaway database: a crash while loading costs only a new run.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = OFF');
  sqlite.pragma('cache_size = -262144');
  const statements = new Map<string, SQLite.Statement>();
  const pending: Array<{ table: string; columns: readonly string[]; rows: Row[] }> = [];

  function statement(table: string, columns: readonly string[], rowCount: number) {
    const key = `${table}:${String(rowCount)}`;
    let prepared = statements.get(key);
    if (prepared === undefined) {
      const names = table === 'image_search' ? ['rowid', ...columns.slice(1)] : columns;
      const tuple = `(${names.map(() => '?').join(', ')})`;
      prepared = sqlite.prepare(
        `INSERT INTO ${table} (${names.join(', ')}) VALUES ${Array(rowCount).fill(tuple).join(', ')}`,
      );
      statements.set(key, prepared);
    }
    return prepared;
  }

  const write = sqlite.transaction(() => {
    for (const { table, columns, rows } of pending) {
      // Multi-row statements of a fixed size, prepared once; SQLite allows 32,766 parameters.
      const perStatement = Math.max(1, Math.floor(32_000 / columns.length / 100) * 100);
      for (let start = 0; start < rows.length; start += perStatement) {
        const chunk = rows.slice(start, start + perStatement);
        // better-sqlite3 binds whole numbers as REAL unless they are BigInt; FTS5 rowids
        // must be integers.
        const values =
          table === 'image_search'
            ? chunk.flatMap((row) => [BigInt(row[0] as number), ...row.slice(1)])
            : chunk.flat();
        statement(table, columns, chunk.length).run(values);
      }
    }
  });

  return {
    insert(table, columns, rows) {
      if (rows.length > 0) pending.push({ table, columns: columns.map(([name]) => name), rows });
    },
    flush() {
      write();
      pending.length = 0;
      return Promise.resolve();
    },
    close() {
      sqlite.close();
      return Promise.resolve();
    },
  };
}

function openPostgresSink(url: string): Sink {
  const client = new pg.Client({ connectionString: url });
  const connected = client.connect();
  const pending: Array<{
    table: string;
    columns: ReadonlyArray<readonly [string, string]>;
    rows: Row[];
  }> = [];

  function sqlFor(table: string, columns: ReadonlyArray<readonly [string, string]>): string {
    const arrays = columns.map(([, type], i) => `$${String(i + 1)}::${type}[]`).join(', ');
    const names = columns.map(([name]) => name);
    return `INSERT INTO ${table} (${names.join(', ')}) SELECT * FROM unnest(${arrays})`;
  }

  return {
    insert(table, columns, rows) {
      if (rows.length === 0) return;
      if (table === 'image_search') {
        // The same document literal as search.repository's upsert.
        pending.push({
          table,
          columns: [
            ['id_image', 'int'],
            ['document', 'tsvector'],
          ],
          rows: rows.map(([id, title, tags, body, author]) => [
            id,
            tsvectorText({
              title: String(title),
              tags: String(tags),
              body: String(body),
              author: String(author),
            }),
          ]),
        });
        return;
      }
      pending.push({ table, columns, rows });
    },
    async flush() {
      await connected;
      await client.query('BEGIN');
      for (const { table, columns, rows } of pending) {
        const arrays = columns.map((_, i) => rows.map((row) => row[i]));
        await client.query(sqlFor(table, columns), arrays);
      }
      await client.query('COMMIT');
      pending.length = 0;
    },
    async close() {
      await connected;
      await client.end();
    },
  };
}

async function createPostgresDatabase(adminUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Identity sequences past the explicit ids, and planner statistics. */
async function finishPostgres(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const [table, column] of [
      ['users', 'id_utente'],
      ['categories', 'id_categoria'],
      ['tags', 'id_tag'],
      ['images', 'id_image'],
    ] as const) {
      await client.query(
        `SELECT setval(pg_get_serial_sequence('${table}', '${column}'), (SELECT max(${column}) FROM ${table}))`,
      );
    }
    await client.query('ANALYZE');
  } finally {
    await client.end();
  }
}
