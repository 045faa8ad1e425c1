import { dictionary } from '@zxcvbn-ts/language-it';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImageStatus } from '../src/db/tables.js';
import { foldWord, isItalianWord } from '../src/jobs/image-analysis/words.js';
import { HttpError } from '../src/lib/errors.js';
import { Random } from '../src/demo/random.js';
import { orderFallback, type FallbackList } from '../src/modules/search/search.fallback-order.js';
import { createSearchRepository } from '../src/modules/search/search.repository.js';
import { createSearchService, type SearchService } from '../src/modules/search/search.service.js';
import {
  allowedSlips,
  deletionKeys,
  nearness,
  neighboursOf,
  queryKeys,
  slipDistance,
} from '../src/modules/search/search.fuzzy.js';
import {
  foldForSearch,
  searchDocument,
  stemWords,
  termOf,
} from '../src/modules/search/search.text.js';
import { buildTestApp, type TestApp } from './helpers/app.js';
import { IMAGE_DOCUMENT_LOCK } from '../src/db/locks.js';
import { TEST_ENGINE } from './helpers/database.js';
import { holdWrite } from './helpers/held-write.js';

let t: TestApp;
let search: SearchService;
beforeAll(async () => {
  t = await buildTestApp();
  search = createSearchService(db(), dialect());
});
afterAll(() => t.close());

const db = () => t.app.ctx.database.db;
const dialect = () => t.app.ctx.database.dialect;

let sequence = 0;
/** Distinct, increasing timestamps, so "newest" is well defined. */
function nextTimestamp(): string {
  sequence += 1;
  return new Date(Date.UTC(2026, 0, 1, 0, 0, sequence)).toISOString();
}

async function insertUser(username: string): Promise<number> {
  const now = nextTimestamp();
  const row = await db()
    .insertInto('users')
    .values({
      username,
      username_key: username.toLowerCase(),
      email: `${username.toLowerCase()}@example.it`,
      email_key: `${username.toLowerCase()}@example.it`,
      password_hash: 'not-a-real-hash',
      is_active: 1,
      is_superuser: 0,
      created_at: now,
      updated_at: now,
    })
    .returning('id_utente')
    .executeTakeFirstOrThrow();
  return row.id_utente;
}

async function insertCategory(nome: string): Promise<number> {
  const row = await db()
    .insertInto('categories')
    .values({ nome, nome_key: nome.toLowerCase(), created_at: nextTimestamp() })
    .returning('id_categoria')
    .executeTakeFirstOrThrow();
  return row.id_categoria;
}

async function insertTag(nome: string): Promise<number> {
  const row = await db()
    .insertInto('tags')
    .values({ nome, nome_key: nome.toLowerCase(), created_at: nextTimestamp() })
    .returning('id_tag')
    .executeTakeFirstOrThrow();
  return row.id_tag;
}

let owner: number;
beforeAll(async () => {
  owner = await insertUser('proprietario');
});

interface ImageInput {
  title?: string | null;
  text?: string | null;
  status?: ImageStatus;
  user?: number;
  category?: number;
  tags?: number[];
  /** The OCR's alternates (ocr.ts): words it found likely but did not choose. */
  alternates?: string | null;
  /** Skip reindexImage, to test a document that is missing or stale. */
  skipIndex?: boolean;
}

let fileCounter = 0;
/** An image written directly with Kysely, as the image module would, then reindexed. */
async function image(input: ImageInput = {}): Promise<number> {
  fileCounter += 1;
  const status = input.status ?? 'approved';
  const createdAt = nextTimestamp();
  const { id_image } = await db()
    .insertInto('images')
    .values({
      filename: `search-${fileCounter}.webp`,
      titolo_img: input.title ?? null,
      extracted_text: input.text ?? null,
      ocr_alternates: input.alternates ?? null,
      id_utente: input.user ?? owner,
      id_categoria: input.category ?? 1,
      status,
      mime_type: 'image/webp',
      size_bytes: 1000,
      width: 10,
      height: 10,
      created_at: createdAt,
      published_at: status === 'approved' ? nextTimestamp() : null,
    })
    .returning('id_image')
    .executeTakeFirstOrThrow();
  for (const id_tag of input.tags ?? []) {
    await db().insertInto('image_tags').values({ id_image, id_tag }).execute();
  }
  if (input.skipIndex !== true) await search.reindexImage(id_image);
  return id_image;
}

/** A promise and the function that settles it (Promise.withResolvers is Node 22's). */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

/**
 * The database, but the first INSERT made through it waits, once done, until `gate` is
 * resolved; `atGate` resolves when it is there.
 */
function pausingAfterFirstInsert() {
  const gate = deferred();
  const atGate = deferred();
  const inserts = new Set<unknown>();
  let seen = 0;
  const pausing = db().withPlugin({
    transformQuery(args) {
      if (args.node.kind === 'InsertQueryNode') inserts.add(args.queryId);
      return args.node;
    },
    async transformResult(args) {
      if (inserts.has(args.queryId) && ++seen === 1) {
        atGate.resolve();
        await gate.promise;
      }
      return args.result;
    },
  });
  return { pausing, atGate, gate };
}

async function ids(query: string, order: 'relevance' | 'newest' = 'relevance') {
  return (await search.search(query, 0, 50, order)).ids;
}

describe('search text', () => {
  it('folds case, accents and punctuation, and stems Italian words', () => {
    expect(foldForSearch('  Città, PERCHÉ? messaggi_amore l’arte  ')).toBe(
      'citta perche messaggi amore l arte',
    );
    expect(foldForSearch('Straße Ærø ﬁne İstanbul')).toBe('strasse aero fine istanbul');
    expect(stemWords('Muri che parlano')).toEqual(['mur', 'che', 'parl']);
    expect(stemWords('muro')).toEqual(stemWords('muri'));
    expect(stemWords('amore')).toEqual(stemWords('amori'));
    expect(stemWords('città')).toEqual(stemWords('CITTA'));
    expect(stemWords(' -- ?! ')).toEqual([]);
  });

  it("joins a word's singular and plural where the Snowball stem keeps them apart", () => {
    const pairs = [
      ['anno', 'anni'],
      ['alza', 'alze'],
      ['lago', 'laghi'],
      ['fuoco', 'fuochi'],
      ['amica', 'amiche'],
      ['parola', 'parole'],
    ];
    for (const [singular, plural] of pairs) {
      expect(termOf(plural ?? ''), `${singular ?? ''} / ${plural ?? ''}`).toBe(
        termOf(singular ?? ''),
      );
    }
    // Words of three letters keep their vowel: 'mai' is not 'ma'.
    expect(['mai', 'che', 'non'].map(termOf)).toEqual(['mai', 'che', 'non']);
  });

  it('joins irregular plurals and nouns in -ano to their other forms, not verbs', () => {
    const forms = [
      ['uomo', 'uomini'],
      ['via', 'vie'],
      ['ala', 'ali'],
      ['eco', 'echi'],
      ['milano', 'milani'],
      ['partigiano', 'partigiani'],
      ['partigiano', 'partigiana'],
      ['italiano', 'italiane'],
      ['lontano', 'lontani'],
    ];
    for (const [one, other] of forms) {
      expect(termOf(other ?? ''), `${one ?? ''} / ${other ?? ''}`).toBe(termOf(one ?? ''));
    }
    // A verb's third person plural still meets its singular; 'dei' (of the) is not 'dio'.
    expect(termOf('parlano')).toBe(termOf('parla'));
    expect(termOf('cantano')).toBe(termOf('canta'));
    expect(termOf('dei')).not.toBe(termOf('dio'));
  });

  it('joins every noun in -ano of the word list to its plural (italian-forms.ts is complete)', () => {
    const apart = new Set<string>();
    for (const entry of [...dictionary.commonWords, ...dictionary.wikipedia]) {
      const word = foldWord(entry);
      if (!/^[a-z]+ano$/.test(word)) continue;
      const plural = `${word.slice(0, -1)}i`;
      if (isItalianWord(plural) && termOf(word) !== termOf(plural)) apart.add(word);
    }
    expect([...apart]).toEqual([]);
  });

  it('builds a document with one field per weight', () => {
    expect(
      searchDocument({
        title: 'Muri che parlano',
        tags: ['Street Art'],
        category: 'messaggi_amore',
        text: 'Ti amo',
        username: 'Marco_88',
        alternates: 'tiamo',
      }),
    ).toEqual({
      title: 'mur che parl',
      tags: 'street art messagg amor',
      body: 'ti amo',
      // The OCR's alternates weigh least, with the uploader's name.
      author: 'marc 88 tiam',
      forms: expect.arrayContaining([
        { form: 'muri', term: 'mur' },
        { form: 'mur', term: 'mur' },
        { form: 'messaggi', term: 'messagg' },
        { form: 'messagg', term: 'messagg' },
        { form: 'marco', term: 'marc' },
      ]),
    });
  });
});

describe('search', () => {
  let muri: number;
  let amore: number;
  it("finds Italian word forms: 'muro' → 'Muri che parlano', 'amori' → 'amore'", async () => {
    muri = await image({ title: 'Muri che parlano' });
    amore = await image({ title: 'Un grande amore' });
    expect(await ids('muro')).toContain(muri);
    expect(await ids('amori')).toContain(amore);
    expect(await ids('amori')).not.toContain(muri);
  });

  it("ignores accents and case: 'citta' and 'CITTÀ' find 'città'", async () => {
    const citta = await image({ title: 'La mia città' });
    expect(await ids('citta')).toContain(citta);
    expect(await ids('CITTÀ')).toContain(citta);
    expect(await ids('Città')).toContain(citta);
  });

  it('finds by tag name, category name (underscores split) and uploader', async () => {
    const tag = await insertTag('Stencil');
    const category = await insertCategory('messaggi_calcio');
    const uploader = await insertUser('Writer_Ottavio');
    const byTag = await image({ title: 'Senza parole', tags: [tag] });
    const byCategory = await image({ title: 'Forza ragazzi', category });
    const byUser = await image({ title: 'Anonimo', user: uploader });
    const other = await image({ title: 'Altro' });

    expect(await ids('stencil')).toEqual([byTag]);
    expect(await ids('calcio')).toEqual([byCategory]);
    expect(await ids('messaggi calcio')).toEqual([byCategory]);
    expect(await ids('ottavio')).toEqual([byUser]);
    expect(await ids('Writer_Ottavio')).toEqual([byUser]);
    expect(await ids('writer ottavio')).not.toContain(other);
  });

  it('finds the OCR text', async () => {
    const id = await image({ title: 'Foto', text: 'TI AMO GIULIETTA\nper sempre' });
    expect(await ids('giulietta')).toEqual([id]);
    expect(await ids('sempre giulietta')).toEqual([id]);
  });

  it('finds words in any alphabet', async () => {
    const id = await image({ title: 'Привет 東京', text: 'İstanbul' });
    expect(await ids('привет')).toEqual([id]);
    expect(await ids('東京')).toEqual([id]);
    expect(await ids('istanbul')).toEqual([id]);
  });

  it("indexes a word whole whatever the engine's own idea of a letter", async () => {
    // PostgreSQL's text parser (under C.UTF-8) split 'ciao❶mond' into 'ciao' and 'mond' and
    // dropped '❶': the search_terms lookups missed it, and 'mondo' found it on PostgreSQL only.
    const id = await image({ title: 'Ciao❶mondo', text: 'ⓐⓑ' });
    for (const order of ['relevance', 'newest'] as const) {
      expect(await ids('ciao❶mondo', order)).toEqual([id]);
      expect(await ids('ⓐⓑ', order)).toEqual([id]);
      expect(await ids('mondo', order)).not.toContain(id);
    }
  });

  it.runIf(TEST_ENGINE === 'postgres')(
    'stores on PostgreSQL the weights and positions to_tsvector gave the same terms',
    async () => {
      // ts_rank_cd ranks by them: the literal must not change the order of results.
      const title = 'lucciole che brillano lucciole';
      // The repeated word last: `||` numbers the next field on from the largest position kept.
      const text = 'lucciole ' + Array.from({ length: 300 }, () => 'cicale').join(' ');
      const id = await image({ title, text });
      const category = await db()
        .selectFrom('categories')
        .select('nome')
        .where('id_categoria', '=', 1)
        .executeTakeFirstOrThrow();
      const fields = searchDocument({
        title,
        tags: [],
        category: category.nome,
        text,
        username: 'proprietario',
        alternates: null,
      });
      const stored = await sql<{ same: boolean }>`
        SELECT document = (
          setweight(to_tsvector('simple', ${fields.title}), 'A')
          || setweight(to_tsvector('simple', ${fields.tags}), 'B')
          || setweight(to_tsvector('simple', ${fields.body}), 'C')
          || setweight(to_tsvector('simple', ${fields.author}), 'D')
        ) AS same
        FROM image_search WHERE id_image = ${id}
      `.execute(db());
      expect(stored.rows).toEqual([{ same: true }]);
    },
  );

  it('never shows pending or rejected images, even with a document', async () => {
    const pending = await image({ title: 'Lampione pendente', status: 'pending' });
    const rejected = await image({ title: 'Lampione respinto', status: 'rejected' });
    const approved = await image({ title: 'Lampione approvato' });
    expect(await ids('lampione')).toEqual([approved]);

    // Documents written behind reindexImage's back (a stale or buggy index) change nothing.
    const repo = createSearchRepository(db(), dialect());
    const document = searchDocument({
      alternates: null,
      title: 'Lampione',
      tags: [],
      category: null,
      text: null,
      username: null,
    });
    await repo.upsertImageDocument(pending, document);
    await repo.upsertImageDocument(rejected, document);
    expect(await ids('lampione')).toEqual([approved]);

    // An approved image rejected without a reindex disappears at once.
    await db()
      .updateTable('images')
      .set({ status: 'rejected' })
      .where('id_image', '=', approved)
      .execute();
    expect(await search.search('lampione')).toEqual({ ids: [], total: 0, capped: false });
  });

  it('puts images with every word (AND) before those with only some of them', async () => {
    const both = await image({ title: 'Bicicletta rossa', text: 'sotto il ponte' });
    const onlyOne = await image({ title: 'Bicicletta blu' });
    expect(await ids('biciclette')).toEqual(expect.arrayContaining([both, onlyOne]));
    // The newer image holds one word of two: it comes after the one holding both.
    expect(await ids('biciclette rosse')).toEqual([both, onlyOne]);
    expect(await ids('bicicletta ponte')).toEqual([both, onlyOne]);
    // No image holds both: those holding one, newest first.
    expect(await ids('bicicletta verde')).toEqual([onlyOne, both]);
    // Fewer than half of the words is not a match.
    expect(await ids('bicicletta verde gialla')).toEqual([]);
  });

  it('ranks a title match above a match in the OCR text only', async () => {
    // The OCR-only image is newer, so only the weights can put the title match first.
    const inTitle = await image({ title: 'Tramonto sul porto', text: 'nulla' });
    const inText = await image({ title: 'Foto del molo', text: 'un tramonto rosso' });
    const inTag = await image({ title: 'Molo', tags: [await insertTag('tramonti')] });
    expect(await ids('tramonto')).toEqual([inTitle, inTag, inText]);
    // Newest first ignores the weights.
    expect(await ids('tramonto', 'newest')).toEqual([inTag, inText, inTitle]);
  });

  it("finds a photo by the OCR's alternates, after the photos whose text holds the word", async () => {
    // Read 'NESSO NO' with 'nessuno' as the recogniser's second reading; newer than the photo
    // that read it, so only the weights can put that one first.
    const read = await image({ text: 'NESSUNO TI GUARDA' });
    const alternate = await image({
      text: 'CHI SEI QUANDO NESSO NO',
      alternates: 'nessuno saracinesca',
    });
    expect(await ids('nessuno')).toEqual([read, alternate]);
    expect(await ids('nessuno', 'newest')).toEqual([alternate, read]);
    // Both words strictly, one of them only among the alternates, in another Italian form;
    // then, as ever, the photos holding half of the words.
    expect(await ids('saracinesche nessuno')).toEqual([alternate, read]);
    // The alternates are for search alone: what visitors read is the text chosen.
    const row = await db()
      .selectFrom('images')
      .select('extracted_text')
      .where('id_image', '=', alternate)
      .executeTakeFirstOrThrow();
    expect(row.extracted_text).toBe('CHI SEI QUANDO NESSO NO');
  });

  it('orders newest first by publication date, then id', async () => {
    const first = await image({ title: 'Gabbiano uno' });
    const second = await image({ title: 'Gabbiano due' });
    const third = await image({ title: 'Gabbiano tre' });
    // Approved late: published after the others although uploaded before them.
    await db()
      .updateTable('images')
      .set({ published_at: nextTimestamp() })
      .where('id_image', '=', first)
      .execute();
    expect(await ids('gabbiano', 'newest')).toEqual([first, third, second]);
  });

  it('pages with skip and limit and counts every match', async () => {
    const all: number[] = [];
    for (let i = 0; i < 7; i++) all.push(await image({ title: `Lanterna ${i}` }));
    const newest = [...all].reverse();
    expect(await search.search('lanterna', 0, 3, 'newest')).toEqual({
      ids: newest.slice(0, 3),
      total: 7,
      capped: false,
    });
    expect(await search.search('lanterna', 3, 3, 'newest')).toEqual({
      ids: newest.slice(3, 6),
      total: 7,
      capped: false,
    });
    expect(await search.search('lanterna', 6, 3, 'newest')).toEqual({
      ids: newest.slice(6),
      total: 7,
      capped: false,
    });
    // Past the end: no ids, still the total.
    expect(await search.search('lanterna', 20, 3, 'newest')).toEqual({
      ids: [],
      total: 7,
      capped: false,
    });
    // Equal relevance: newer first.
    expect((await search.search('lanterna', 0, 3, 'relevance')).ids).toEqual(newest.slice(0, 3));
  });

  it('considers at most the candidate cap, newest uploads first, and says so', async () => {
    const all: number[] = [];
    for (let i = 0; i < 5; i++) all.push(await image({ title: `Ombrello ${i}` }));
    const capped = createSearchService(db(), dialect(), { candidateCap: 3 });
    expect(await capped.search('ombrello', 0, 10, 'newest')).toEqual({
      ids: all.slice(2).reverse(),
      total: 3,
      capped: true,
    });
    const ranked = await capped.search('ombrello', 0, 10, 'relevance');
    expect(ranked.total).toBe(3);
    expect(ranked.capped).toBe(true);
    expect([...ranked.ids].sort((a, b) => a - b)).toEqual(all.slice(2));
  });

  it('retries the last word as a prefix only when nothing matches it whole', async () => {
    const zanzara = await image({ title: 'Zanzara tigre' });
    const zanna = await image({ title: 'Zanna' });
    expect(await ids('zanz')).toEqual([zanzara]);
    expect(await ids('tigre zanz')).toEqual([zanzara]);
    expect(new Set(await ids('zan'))).toEqual(new Set([zanzara, zanna]));
    // A whole-word match wins: no prefix widening then.
    expect(await ids('zanna')).toEqual([zanna]);
    // A single letter is never a prefix.
    expect(await ids('z')).toEqual([]);
  });

  it('finds nothing for a query of only signs, which holds no word', async () => {
    for (const signs of [' ?! -- ', '"*"', '___', '😀🔥', '%']) {
      await expect(search.search(signs), signs).resolves.toEqual({
        ids: [],
        total: 0,
        capped: false,
      });
    }
  });

  it('answers a blank query with 400 and an Italian message', async () => {
    for (const blank of ['', '   ', '\t\n']) {
      const error = await search.search(blank).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HttpError);
      expect(error).toMatchObject({ statusCode: 400, detail: 'Inserisci un testo da cercare.' });
    }
  });

  it('treats SQL and FTS metacharacters as plain words, never as syntax', async () => {
    const muroAmore = await image({ title: 'Muro e amore', text: 'near or not' });
    const queries = [
      '"',
      '"muro',
      'muro"',
      "'",
      "muro'",
      '*',
      'muro*',
      '*muro',
      'OR',
      'muro OR amore',
      'muro AND amore',
      'NOT muro',
      'NEAR(',
      'NEAR(muro amore)',
      'muro NEAR amore',
      '-muro',
      'muro -amore',
      '%',
      'mu%ro',
      '_',
      'mu_ro',
      '\\',
      'muro\\',
      "'; DROP TABLE images; --",
      '"; DROP TABLE image_search; --',
      'title:muro',
      '{title}: muro',
      '^muro',
      'muro:*',
      'muro & amore | !x',
      '(muro)',
      'muro <-> amore',
      '\u0000muro',
    ];
    for (const query of queries) {
      const result = await search.search(query).catch((error: unknown) => error);
      if (result instanceof HttpError) {
        // Only a query with no word at all may be refused, and only as a 400.
        expect(result.statusCode, query).toBe(400);
        continue;
      }
      expect(result, query).toMatchObject({ ids: expect.any(Array), total: expect.any(Number) });
    }
    // Operators are plain words that must match too.
    // Images holding only 'muro' may follow; the one holding both words comes first.
    expect((await ids('muro near'))[0]).toBe(muroAmore);
    expect((await ids('muro -amore'))[0]).toBe(muroAmore);
    // 'or' and 'and' are words to find like any other: none of these holds every word, so
    // only images holding two of the three are found, and 'or' is in this one's text.
    expect(await ids('muro OR zebra')).toEqual([muroAmore]);
    expect(await ids('"muro" AND "amore"')).toEqual([muroAmore]);
    expect(await ids('zebra AND giraffa')).toEqual([]);
    // The strict match first; images holding one of the two words follow.
    expect(await ids('(muro) amore*')).toEqual([muroAmore, amore, muri]);
    // The tables are still there.
    await expect(db().selectFrom('images').select('id_image').limit(1).execute()).resolves.toEqual(
      expect.any(Array),
    );
    expect((await ids('muro amore'))[0]).toBe(muroAmore);
  });

  it('follows a title change after reindexImage', async () => {
    const id = await image({ title: 'Vecchio cancello' });
    await db()
      .updateTable('images')
      .set({ titolo_img: 'Nuova finestra' })
      .where('id_image', '=', id)
      .execute();
    // Stale until reindexed: the index is written by the services, not by triggers.
    expect(await ids('cancello')).toEqual([id]);
    await search.reindexImage(id);
    expect(await ids('cancello')).toEqual([]);
    expect(await ids('finestra')).toEqual([id]);
  });

  it('indexes an image approved while its reindex was under way', async () => {
    const id = await image({ title: 'Zanzibarino fortunato', status: 'pending' });
    expect(await ids('zanzibarino')).toEqual([]);
    // The approval, in another connection, commits while a reindex of the image (an OCR
    // job's, a rename's) runs: the reindex must not remove what the approval wrote.
    // As moderation does, the image's document lock first (db/locks.ts).
    const approval = await holdWrite(
      t.config.database,
      [
        ...(TEST_ENGINE === 'postgres'
          ? ([[`SELECT pg_advisory_xact_lock(${String(IMAGE_DOCUMENT_LOCK)}, ?)`, [id]]] as const)
          : []),
        [
          "UPDATE images SET status = 'approved', published_at = ? WHERE id_image = ?",
          [nextTimestamp(), id],
        ],
      ],
      400,
    );
    await search.reindexImage(id);
    await approval.committed;
    expect(await ids('zanzibarino')).toEqual([id]);
  });

  // PostgreSQL locks each new vocabulary row until the commit; SQLite's writers never overlap.
  it.runIf(TEST_ENGINE === 'postgres')(
    'adds new words of two documents written at once, whatever their order',
    async () => {
      const words = (prefix: string) =>
        Array.from(
          { length: 40 },
          (_, i) => `${prefix}qzx${String.fromCharCode(97 + (i % 26))}wvk${String(i)}`,
        );
      const document = (text: string[]) =>
        searchDocument({
          title: null,
          tags: [],
          category: null,
          text: text.join(' '),
          username: null,
          alternates: null,
        });
      const first = await image({ title: 'Primo', skipIndex: true });
      const second = await image({ title: 'Secondo', skipIndex: true });
      // The first writer stops after its first statement that adds words, holding those rows,
      // while the second adds the same words in the opposite order.
      const { pausing, atGate, gate } = pausingAfterFirstInsert();
      const writeWith = (executor: typeof pausing, id: number, text: string[]) =>
        executor
          .transaction()
          .execute((trx) =>
            createSearchRepository(trx, dialect()).upsertImageDocument(id, document(text)),
          );
      const one = writeWith(pausing, first, [...words('f'), ...words('g')]);
      await atGate.promise;
      const two = writeWith(db(), second, [...words('g'), ...words('f')]);
      await new Promise((resolve) => setTimeout(resolve, 300));
      gate.resolve();
      await expect(Promise.all([one, two])).resolves.toBeDefined();
    },
  );

  it('follows category, tag and username renames', async () => {
    const category = await insertCategory('poesia_urbana');
    const tag = await insertTag('gessetto');
    const user = await insertUser('poetessa');
    const id = await image({ title: 'Versi', category, tags: [tag], user });
    expect(await ids('poesia urbana')).toEqual([id]);

    await db()
      .updateTable('categories')
      .set({ nome: 'versi_notturni', nome_key: 'versi_notturni' })
      .where('id_categoria', '=', category)
      .execute();
    await search.reindexByCategory(category);
    expect(await ids('poesia')).toEqual([]);
    expect(await ids('notturni')).toEqual([id]);

    await db().updateTable('tags').set({ nome: 'pennarello' }).where('id_tag', '=', tag).execute();
    await search.reindexByTag(tag);
    expect(await ids('gessetto')).toEqual([]);
    expect(await ids('pennarelli')).toEqual([id]);

    await db()
      .updateTable('users')
      .set({ username: 'cantastorie' })
      .where('id_utente', '=', user)
      .execute();
    await search.reindexByUser(user);
    expect(await ids('poetessa')).toEqual([]);
    expect(await ids('cantastorie')).toEqual([id]);
  });

  it('removes the document when an image is rejected or deleted', async () => {
    const id = await image({ title: 'Ringhiera' });
    expect(await ids('ringhiera')).toEqual([id]);
    await db()
      .updateTable('images')
      .set({ status: 'rejected' })
      .where('id_image', '=', id)
      .execute();
    await search.reindexImage(id);
    await db()
      .updateTable('images')
      .set({ status: 'approved' })
      .where('id_image', '=', id)
      .execute();
    // Approved again but not yet reindexed: it has no document, so it is not found.
    expect(await ids('ringhiera')).toEqual([]);
    await search.reindexImage(id);
    expect(await ids('ringhiera')).toEqual([id]);

    await db().deleteFrom('images').where('id_image', '=', id).execute();
    await search.reindexImage(id);
    expect(await ids('ringhiera')).toEqual([]);
    await expect(search.reindexImage(999_999)).resolves.toBeUndefined();
  });

  it('rebuilds everything and drops stale documents', async () => {
    const id = await image({ title: 'Campanile', skipIndex: true });
    expect(await ids('campanile')).toEqual([]);
    expect(await search.reindexAll()).toBeGreaterThan(0);
    expect(await ids('campanile')).toEqual([id]);

    const gone = await image({ title: 'Campanile caduto' });
    // SQLite keeps the document of a row deleted behind its back; PostgreSQL cascades.
    await db().deleteFrom('images').where('id_image', '=', gone).execute();
    await search.removeStaleDocuments();
    const count =
      dialect() === 'sqlite'
        ? sql<{ n: number }>`SELECT count(*) AS n FROM image_search WHERE rowid = ${sql.lit(gone)}`
        : sql<{ n: number }>`SELECT count(*) AS n FROM image_search WHERE id_image = ${gone}`;
    expect(Number((await count.execute(db())).rows[0]?.n)).toBe(0);
    expect(await ids('campanile')).toEqual([id]);
  });
});

describe('search that forgives OCR slips (fallback)', () => {
  it('finds a word read with one slip, after the images where it was read whole', async () => {
    const whole = await image({ text: 'la guerra è finita' });
    // Newer, so only the ranking can put the whole reading first.
    const wrong = await image({ text: 'LA GUCRRA È FINITA' });
    const missing = await image({ text: 'la gurra' });
    const swapped = await image({ text: 'la geurra' });
    const extra = await image({ text: 'la guerrra' });
    expect(await ids('guerra')).toEqual([whole, extra, swapped, missing, wrong]);
    // The other number of the word, as the evaluation asks it.
    expect(await ids('guerre')).toEqual([whole, extra, swapped, missing, wrong]);
    // Newest first still puts the strict match first.
    expect(await ids('guerra', 'newest')).toEqual([whole, extra, swapped, missing, wrong]);
  });

  it('forgives a slip in an ending, which changes the stem', async () => {
    const id = await image({ text: 'un ringraziamemto' });
    // 'ringraziamento' stems to 'ringraz', the misread 'ringraziamemto' to 'ringraziamemt':
    // the word itself is one slip from the query.
    expect(await ids('ringraziamento')).toEqual([id]);
    // The stemmer also stems 'pellicano' and 'pellicani' apart; the fallback joins them.
    const pellicano = await image({ text: 'il pellicano' });
    expect(await ids('pellicani')).toEqual([pellicano]);
  });

  it('finds irregular plurals and nouns in -ano strictly, not as slips', async () => {
    const plural = await image({ text: 'viva i partigiani' });
    const singular = await image({ text: 'ciao partigiano' });
    // Newest first puts every strict match before the slips: both are strict matches.
    expect(await ids('partigiani', 'newest')).toEqual([singular, plural]);
    expect(await ids('partigiana', 'newest')).toEqual([singular, plural]);
    const uomo = await image({ title: "L'uomo e il muro" });
    expect(await ids('uomini')).toEqual([uomo]);
  });

  it('forgives no slip in short words and one only', async () => {
    const casa = await image({ text: 'casa' });
    // 'cosa' and 'casa' are one letter apart, but short words get no slip.
    expect(await ids('cosa')).toEqual([]);
    expect(await ids('casa')).toEqual([casa]);
    // Two slips make another word.
    await image({ text: 'la gvcrrra' });
    expect(await ids('guerriglia')).toEqual([]);
    expect(await ids('gvcrrra')).toHaveLength(1);
  });

  it('ranks more words matched first, then fewer slips, then newer', async () => {
    const strict = await image({ text: 'lavagna bianca' });
    const bothOneSlip = await image({ text: 'lavagma bianca' });
    const bothTwoSlips = await image({ text: 'lavagma biamca' });
    const oneWhole = await image({ text: 'bianca e basta' });
    const oneSlip = await image({ text: 'biamca e basta' });
    const oneWholeNewer = await image({ text: 'lavagna' });
    expect(await ids('lavagne bianche')).toEqual([
      strict,
      bothOneSlip,
      bothTwoSlips,
      oneWholeNewer,
      oneWhole,
      oneSlip,
    ]);
    expect(await ids('lavagne bianche', 'newest')).toEqual([
      strict,
      bothOneSlip,
      bothTwoSlips,
      oneWholeNewer,
      oneWhole,
      oneSlip,
    ]);
  });

  it('puts first, among photos holding the same words, the one nearest to the word it lacks', async () => {
    // 'muori' read 'buoni' (two slips, beyond the fallback's one): newer photos of Posillipo hold
    // 'posillipo' as well, and only nearness puts the misread one first.
    // The OCR's alternates count as read: as near as the misread one, and older.
    const alternate = await image({ text: 'Posillipo e poi', alternates: 'buoni' });
    const misread = await image({ text: 'Vedi Posillipo e poi buoni' });
    const other = await image({ text: 'Forza Posillipo sempre' });
    // Earlier tests' photos of walls ('muri', one slip from 'muori') follow: one word each.
    for (const order of ['relevance', 'newest'] as const) {
      expect((await ids('posillipo muori', order)).slice(0, 3)).toEqual([
        misread,
        alternate,
        other,
      ]);
      // The photo nearest the missing word wins whichever word is missing.
      expect((await ids('muori posillipo', order)).slice(0, 3)).toEqual([
        misread,
        alternate,
        other,
      ]);
    }
    // Nearness only orders photos holding the same words with the same slips.
    const both = await image({ text: 'Posillipo, muori' });
    expect((await ids('posillipo muori')).slice(0, 4)).toEqual([both, misread, alternate, other]);
  });

  it('puts first, among photos holding one of the words each, the one holding the rarer word', async () => {
    // No photo holds both words; three hold 'gabbiano' and are newer than the one of 'odio'.
    const rare = await image({ text: 'latino ti odio' });
    const common = [
      await image({ text: 'il gabbiano' }),
      await image({ text: 'gabbiano sul muro' }),
      await image({ text: 'un gabbiano' }),
    ];
    const newestFirst = [...common].reverse();
    for (const order of ['relevance', 'newest'] as const) {
      // Earlier tests' photos holding a word one slip away follow.
      expect((await ids('gabbiani odio', order)).slice(0, 4)).toEqual([rare, ...newestFirst]);
    }
  });

  it('pages over the strict and the looser matches with one total', async () => {
    const strict = await image({ text: 'cormorano nero' });
    const near = await image({ text: 'cornorano nero' });
    const partial = await image({ text: 'cormorano' });
    const all = [strict, near, partial];
    for (const [skip, limit] of [
      [0, 2],
      [2, 2],
      [1, 1],
      [9, 2],
    ] as const) {
      expect(await search.search('cormorano nero', skip, limit)).toEqual({
        ids: all.slice(skip, skip + limit),
        total: 3,
        capped: false,
      });
    }
  });

  it('never shows images that are not approved, through the fallback either', async () => {
    const approved = await image({ text: 'tartaruga marina' });
    const pending = await image({ text: 'tartarvga marina', status: 'pending' });
    const rejected = await image({ text: 'tartarvga', status: 'rejected' });
    // Documents written behind reindexImage's back (a stale index).
    const repo = createSearchRepository(db(), dialect());
    const document = searchDocument({
      alternates: null,
      title: null,
      tags: [],
      category: null,
      text: 'tartarvga marina',
      username: null,
    });
    await repo.upsertImageDocument(pending, document);
    await repo.upsertImageDocument(rejected, document);
    expect(await ids('tartaruga')).toEqual([approved]);
    expect(await ids('tartarvga marina')).toEqual([approved]);
    await db()
      .updateTable('images')
      .set({ status: 'rejected' })
      .where('id_image', '=', approved)
      .execute();
    expect(await search.search('tartarughe')).toEqual({ ids: [], total: 0, capped: false });
  });

  it('keeps the vocabulary with the documents: each new form under its deletion keys', async () => {
    const id = await image({ title: 'Ornitorinco' });
    const rows = await db()
      .selectFrom('search_vocabulary')
      .select(['variant', 'form', 'term'])
      .where('term', '=', 'ornitorinc')
      .orderBy('form')
      .orderBy('variant')
      .execute();
    const keysOf = (form: string) =>
      deletionKeys(form)
        .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
        .map((variant) => ({ variant, form, term: 'ornitorinc' }));
    expect(rows).toEqual([...keysOf('ornitorinc'), ...keysOf('ornitorinco')]);
    // Reindexing adds nothing.
    await search.reindexImage(id);
    const again = await db()
      .selectFrom('search_vocabulary')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('term', '=', 'ornitorinc')
      .executeTakeFirstOrThrow();
    expect(again.n).toBe(rows.length);
    expect(await ids('ornitorinci')).toEqual([id]);
    expect(await ids('ornitorimci')).toEqual([id]);
  });

  it('respects the candidate cap in the fallback and says so', async () => {
    const all: number[] = [];
    for (let i = 0; i < 4; i++) all.push(await image({ text: `fenicottero ${i}` }));
    const capped = createSearchService(db(), dialect(), { candidateCap: 2 });
    const page = await capped.search('fenicotteri', 0, 10);
    expect(page).toEqual({ ids: all.slice(2).reverse(), total: 2, capped: true });
    const fuzzy = await capped.search('fenicottrri', 0, 10);
    expect(fuzzy).toEqual({ ids: all.slice(2).reverse(), total: 2, capped: true });
  });
});

describe('search fallback, pure parts', () => {
  it('makes deletion keys, measures slips and picks neighbours', () => {
    expect(deletionKeys('amor')).toEqual(['amor', 'mor', 'aor', 'amr', 'amo']);
    expect(deletionKeys('otto')).toEqual(['otto', 'tto', 'oto', 'ott']);
    expect(slipDistance('guerr', 'gucrr', 2)).toBe(1);
    expect(slipDistance('guerr', 'geurr', 2)).toBe(1);
    expect(slipDistance('guerr', 'gurr', 2)).toBe(1);
    expect(slipDistance('guerr', 'gurre', 2)).toBe(2);
    expect(slipDistance('guerr', 'gvcrr', 1)).toBe(2);
    expect(slipDistance('città', 'citta', 1)).toBe(1);
    expect(allowedSlips('cas')).toBe(0);
    expect(allowedSlips('casa')).toBe(0);
    expect(allowedSlips('guerr')).toBe(1);
    expect(allowedSlips('x'.repeat(40))).toBe(0);
    const forms = ['guerr', 'gucrr', 'gvcrr', 'guer', 'aguerr', 'gurre', 'guerre'].map((form) => ({
      form,
      term: form === 'guerre' ? 'guerr' : form,
    }));
    expect(neighboursOf('guerra', 'guerr', forms)).toEqual([
      { term: 'aguerr', slips: 1 },
      { term: 'gucrr', slips: 1 },
      { term: 'guer', slips: 1 },
    ]);
    expect(queryKeys('casa', 'cas')).toEqual([]);
    expect(queryKeys('guerra', 'guerr')).toEqual(
      expect.arrayContaining(['guerra', 'uerra', 'guerr', 'uerr', 'gurr']),
    );
    expect(neighboursOf('cosa', 'cos', [{ form: 'casa', term: 'cas' }])).toEqual([]);
    expect(nearness('muori', 'muor', ['poi', 'buoni', 'buon'])).toBe(2);
    expect(nearness('muori', 'muor', ['muor'])).toBe(0);
    expect(nearness('muori', 'muor', ['sempre', 'forza'])).toBe(4);
    expect(nearness('muori', 'muor', [])).toBe(4);
  });

  it('orders the fallback as one sort of every candidate would', () => {
    // Ids in lists as the statement gives them: highest first, at most once a list.
    const list = (word: number, slips: number, ids: number[]): FallbackList => ({
      word,
      slips,
      ids: [...new Set(ids)].sort((a, b) => b - a),
    });
    // 'sexpre parole': the slipped word's neighbour (slips 1) and the word itself, whose own
    // spelling holds nothing; an image holding both whole is a strict match, left out.
    const small = orderFallback(
      [list(0, 0, []), list(0, 1, [9, 7, 5, 3]), list(1, 0, [8, 7, 4, 3, 2]), list(1, 1, [6])],
      2,
      1,
      new Set([3]),
    );
    // Both words (7), then one word with no slip ('parole' whole), then one slip: the
    // neighbour's images (held by 4) before 'parole''s neighbour's (word 1 is held by 6).
    expect(small.ids).toEqual([7, 8, 4, 2, 9, 5, 6]);
    expect(small.rank).toEqual([0, 1, 1, 1, 2, 2, 3]);
    expect(small.matched).toEqual([3, 2, 2, 2, 1, 1, 2]);

    // Two words held by as many images tie on rarity: their images interleave by id, one rank.
    const tie = orderFallback([list(0, 0, [9, 5, 1]), list(1, 0, [8, 4, 2])], 2, 1, new Set());
    expect(tie.ids).toEqual([9, 8, 5, 4, 2, 1]);
    expect(tie.rank).toEqual([0, 0, 0, 0, 0, 0]);
    expect(tie.matched).toEqual([1, 2, 1, 2, 2, 1]);

    for (let round = 0; round < 200; round += 1) {
      const random = new Random(`fallback-order-${round}`);
      const pick = (n: number) => Math.floor(random.next() * n);
      const wordCount = 1 + pick(4);
      const span = 20 + pick(200);
      const lists: FallbackList[] = [];
      for (let word = 0; word < wordCount; word += 1) {
        // Two words held by as many images tie on rarity: their states interleave by id.
        const size = round % 3 === 0 ? 15 : pick(span);
        lists.push(
          list(
            word,
            0,
            Array.from({ length: size }, () => pick(span)),
          ),
        );
        if (random.next() < 0.7) {
          lists.push(
            list(
              word,
              1,
              Array.from({ length: pick(span) }, () => pick(span)),
            ),
          );
        }
      }
      const needed = Math.ceil(wordCount / 2);
      const exclude = new Set(Array.from({ length: pick(10) }, () => pick(span)));
      const order = orderFallback(lists, wordCount, needed, exclude);
      const expected = sortedOneByOne(lists, wordCount, needed, exclude);
      expect(order.ids, `round ${round}`).toEqual(expected.map((m) => m.id));
      expect(order.matched).toEqual(expected.map((m) => m.matched));
      // Equal ranks exactly where the comparator finds two candidates equal before their ids.
      for (let i = 1; i < expected.length; i += 1) {
        const tie = rankOf(expected[i - 1]) === rankOf(expected[i]);
        expect(order.rank[i] === order.rank[i - 1], `round ${round}, ${i}`).toBe(tie);
      }
    }
    expect(() => orderFallback([], 13, 7, new Set())).toThrow(RangeError);
    // The merge reads each list once, highest id first: a list out of order is refused.
    expect(() => orderFallback([{ word: 0, slips: 0, ids: [1, 2] }], 1, 1, new Set())).toThrow(
      RangeError,
    );
  });
});

/** The fallback's order as it was written before search.fallback-order.ts: the reference. */
function sortedOneByOne(
  lists: readonly FallbackList[],
  wordCount: number,
  needed: number,
  exclude: ReadonlySet<number>,
) {
  interface Candidate {
    id: number;
    matched: number;
    words: number;
    slips: number;
    commonness: number;
  }
  const all = new Map<number, Candidate>();
  const holding = new Array<number>(wordCount).fill(0);
  for (const { word, slips, ids } of lists) {
    for (const id of ids) {
      const candidate = all.get(id) ?? { id, matched: 0, words: 0, slips: 0, commonness: 0 };
      all.set(id, candidate);
      if ((candidate.matched & (1 << word)) !== 0) continue;
      candidate.matched |= 1 << word;
      candidate.words += 1;
      candidate.slips += slips;
      holding[word] = (holding[word] ?? 0) + 1;
    }
  }
  const ranked = [...all.values()].filter(
    (c) => c.words >= needed && !exclude.has(c.id) && !(c.words === wordCount && c.slips === 0),
  );
  for (const candidate of ranked) {
    for (let word = 0; word < wordCount; word += 1) {
      if ((candidate.matched & (1 << word)) !== 0) {
        candidate.commonness += Math.log(holding[word] ?? 0);
      }
    }
  }
  return ranked.sort(
    (a, b) => b.words - a.words || a.slips - b.slips || a.commonness - b.commonness || b.id - a.id,
  );
}

function rankOf(candidate: { words: number; slips: number; commonness: number } | undefined) {
  return candidate === undefined
    ? ''
    : `${candidate.words} ${candidate.slips} ${candidate.commonness}`;
}
