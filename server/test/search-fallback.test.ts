import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deletionKeys } from '../src/modules/search/search.fuzzy.js';
import * as vocabularyMigration from '../src/db/migrations/2026-11-25T0800-search-vocabulary.js';
import { buildTestApp, type TestApp } from './helpers/app.js';
import { createUser, type TestUser } from './helpers/factories.js';
import { publishedImage, uploadImage } from './helpers/images.js';

/*
 * GET /api/search's fallback through HTTP (issue 9, step 5): a word the OCR read with one slip
 * still finds its picture, after the strict matches, with one total over every page; pending
 * images never show; bad inputs are refused in Italian. Runs on SQLite and, with
 * TEST_DATABASE_URL, on PostgreSQL.
 */

let t: TestApp;
let writer: TestUser;

const day = (n: number) => new Date(Date.UTC(2026, 10, n, 12));

interface Listed {
  images: Array<{ id_image: number; titolo_img: string }>;
  total: number;
}

async function get(url: string): Promise<{ status: number; body: Listed & { detail?: string } }> {
  const response = await t.app.inject({ method: 'GET', url });
  return { status: response.statusCode, body: response.json() };
}

async function found(query: string, extra = ''): Promise<number[]> {
  const { status, body } = await get(`/api/search?query=${encodeURIComponent(query)}${extra}`);
  expect(status, query).toBe(200);
  return body.images.map((image) => image.id_image);
}

/** A public image whose wall the OCR read as `text`. */
async function wall(text: string, publishedOn: number, title = 'Foto'): Promise<number> {
  const { id_image } = await publishedImage(t.app, writer, {
    title,
    publishedAt: day(publishedOn),
  });
  await t.app.ctx.database.db
    .updateTable('images')
    .set({ extracted_text: text })
    .where('id_image', '=', id_image)
    .execute();
  await t.app.ctx.search.reindexImage(id_image);
  t.app.publicCache.clear();
  return id_image;
}

const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await buildTestApp();
  writer = await createUser(t.app, { username: 'scrittore' });
  ids['strict'] = await wall('LIBERTÀ PER TUTTI I POPOLI', 1);
  ids['slip'] = await wall('LIBERTÀ PER TUTTI I POPDLI', 2);
  ids['missing'] = await wall('LIBERTA PER TUTTI I POPLI', 3);
  ids['partial'] = await wall('I POPOLI', 4);
  ids['other'] = await wall('FORZA RAGAZZI', 5);
  // Pending: its document never exists, and it must never show.
  const pending = await uploadImage(t.app, writer, { title: 'popdli in attesa' });
  ids['pending'] = pending.id_image;
});
afterAll(() => t.close());

describe('GET /api/search, fallback', () => {
  it('finds a word read with one slip, after the strict match', async () => {
    // 'popoli' / OCR 'popdli' and 'popli': one slip each. The two strict readings first (in
    // the engine's order of relevance), then the slips, newest first.
    const popolo = await found('popolo');
    expect(new Set(popolo.slice(0, 2))).toEqual(new Set([ids['strict'], ids['partial']]));
    expect(popolo.slice(2)).toEqual([ids['missing'], ids['slip']]);
    expect(await found('popdli')).toEqual([
      ids['slip'],
      ids['partial'],
      ids['missing'],
      ids['strict'],
    ]);
    expect(await found('popolo', '&order=newest')).toEqual([
      ids['partial'],
      ids['strict'],
      ids['missing'],
      ids['slip'],
    ]);
  });

  it('ranks every word whole, then every word with slips, then some of the words', async () => {
    expect(await found('liberta popolo')).toEqual([
      ids['strict'],
      ids['missing'],
      ids['slip'],
      ids['partial'],
    ]);
  });

  it('counts strict and looser matches in one total and pages over them', async () => {
    const first = await get('/api/search?query=liberta%20popolo&limit=2');
    expect(first.status).toBe(200);
    expect(first.body.total).toBe(4);
    expect(first.body.images.map((image) => image.id_image)).toEqual([
      ids['strict'],
      ids['missing'],
    ]);
    const second = await get('/api/search?query=liberta%20popolo&skip=2&limit=2');
    expect(second.body.total).toBe(4);
    expect(second.body.images.map((image) => image.id_image)).toEqual([
      ids['slip'],
      ids['partial'],
    ]);
    const past = await get('/api/search?query=liberta%20popolo&skip=40&limit=2');
    expect(past.body).toMatchObject({ images: [], total: 4 });
  });

  it('finds nothing for unrelated words, and never a pending image', async () => {
    expect(await found('ombrellone')).toEqual([]);
    expect(await found('popdli attesa')).not.toContain(ids['pending']);
    expect(await found('ragazzo')).toEqual([ids['other']]);
    // 'forza' has five letters: one slip; 'forze' is that slip.
    expect(await found('forze')).toEqual([ids['other']]);
  });

  it('refuses bad inputs with a 400 in Italian and survives odd ones', async () => {
    for (const url of ['/api/search?query=%20', '/api/search']) {
      const { status, body } = await get(url);
      expect(status, url).toBe(400);
      expect(body, url).toEqual({ detail: 'Inserisci un testo da cercare.' });
    }
    const signs = await get('/api/search?query=%22%2A%22');
    expect(signs.status).toBe(200);
    expect(signs.body).toMatchObject({ images: [], total: 0 });
    const long = await get(`/api/search?query=${'a'.repeat(201)}`);
    expect(long.status).toBe(400);
    expect(long.body).toEqual({ detail: 'La ricerca può contenere al massimo 200 caratteri.' });
    for (const extra of ['&skip=-1', '&limit=0', '&limit=abc', '&order=fuzzy']) {
      const { status, body } = await get(`/api/search?query=popoli${extra}`);
      expect(status, extra).toBe(400);
      expect(typeof body.detail, extra).toBe('string');
    }
    // Many words, long words, words of other scripts and syntax: answered, never an error.
    for (const query of [
      'popoli '.repeat(28),
      'a b c d e f g h i j k l m n o p q r s t u v w x y z',
      'x'.repeat(64),
      'pòpolì libertà!!! "OR" NEAR(*)',
      'привет мир',
      "popdli'; DROP TABLE search_vocabulary; --",
    ]) {
      const { status, body } = await get(`/api/search?query=${encodeURIComponent(query)}`);
      expect(status, query).toBe(200);
      expect(body.images.length, query).toBeLessThanOrEqual(body.total);
    }
    expect(await found('popolo')).toHaveLength(4);
  });

  it('limits a page to 120 images, as the app asks', async () => {
    const { status, body } = await get('/api/search?query=popolo&limit=500');
    expect(status).toBe(200);
    expect(body.images).toHaveLength(4);
  });
});

describe('GET /api/search, fallback and Italian function words', () => {
  it('does not take a photo holding only an article or a preposition of the query', async () => {
    const muro = await wall('IL MURO CADRÀ', 10);
    const bianco = await wall('MURO BIANCO', 11);
    // Only 'il' of 'il muro': half of the words, but nothing a visitor looked for.
    const tempo = await wall('IL TEMPO PASSA', 12);
    const citta = await wall('LA CITTÀ È NOSTRA', 13);
    const vecchia = await wall('CITTA VECCHIA', 14);
    const notte = await wall('LA NOTTE', 15);
    const berlino = await wall('BERLINO EST', 16);
    const casa = await wall('LA CASA DI TUTTI', 17);

    const ilMuro = await get(`/api/search?query=${encodeURIComponent('il muro')}`);
    expect(ilMuro.body.images.map((image) => image.id_image)).toEqual([muro, bianco]);
    expect(ilMuro.body.total).toBe(2);
    expect(await found('la città')).toEqual([citta, vecchia]);
    expect(await found('la città', '&order=newest')).toEqual([citta, vecchia]);
    // Two words a visitor meant and one 'di': a photo holding one of the two is a partial
    // match, one holding only 'di' is not.
    const muroDiBerlino = await found('muro di berlino');
    expect(new Set(muroDiBerlino)).toEqual(new Set([muro, bianco, berlino]));
    expect(muroDiBerlino).not.toContain(casa);
    // A query of function words alone still finds the photos holding them.
    expect(await found('la')).toEqual(expect.arrayContaining([citta, notte, casa]));
    expect(await found('la di')).toEqual(expect.arrayContaining([casa, citta, notte]));
    expect(await found('il muro')).not.toContain(tempo);
  });
});

describe('GET /api/search, apostrophes', () => {
  it('parts words at an apostrophe typed as a modifier letter, as at the others', async () => {
    // U+02BC (ʼ), the apostrophe some keyboards and converters give, is a letter to Unicode: it
    // glued 'sullʼasfalto' into one word that neither 'asfalto' nor "sull'asfalto" found.
    const modifier = await publishedImage(t.app, writer, { title: 'Scritto sull\u02BCasfalto' });
    const turned = await publishedImage(t.app, writer, { title: 'Specchio dell\u02BBanima' });
    const typographic = await publishedImage(t.app, writer, { title: 'Un\u2019estate al mare' });
    expect(await found('asfalto')).toEqual([modifier.id_image]);
    expect(await found("sull'asfalto")).toEqual([modifier.id_image]);
    expect(await found('sull\u2019asfalto')).toEqual([modifier.id_image]);
    expect(await found('anima')).toEqual([turned.id_image]);
    // Typed so in the query too.
    expect(await found('un\u02BCestate')).toEqual([typographic.id_image]);
  });
});

describe('the vocabulary migration', () => {
  it('fills the vocabulary of a database whose documents were indexed before it', async () => {
    const db = t.app.ctx.database.db;
    // As before the migration: documents indexed, no vocabulary table.
    await vocabularyMigration.down(db);
    await vocabularyMigration.up(db);
    const rows = await db
      .selectFrom('search_vocabulary')
      .select(['variant', 'form', 'term'])
      .where('term', '=', 'popol')
      .orderBy('variant')
      .execute();
    // The index's stems, each under itself and its one-letter deletions: the same keys as
    // the writers' (the migration keeps its own copy of the rule).
    expect(rows).toEqual(
      deletionKeys('popol')
        .sort((x, y) => (x < y ? -1 : x > y ? 1 : 0))
        .map((variant) => ({ variant, form: 'popol', term: 'popol' })),
    );
    // Stems shorter than four letters have no keys; a pending image's words are not there.
    const attesa = await db
      .selectFrom('search_vocabulary')
      .select('term')
      .where('term', '=', 'attes')
      .execute();
    expect(attesa).toEqual([]);
    // The fallback works on it at once, and writers add to it as before.
    t.app.publicCache.clear();
    expect(await found('popdlo')).toEqual(
      expect.arrayContaining([ids['strict'], ids['partial'], ids['missing']]),
    );
    const added = await wall('UN MONDO DIVERSO', 6);
    expect(await found('diversi mondi')).toEqual([added]);
    expect(await found('divesro')).toEqual([added]);
  });
});
