import { sql, type Transaction } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as searchTermsMigration from '../src/db/migrations/2026-11-25T2100-search-terms.js';
import * as approvedOnlyMigration from '../src/db/migrations/2026-11-27T0900-search-terms-approved.js';
import * as termBlocksMigration from '../src/db/migrations/2026-11-29T0900-search-term-blocks.js';
import * as publishedBoundsMigration from '../src/db/migrations/2026-12-01T2100-search-published-bounds.js';
import type { Database } from '../src/db/tables.js';
import {
  choosePath,
  createSearchRepository,
  TERM_BLOCK,
  type MultiWordPath,
} from '../src/modules/search/search.repository.js';
import { createSearchService } from '../src/modules/search/search.service.js';
import { searchDocument, type SearchDocument } from '../src/modules/search/search.text.js';
import { buildTestApp, TEST_ADMIN, type TestApp } from './helpers/app.js';
import { bearer, createUser, login, type TestUser } from './helpers/factories.js';
import { createCategory, uploadImage } from './helpers/images.js';

/*
 * Search stays in step with every write made through the API: approval, rejection, an
 * administrator's edit, category and tag renames and deletions, the text read on the wall,
 * image deletion and a user's erasure. On PostgreSQL searches read their candidates from
 * `search_terms` (migration 2026-11-25T2100-search-terms), which triggers derive from the
 * documents of approved images (2026-11-27T0900-search-terms-approved); after every step it
 * must hold exactly those documents' lexemes. Runs on SQLite and, with TEST_DATABASE_URL, on
 * PostgreSQL.
 *
 * On PostgreSQL most words of these tests are made dense before any image exists, and the
 * images' ids start just below the end of the first block of TERM_BLOCK ids: every write then
 * also changes the bitmaps of two blocks (migration 2026-11-29T0900-search-term-blocks), which
 * must hold exactly the dense words' rows of search_terms.
 */

let t: TestApp;
let adminToken: string;
let writer: TestUser;

beforeAll(async () => {
  t = await buildTestApp();
  adminToken = (await login(t.app, TEST_ADMIN.username, TEST_ADMIN.password)).json().access_token;
  writer = await createUser(t.app, { username: 'scrittrice' });
  if (postgres()) {
    await sql`
      SELECT setval(pg_get_serial_sequence('images', 'id_image'), ${TERM_BLOCK - 12})
    `.execute(db());
    const repo = createSearchRepository(db(), 'postgres');
    for (const term of stems(DENSE_WORDS)) await repo.makeDense(term);
  }
});
afterAll(() => t.close());

const db = () => t.app.ctx.database.db;
const postgres = () => t.app.ctx.database.dialect === 'postgres';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
async function asAdmin(method: Method, url: string, payload?: object): Promise<void> {
  const response = await t.app.inject({
    method,
    url,
    headers: bearer(adminToken),
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
  expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(
    method === 'POST' ? 201 : 200,
  );
}

/** Words of these tests kept as bitmaps on PostgreSQL (the uploader's name among them). */
const DENSE_WORDS =
  'scalinata azzurra ferro panchina rossa lungomare faro molo porto barca gabbiano scrittrice';

/** The search document of an image with this title and nothing else. */
function titleDocument(title: string): SearchDocument {
  return searchDocument({
    title,
    tags: [],
    category: null,
    text: null,
    username: null,
    alternates: null,
  });
}

/** The terms (stems) search indexes these words as. */
function stems(words: string): string[] {
  return titleDocument(words).title.split(' ');
}

/** The ids GET /api/search answers, in its order. */
async function found(query: string, order = 'newest'): Promise<number[]> {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/search?query=${encodeURIComponent(query)}&order=${order}`,
  });
  expect(response.statusCode, query).toBe(200);
  return response
    .json<{ images: Array<{ id_image: number }> }>()
    .images.map((image) => image.id_image);
}

/**
 * PostgreSQL: search_terms holds exactly one row per lexeme of each approved image's document,
 * no more, no less. SQLite has no such table: its FTS5 index is the documents themselves.
 */
async function expectTermsInStep(): Promise<void> {
  if (!postgres()) return;
  const lexemes = sql`
    SELECT term, s.id_image, i.published_at
    FROM image_search s JOIN images i ON i.id_image = s.id_image AND i.status = 'approved',
      unnest(tsvector_to_array(s.document)) AS term
  `;
  const missing = await sql<{ term: string; id_image: number; published_at: string | null }>`
    ${lexemes} EXCEPT SELECT term, id_image, published_at FROM search_terms
  `.execute(db());
  const extra = await sql<{ term: string; id_image: number; published_at: string | null }>`
    SELECT term, id_image, published_at FROM search_terms EXCEPT ${lexemes}
  `.execute(db());
  expect(missing.rows).toEqual([]);
  expect(extra.rows).toEqual([]);
  // The bitmaps: one bit for each row of a dense word, no more.
  const dense = sql`
    SELECT term, id_image FROM search_terms JOIN search_dense_terms USING (term)
  `;
  const bits = sql`
    SELECT term, block * ${TERM_BLOCK} + position AS id_image
    FROM search_term_blocks, generate_series(0, ${TERM_BLOCK - 1}) AS position
    WHERE get_bit(bits, position) = 1
  `;
  const unset = await sql`${dense} EXCEPT ${bits}`.execute(db());
  const stray = await sql`${bits} EXCEPT ${dense}`.execute(db());
  expect(unset.rows).toEqual([]);
  expect(stray.rows).toEqual([]);
  // Every block's publication bounds enclose the times of its terms (a time unknown sorts last).
  const outside = await sql`
    SELECT term, id_image, published_at, bounds.oldest, bounds.newest
    FROM search_terms
    LEFT JOIN search_published_bounds AS bounds ON bounds.block = id_image / ${TERM_BLOCK}
    WHERE bounds.block IS NULL
      OR coalesce(published_at, '-infinity') NOT BETWEEN bounds.oldest AND bounds.newest
  `.execute(db());
  expect(outside.rows).toEqual([]);
}

/** Writes an image's document directly, whatever its status, as the search module never does. */
async function writeDocumentBehindSearch(id_image: number, title: string): Promise<void> {
  await createSearchRepository(db(), t.app.ctx.database.dialect).upsertImageDocument(
    id_image,
    titleDocument(title),
  );
}

async function approveThroughApi(filename: string): Promise<void> {
  await asAdmin('PUT', `/api/admin/approve-image/${filename}`);
}

describe('search follows every write through the API', () => {
  it('indexes at approval, never before, and never a rejected image', async () => {
    const image = await uploadImage(t.app, writer, { title: 'Scalinata azzurra' });
    expect(await found('scalinata')).toEqual([]);
    await approveThroughApi(image.filename);
    expect(await found('scalinata')).toEqual([image.id_image]);
    expect(await found('scalinate azzurre', 'relevance')).toEqual([image.id_image]);
    await expectTermsInStep();

    const refused = await uploadImage(t.app, writer, { title: 'Scalinata respinta' });
    const rejected = await t.app.inject({
      method: 'POST',
      url: `/api/admin/reject-image/${refused.filename}`,
      headers: { ...bearer(adminToken), 'content-type': 'application/json' },
      payload: 'Sfocata',
    });
    expect(rejected.statusCode).toBe(200);
    expect(await found('scalinata')).toEqual([image.id_image]);
    expect(await found('respinta')).toEqual([]);
    await expectTermsInStep();
  });

  it('follows an edit of title, category and tags, and their renames and deletions', async () => {
    const category = await createCategory(t.app, 'lungomare');
    const image = await uploadImage(t.app, writer, { title: 'Ringhiera verde', tags: ['ferro'] });
    await approveThroughApi(image.filename);
    expect(await found('ferro')).toEqual([image.id_image]);

    await asAdmin('PUT', `/api/admin/images/${String(image.id_image)}`, {
      titolo_img: 'Panchina rossa',
      id_categoria: category,
      tags: ['legno', 'vernice'],
    });
    expect(await found('ringhiera')).toEqual([]);
    expect(await found('ferro')).toEqual([]);
    expect(await found('panchine rosse')).toEqual([image.id_image]);
    expect(await found('lungomare legno')).toEqual([image.id_image]);
    await expectTermsInStep();

    await asAdmin('PUT', `/api/admin/categories/${String(category)}`, { nome: 'passeggiata' });
    expect(await found('lungomare')).toEqual([]);
    expect(await found('passeggiata vernice')).toEqual([image.id_image]);
    await expectTermsInStep();

    const tags = await db().selectFrom('tags').select(['id_tag', 'nome']).execute();
    const legno = tags.find((tag) => tag.nome === 'legno')?.id_tag;
    const vernice = tags.find((tag) => tag.nome === 'vernice')?.id_tag;
    await asAdmin('PUT', `/api/admin/tags/${String(legno)}`, { nome: 'quercia' });
    expect(await found('legno')).toEqual([]);
    expect(await found('quercia')).toEqual([image.id_image]);
    await asAdmin('DELETE', `/api/admin/tags/${String(vernice)}`);
    expect(await found('vernice')).toEqual([]);
    await asAdmin('DELETE', `/api/admin/categories/${String(category)}`);
    expect(await found('passeggiata')).toEqual([]);
    expect(await found('panchina quercia')).toEqual([image.id_image]);
    await expectTermsInStep();
  });

  it('follows the text read on the wall, then the deletion of the image', async () => {
    const image = await uploadImage(t.app, writer, { title: 'Muro' });
    await approveThroughApi(image.filename);
    // What the analysis job does once the wall is read.
    await db()
      .updateTable('images')
      .set({ extracted_text: 'NESSUNO È ILLEGALE' })
      .where('id_image', '=', image.id_image)
      .execute();
    await t.app.ctx.search.reindexImage(image.id_image);
    t.app.publicCache.clear();
    expect(await found('illegale')).toEqual([image.id_image]);
    // Read again with the same text: nothing changes.
    await t.app.ctx.search.reindexImage(image.id_image);
    await expectTermsInStep();

    await asAdmin('DELETE', `/api/admin/images/${String(image.id_image)}`);
    expect(await found('illegale')).toEqual([]);
    await expectTermsInStep();
  });

  it("forgets every image of an erased user, and a row deleted behind search's back", async () => {
    const leaving = await createUser(t.app, { username: 'partente' });
    const first = await uploadImage(t.app, leaving, { title: 'Saluti dal molo' });
    const second = await uploadImage(t.app, leaving, { title: 'Saluti dal faro' });
    await approveThroughApi(first.filename);
    await approveThroughApi(second.filename);
    expect(await found('saluti')).toEqual([second.id_image, first.id_image]);
    await asAdmin('DELETE', `/api/admin/users/${String(leaving.id)}`);
    expect(await found('saluti')).toEqual([]);
    await expectTermsInStep();

    // PostgreSQL removes the document by foreign key, and the trigger its terms with it.
    const gone = await uploadImage(t.app, writer, { title: 'Lampara' });
    await approveThroughApi(gone.filename);
    await db().deleteFrom('images').where('id_image', '=', gone.id_image).execute();
    t.app.publicCache.clear();
    expect(await found('lampara')).toEqual([]);
    await expectTermsInStep();
  });

  it("follows a change of the uploader's name, made by the user or by an administrator", async () => {
    const painter = await createUser(t.app, { username: 'pittrice' });
    const image = await uploadImage(t.app, painter, { title: 'Onde' });
    await approveThroughApi(image.filename);
    expect(await found('pittrice')).toEqual([image.id_image]);

    const own = await t.app.inject({
      method: 'PUT',
      url: '/api/users/me',
      headers: bearer(painter.token),
      payload: { username: 'muralista' },
    });
    expect(own.statusCode, own.body).toBe(200);
    expect(await found('pittrice')).toEqual([]);
    expect(await found('muralista')).toEqual([image.id_image]);
    await expectTermsInStep();

    await asAdmin('PUT', `/api/admin/users/${String(painter.id)}`, {
      username: 'writer',
      email: painter.email,
      password: '',
    });
    expect(await found('muralista')).toEqual([]);
    expect(await found('writer')).toEqual([image.id_image]);
    await expectTermsInStep();
  });

  it('finds the same images whichever word of several drives the search', async () => {
    // A common word, a rarer one and a rare one, so the candidates are read from each of
    // them in turn (the rarest first, or every list merged when all are common).
    const ids: number[] = [];
    for (let i = 0; i < 8; i++) {
      const image = await uploadImage(t.app, writer, {
        title: ['Gatto nero', i % 2 === 0 ? 'sul tetto' : '', i % 4 === 0 ? 'di notte' : ''].join(
          ' ',
        ),
      });
      await approveThroughApi(image.filename);
      ids.push(image.id_image);
    }
    const newest = [...ids].reverse();
    const expected = {
      gatto: newest,
      'gatto tetto': newest.filter((id) => ids.indexOf(id) % 2 === 0),
      'notte tetto gatto': newest.filter((id) => ids.indexOf(id) % 4 === 0),
      'nero notte': newest.filter((id) => ids.indexOf(id) % 4 === 0),
    };
    for (const [query, strict] of Object.entries(expected)) {
      // The strict matches first; images holding half of the words follow (the fallback).
      const answer = await found(query);
      expect(answer.slice(0, strict.length), query).toEqual(strict);
      for (const driveBelow of [1, 3]) {
        const search = createSearchService(db(), t.app.ctx.database.dialect, { driveBelow });
        const page = await search.search(query, 0, 50, 'newest');
        expect(page.ids, `${query}, driven below ${String(driveBelow)}`).toEqual(answer);
      }
    }
  });
});

describe('only approved images are found, whatever writes the rows', () => {
  it('gives terms to a document only while its image is approved', async () => {
    const image = await uploadImage(t.app, writer, { title: 'Faro spento' });
    // A document written behind the search module's back, while the image is pending.
    await writeDocumentBehindSearch(image.id_image, 'Faro spento');
    const search = createSearchService(db(), t.app.ctx.database.dialect);
    const setStatus = async (status: 'approved' | 'rejected'): Promise<void> => {
      await db()
        .updateTable('images')
        .set({ status })
        .where('id_image', '=', image.id_image)
        .execute();
      t.app.publicCache.clear();
    };
    const lookFor = async (query: string): Promise<number[]> =>
      (await search.search(query, 0, 20, 'newest')).ids;

    await expectTermsInStep();
    expect(await lookFor('faro')).toEqual([]);
    // 'spentp': one slip from 'spento', found only by the fallback.
    expect(await lookFor('spentp')).toEqual([]);

    await setStatus('approved');
    await expectTermsInStep();
    expect(await lookFor('faro')).toEqual([image.id_image]);
    expect(await lookFor('spentp')).toEqual([image.id_image]);

    await setStatus('rejected');
    await expectTermsInStep();
    expect(await lookFor('faro')).toEqual([]);
    expect(await lookFor('spentp')).toEqual([]);
    expect(await found('spentp')).toEqual([]);
  });
});

describe('several words read by lookups, through the documents or by merging', () => {
  it('gives the same ids, totals and capped flags whichever path reads them', async () => {
    if (postgres()) {
      // The next 12 images straddle the end of a block.
      await sql`
        SELECT setval(pg_get_serial_sequence('images', 'id_image'),
          (max(id_image) / ${TERM_BLOCK} + 1) * ${TERM_BLOCK} - 7)
        FROM images
      `.execute(db());
    }
    // 'faro' and 'molo' seldom meet (2 of faro's 6 images hold molo): the GIN path's case.
    // Every 'porto' image holds 'barca' (a phrase): the lookups' case. With driveBelow at 2
    // every word is common, so the chooser also weighs the merge from estimated frequencies.
    const titles = [
      'Faro molo',
      'Molo',
      'Faro',
      'Barca porto',
      'Molo barca',
      'Faro',
      'Molo faro',
      'Barca',
      'Faro porto barca',
      'Molo',
      'Faro',
      'Molo barca porto',
    ];
    const ids: number[] = [];
    for (const title of titles) {
      const image = await uploadImage(t.app, writer, { title });
      await approveThroughApi(image.filename);
      ids.push(image.id_image);
    }
    const dialect = t.app.ctx.database.dialect;
    // The four words are dense on PostgreSQL (beforeAll), and their images lie in two blocks.
    const paths = [undefined, 'lookups', 'documents', 'merge'] as Array<MultiWordPath | undefined>;
    if (postgres()) {
      paths.push('bitmaps', 'intersect');
      const blocks = new Set(ids.map((id) => Math.floor(id / TERM_BLOCK)));
      expect(blocks.size).toBe(2);
    }
    async function expectSameAnswers(): Promise<void> {
      for (const query of ['faro molo', 'porto barca', 'molo barca faro', 'faro nessuno']) {
        for (const order of ['newest', 'relevance'] as const) {
          for (const [candidateCap, driveBelow] of [
            [undefined, undefined],
            [1, undefined],
            [2, undefined],
            [undefined, 2],
            [2, 2],
          ] as const) {
            const answers = [];
            for (const multiWordPath of paths) {
              const search = createSearchService(db(), dialect, {
                candidateCap,
                driveBelow,
                multiWordPath,
              });
              // A page of 2 and the page after it: the total and the flag come with each.
              answers.push([
                await search.search(query, 0, 2, order),
                await search.search(query, 2, 2, order),
              ]);
            }
            const [chosen, ...forced] = answers;
            for (const answer of forced) {
              const context = `${query}, ${order}, cap ${String(candidateCap)}, driven below ${String(driveBelow)}`;
              expect(answer, context).toEqual(chosen);
            }
          }
        }
      }
    }
    // Published in id order: the newest pages of the intersect path read the newer block alone.
    await expectSameAnswers();
    // The strict matches come first, newest first (the fallback's follow).
    expect((await found('faro molo')).slice(0, 2)).toEqual([ids[6], ids[0]]);
    expect((await found('porto barca')).slice(0, 3)).toEqual([ids[11], ids[8], ids[3]]);

    // An image of the older block published anew, as the newest of all: its block's bounds
    // now reach every page, and its terms' time was changed in place.
    await db()
      .updateTable('images')
      .set({ published_at: new Date(Date.now() + 3_600_000).toISOString() })
      .where('id_image', '=', ids[0] ?? 0)
      .execute();
    await expectTermsInStep();
    await expectSameAnswers();
    // The service itself: the API's kept answers see no write made behind its back.
    const search = createSearchService(db(), dialect);
    expect((await search.search('faro molo', 0, 2, 'newest')).ids).toEqual([ids[0], ids[6]]);
  });

  it("takes the GIN path only when few of the driving word's images hold the others", () => {
    const choose = (images: number, other: number, holding: number, sampled = 64) =>
      choosePath({ images, others: [other], newest: 1_000_000, sampled, holding }, 2_000, 10_000);
    // sempre parole at 1M: parole in 5,047 images, a third of them also holding sempre.
    expect(choose(5_047, 10_000, 22)).toBe('documents');
    // vento parole: one phrase, every image of the rarer word holds the other.
    expect(choose(5_047, 10_000, 64)).toBe('lookups');
    // Half of them: the lookups stop at the cap after 4,000 images, the GIN path reads 4,500.
    expect(choose(9_000, 10_000, 32)).toBe('lookups');
    // None in the sample: the lookups read every image, the GIN path almost none.
    expect(choose(800, 10_000, 0)).toBe('documents');
    // Nothing sampled (the word is held by no image): nothing to read either way.
    expect(choose(0, 0, 0, 0)).toBe('lookups');
  });

  it('weighs the merge, the lookups and the GIN path for two common words', () => {
    // The estimates at 1M from the ids of each word's 64 newest images, and the sample.
    const choose = (images: number, other: number, holding: number) =>
      choosePath(
        { images, others: [other], newest: 1_000_000, sampled: 64, holding },
        2_000,
        10_000,
      );
    // amore sempre (146,000 and 409,000 estimated, a third together): the merge stops after
    // 40,000 ids, where the lookups would take 5,800 images and the GIN path read 43,521.
    expect(choose(146_000, 409_000, 22)).toBe('merge');
    // sempre silenzio (10,200 estimated): the merge would read 250,000 entries of sempre
    // before 2,000 images hold both; silenzio drives the lookups, which stop after 6,000.
    expect(choose(10_200, 409_000, 21)).toBe('lookups');
    // amore amicizia (146,000 and 89,000, 2,111 together, 1 in the sample): every list would be
    // read whole by the merge and the lookups, the GIN path reads 2,111 documents.
    expect(choose(89_000, 146_000, 1)).toBe('documents');
    // luce stelle (127,000 and 10,000, none in the sample): the GIN path.
    expect(choose(10_000, 127_000, 0)).toBe('documents');
    // amore sempre luce: luce drives (127,000 estimated), 3 of its 64 newest images hold both
    // others; a third posting list makes the GIN path dearer than the merge.
    expect(
      choosePath(
        { images: 127_000, others: [146_000, 409_000], newest: 1e6, sampled: 64, holding: 3 },
        2_000,
        10_000,
      ),
    ).toBe('merge');
    // Below driveBelow the merge is never taken, even where it would read less.
    expect(choose(9_999, 9_999, 64)).toBe('lookups');
  });

  it('takes the bitmaps when every other word is dense and its images seldom hold them all', () => {
    const choose = (images: number, others: number[], holding: number, othersDense = true) =>
      choosePath(
        { images, others, newest: 1_000_000, sampled: 64, holding, othersDense },
        2_000,
        10_000,
      );
    // sempre silenzio: 6,000 of silenzio's images read in about 71 blocks, against 6,000
    // lookups; without bitmaps, the lookups as before.
    expect(choose(10_200, [409_000], 21)).toBe('bitmaps');
    expect(choose(10_200, [409_000], 21, false)).toBe('lookups');
    // amore sempre: the bitmaps read amore's list alone where the merge reads both.
    expect(choose(146_000, [409_000], 22)).toBe('bitmaps');
    expect(choose(146_000, [409_000], 22, false)).toBe('merge');
    // vento parole, a phrase: the 2,000 newest images of vento span 48 blocks, cheaper to read
    // than 2,000 lookups.
    expect(choose(5_047, [10_000], 64)).toBe('bitmaps');
    // A rare word spread over all 122 blocks: its 100 images are cheaper looked up.
    expect(choose(100, [409_000], 64)).toBe('lookups');
    // amore amicizia: 1 image in the sample holds both, so every image of amicizia is read
    // either way; the GIN path reads only the 2,111 that match.
    expect(choose(89_000, [146_000], 1)).toBe('documents');
  });

  it('intersects the bitmaps of words all dense for a page newest first', () => {
    const choose = (images: number, others: number[], holding: number, newestPage?: number) =>
      choosePath(
        {
          images,
          others,
          newest: 1_000_000,
          sampled: 64,
          holding,
          othersDense: true,
          drivingDense: true,
          ...(newestPage === undefined ? {} : { newestPage }),
        },
        2_000,
        10_000,
      );
    // amore amicizia, newest first: 122 blocks of each ANDed, then about 130 images looked up,
    // against every one of amicizia's images read by the bitmaps or the GIN path.
    expect(choose(89_000, [146_000], 1, 120)).toBe('intersect');
    // Ranked, every candidate's time and document is read whatever the path.
    expect(choose(89_000, [146_000], 1)).toBe('documents');
    // sempre silenzio: the bitmaps read 6,000 of silenzio's images as fast as every block is
    // ANDed and sent.
    expect(choose(10_200, [409_000], 21, 120)).toBe('bitmaps');
    // amore sempre: 2,000 of them within five blocks, which the bitmaps read alone.
    expect(choose(146_000, [409_000], 22, 120)).toBe('bitmaps');
    // A deep page: its images' times are looked up, many more than the bitmaps read.
    expect(choose(146_000, [409_000], 22, 1_900)).toBe('bitmaps');
  });
});

/** Four approved images, two on each side of a block's end, titled `${word} uno`… */
async function approvedAcrossABlockEnd(word: string): Promise<[number, number, number, number]> {
  await sql`
    SELECT setval(sequence, (nextval(sequence) / ${TERM_BLOCK} + 1) * ${TERM_BLOCK} - 3)
    FROM pg_get_serial_sequence('images', 'id_image') AS sequence
  `.execute(db());
  const ids: number[] = [];
  for (const count of ['uno', 'due', 'tre', 'quattro']) {
    const image = await uploadImage(t.app, writer, { title: `${word} ${count}` });
    await approveThroughApi(image.filename);
    ids.push(image.id_image);
  }
  const [before1 = 0, before2 = 0, after1 = 0, after2 = 0] = ids;
  expect(Math.floor(before2 / TERM_BLOCK) + 1).toBe(Math.floor(after1 / TERM_BLOCK));
  return [before1, before2, after1, after2];
}

type Step = (trx: Transaction<Database>) => Promise<unknown>;

/**
 * Two transactions of two steps each: the second starts once the first has taken its first
 * step, and takes both of its own (or waits to) while the first waits 300 ms before its second.
 */
async function crossingWriters(one: readonly [Step, Step], two: readonly [Step, Step]) {
  let firstWrote: () => void = () => undefined;
  const wrote = new Promise<void>((resolve) => {
    firstWrote = resolve;
  });
  const first = db()
    .transaction()
    .execute(async (trx) => {
      await one[0](trx);
      firstWrote();
      await new Promise((resolve) => setTimeout(resolve, 300));
      await one[1](trx);
    });
  const second = wrote.then(() =>
    db()
      .transaction()
      .execute(async (trx) => {
        await two[0](trx);
        await two[1](trx);
      }),
  );
  await Promise.all([first, second]);
}

describe.runIf(process.env.TEST_DATABASE_URL !== undefined)('common words kept as bitmaps', () => {
  it('makes dense the words held by enough images, once, and keeps their bits', async () => {
    const titles = ['Cometa lontana', 'Cometa vicina', 'Cometa lontana', 'Stella lontana'];
    for (const title of titles) {
      const image = await uploadImage(t.app, writer, { title });
      await approveThroughApi(image.filename);
    }
    await sql`ANALYZE search_terms`.execute(db());
    const repo = createSearchRepository(db(), 'postgres');
    const [comet, far, near] = stems('cometa lontana vicina');
    // Three images hold 'cometa' and 'lontana'; 'vicina' one.
    const bar = { images: 3, share: 1_000_000 };
    const wanted = await repo.wordsToMakeDense(bar);
    expect(wanted).toContain(comet);
    expect(wanted).toContain(far);
    expect(wanted).not.toContain(near);
    // The bar also asks for one in `share` of the ids up to the newest approved image: one in
    // one, here, which no word reaches.
    expect(await repo.wordsToMakeDense({ images: 3, share: 1 })).toEqual([]);
    const search = createSearchService(db(), 'postgres');
    // A writer of terms in flight (a transaction that wrote search_terms): after a second the
    // upkeep gives up its words, leaving them to the next, and the writer goes on.
    await db()
      .transaction()
      .execute(async (trx) => {
        await sql`LOCK TABLE search_terms IN ROW EXCLUSIVE MODE`.execute(trx);
        expect(await search.makeCommonWordsDense(bar)).toEqual([]);
      });
    expect(await repo.wordsToMakeDense(bar)).toEqual(wanted);
    // Other words of this file reach three images as well: those are made dense with them.
    const made = await search.makeCommonWordsDense(bar);
    expect(made).toContain(comet);
    expect(made).toContain(far);
    expect(made).not.toContain(near);
    expect(await repo.wordsToMakeDense(bar)).toEqual([]);
    expect(await repo.makeDense(comet ?? '')).toBe(false);
    await expectTermsInStep();

    const bitmaps = createSearchService(db(), 'postgres', { multiWordPath: 'bitmaps' });
    expect((await bitmaps.search('cometa lontana', 0, 10, 'newest')).ids).toEqual(
      (
        await createSearchService(db(), 'postgres', { multiWordPath: 'lookups' }).search(
          'cometa lontana',
          0,
          10,
          'newest',
        )
      ).ids,
    );
    // A dense word is not counted, unless no image holds it: then the search knows it is held
    // by none (and the service's fallback takes over).
    const [fog = ''] = stems('nebbia');
    expect(await repo.makeDense(fog)).toBe(true);
    const strict = await repo.searchApprovedImages({
      terms: [comet ?? '', fog],
      prefixLast: false,
      skip: 0,
      limit: 10,
      order: 'newest',
    });
    expect(strict).toEqual({ ids: [], total: 0, capped: false, unheld: [fog] });
    // A word not dense cannot be read as bitmaps: forcing it fails instead of finding nothing.
    await expect(bitmaps.search('vicina stella', 0, 10, 'newest')).rejects.toThrow(/dense/);
    const intersect = createSearchService(db(), 'postgres', { multiWordPath: 'intersect' });
    await expect(intersect.search('cometa stella', 0, 10, 'newest')).rejects.toThrow(/dense/);
  });

  it('lets two writers of several blocks take turns instead of deadlocking', async () => {
    // Two approved images on each side of a block's end: each writer rewrites the documents of
    // one on each side, in opposite orders, all holding a dense word.
    const [before1, before2, after1, after2] = await approvedAcrossABlockEnd('Lanterna');
    const [lantern = ''] = stems('lanterna');
    await createSearchRepository(db(), 'postgres').makeDense(lantern);
    const rewrite = (id: number, title: string) => (trx: Transaction<Database>) =>
      createSearchRepository(trx, 'postgres').upsertImageDocument(id, titleDocument(title));
    await crossingWriters(
      [rewrite(before1, 'Lanterna rossa'), rewrite(after1, 'Lanterna rossa')],
      [rewrite(after2, 'Lanterna verde'), rewrite(before2, 'Lanterna verde')],
    );
    await expectTermsInStep();
    // The strict matches come first.
    expect((await found('lanterna rossa')).slice(0, 2)).toEqual([after1, before1]);
    expect((await found('lanterna verde')).slice(0, 2)).toEqual([after2, before2]);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL !== undefined)("blocks' publication bounds", () => {
  it('lets two writers widening several blocks take turns instead of deadlocking', async () => {
    // Two approved images on each side of a block's end, with no dense word: each writer
    // publishes one on each side anew, later than any time before, in opposite orders.
    const [before1, before2, after1, after2] = await approvedAcrossABlockEnd('Civetta');
    const publish = (id: number, hours: number) => (trx: Transaction<Database>) =>
      sql`
        UPDATE images SET published_at = now() + make_interval(hours => ${hours})
        WHERE id_image = ${id}
      `.execute(trx);
    await crossingWriters(
      [publish(before1, 1), publish(after1, 3)],
      [publish(after2, 2), publish(before2, 4)],
    );
    await expectTermsInStep();
    const search = createSearchService(db(), 'postgres', { multiWordPath: 'lookups' });
    expect((await search.search('civetta', 0, 4, 'newest')).ids).toEqual([
      before2,
      after1,
      after2,
      before1,
    ]);
  });
});

/** Runs one step of a migration in a transaction of its own, as Kysely's migrator does. */
async function migrate(step: typeof approvedOnlyMigration.up): Promise<void> {
  await db()
    .transaction()
    .execute((trx) => step(trx));
}

describe.runIf(process.env.TEST_DATABASE_URL !== undefined)('search_terms migrations', () => {
  it('fill the terms of the documents already indexed', async () => {
    const image = await uploadImage(t.app, writer, { title: 'Gabbiano reale' });
    await approveThroughApi(image.filename);
    await migrate(publishedBoundsMigration.down);
    await migrate(termBlocksMigration.down);
    await migrate(approvedOnlyMigration.down);
    await migrate(searchTermsMigration.down);
    // A document written while the table did not exist.
    const late = await uploadImage(t.app, writer, { title: 'Gabbiano comune' });
    await approveThroughApi(late.filename);
    await migrate(searchTermsMigration.up);
    await migrate(approvedOnlyMigration.up);
    await migrate(termBlocksMigration.up);
    await migrate(publishedBoundsMigration.up);
    // A word made dense again is filled from the terms the migrations kept.
    const [gull = ''] = stems('gabbiano');
    expect(await createSearchRepository(db(), 'postgres').makeDense(gull)).toBe(true);
    await expectTermsInStep();
    expect(await found('gabbiani')).toEqual([late.id_image, image.id_image]);
  });

  it('drop the terms of images that are not approved, and keep them so', async () => {
    await migrate(publishedBoundsMigration.down);
    await migrate(termBlocksMigration.down);
    await migrate(approvedOnlyMigration.down);
    // Before the migration a document's terms were written whatever its image's status.
    const pending = await uploadImage(t.app, writer, { title: 'Cormorano in attesa' });
    await writeDocumentBehindSearch(pending.id_image, 'Cormorano in attesa');
    const held = () =>
      db()
        .selectFrom('search_terms' as never)
        .select(sql<string>`term`.as('term'))
        .where(sql<boolean>`id_image = ${pending.id_image}`)
        .execute();
    expect((await held()).length).toBeGreaterThan(0);
    await migrate(approvedOnlyMigration.up);
    await migrate(termBlocksMigration.up);
    await migrate(publishedBoundsMigration.up);
    expect(await held()).toEqual([]);
    await expectTermsInStep();
  });
});
