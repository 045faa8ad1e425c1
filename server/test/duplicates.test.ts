import { createRequire } from 'node:module';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { perceptualHash } from '../src/jobs/image-analysis/phash.js';
import { foldText } from '../src/lib/text.js';
import { textCandidatesOfMany } from '../src/modules/duplicates/duplicates.repository.js';
import {
  matchedLetters,
  readInPart,
  signatureOf,
} from '../src/modules/duplicates/duplicates.signature.js';
import { buildTestApp, TEST_ADMIN, type TestApp } from './helpers/app.js';
import { bearer, createUser, login, type TestUser } from './helpers/factories.js';
import { approve, createCategory, uploadImage } from './helpers/images.js';

/*
 * The duplicate finder (D7) and the moderation hints (issue 4) through the real app and
 * database. Real OCR runs only twice (about a second each): the two styled pictures of one
 * writing. The precise cases set the analysis (text and hash) directly and call the indexer,
 * exactly as the analysis job does after OCR.
 *
 * Speed at scale is checked by src/modules/duplicates/speed-check.ts (20,000 synthetic images),
 * not here, so this file stays quick on a shared machine.
 */

const require = createRequire(import.meta.url);
const FONTS = {
  oswald: require.resolve('@expo-google-fonts/oswald/400Regular/Oswald_400Regular.ttf'),
  elite: require.resolve('@expo-google-fonts/special-elite/400Regular/SpecialElite_400Regular.ttf'),
};

interface GroupImage {
  id_image: number;
  titolo_img: string | null;
  filename: string;
  status: string;
  user: { username: string };
  created_at: string;
  stats: { likes: number; downloads: number };
  size: number;
  width: number;
  height: number;
  thumbnail_url: string;
  image_url: string;
}
interface Group {
  count: number;
  testo_estratto: string;
  kind: 'text' | 'visual';
  images: GroupImage[];
}

let t: TestApp;
let adminToken: string;
let user: TestUser;

beforeAll(async () => {
  t = await buildTestApp();
  const response = await login(t.app, TEST_ADMIN.username, TEST_ADMIN.password);
  adminToken = response.json<{ access_token: string }>().access_token;
  user = await createUser(t.app);
});
afterAll(() => t.close());

/** A writing on a wall in a given style: what the OCR job must read. */
async function writing(
  text: string,
  style: { font: string; file: string; ink: string; wall: string; width: number; height: number },
): Promise<Buffer> {
  const letters = await sharp({
    text: {
      text: `<span foreground="${style.ink}">${text}</span>`,
      font: style.font,
      fontfile: style.file,
      rgba: true,
    },
  })
    .png()
    .toBuffer();
  return sharp({
    create: { width: style.width, height: style.height, channels: 3, background: style.wall },
  })
    .composite([{ input: letters, gravity: 'center' }])
    .jpeg()
    .toBuffer();
}

/**
 * Drops the jobs of an upload: its full-size job and the analysis that one would queue, so the
 * test sets the analysis itself.
 */
async function dropJobs(image: { id_image: number; filename: string }): Promise<void> {
  await t.app.ctx.database.db
    .deleteFrom('jobs')
    .where('payload', 'in', [
      JSON.stringify({ id_image: image.id_image }),
      JSON.stringify({ id_image: image.id_image, filename: image.filename }),
    ])
    .execute();
}

/** An uploaded (pending) image whose jobs are dropped: the test sets the analysis. */
async function quietUpload(title: string, bytes?: Buffer): Promise<number> {
  const uploaded = await uploadImage(t.app, user, {
    title,
    ...(bytes === undefined ? {} : { bytes }),
  });
  await dropJobs(uploaded);
  return uploaded.id_image;
}

let hashSeed = 1;
/** A 64-bit hash far (about 32 bits) from every other one made here. */
/** `hash` with its first `bits` bits flipped: a picture that many bits away. */
function flipBits(hash: string, bits: number): string {
  const mask = (1n << BigInt(bits)) - 1n;
  return (BigInt(`0x${hash}`) ^ mask).toString(16).padStart(16, '0');
}

function randomHash(): string {
  let value = 0n;
  for (let i = 0; i < 4; i += 1) {
    hashSeed = (Math.imul(hashSeed, 1103515245) + 12345) >>> 0;
    value = (value << 16n) | BigInt(hashSeed >>> 16);
  }
  return value.toString(16).padStart(16, '0');
}

/** What the analysis job stores, then the indexing it does. */
async function analysed(
  id: number,
  text: string,
  phash: string | null = randomHash(),
  ocr_confidence: number | null = null,
) {
  await t.app.ctx.database.db
    .updateTable('images')
    .set({ extracted_text: text, text_folded: foldText(text), phash, ocr_confidence })
    .where('id_image', '=', id)
    .execute();
  await t.app.ctx.duplicates.indexImage(id);
}

async function image(
  title: string,
  text: string,
  phash?: string | null,
  confidence: number | null = null,
): Promise<number> {
  const id = await quietUpload(title);
  await analysed(id, text, phash, confidence);
  return id;
}

async function groups(): Promise<Group[]> {
  const response = await t.app.inject({
    method: 'GET',
    url: '/api/admin/duplicate-images',
    headers: bearer(adminToken),
  });
  expect(response.statusCode).toBe(200);
  return response.json<Group[]>();
}

/** The group holding `id`, as ids sorted; undefined when the image is in no group. */
async function groupOf(id: number): Promise<number[] | undefined> {
  const group = (await groups()).find((g) => g.images.some((i) => i.id_image === id));
  return group?.images.map((i) => i.id_image).sort((a, b) => a - b);
}

describe('access', () => {
  it('answers 401 without a token and 403 to a non-administrator, changing nothing', async () => {
    const id = await image('accesso', 'questo muro parla ancora');
    const copy = await image('accesso 2', 'questo muro parla ancora');
    const calls = [
      { method: 'GET' as const, url: '/api/admin/duplicate-images' },
      { method: 'GET' as const, url: '/api/admin/duplicate-images/analysis' },
      { method: 'DELETE' as const, url: `/api/admin/duplicate-images/${id}` },
      {
        method: 'POST' as const,
        url: '/api/admin/duplicate-images/dismiss',
        payload: { image_ids: [id, copy] },
      },
    ];
    for (const call of calls) {
      const anonymous = await t.app.inject(call);
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toHaveProperty('detail');
      const normal = await t.app.inject({ ...call, headers: bearer(user.token) });
      expect(normal.statusCode).toBe(403);
      expect(normal.json()).toEqual({ detail: 'Non hai i permessi per accedere a questa pagina.' });
    }
    expect(await groupOf(id)).toEqual([id, copy]);
  });
});

describe('analysis progress', () => {
  async function progress(): Promise<unknown> {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/admin/duplicate-images/analysis',
      headers: bearer(adminToken),
    });
    expect(response.statusCode).toBe(200);
    return response.json();
  }

  it('counts the images still to be read, so an empty list is told from a pending one', async () => {
    // The uploads above had their jobs dropped: nothing is being read.
    expect(await progress()).toEqual({ images_to_analyse: 0 });
    const first = await uploadImage(t.app, user, { title: 'da leggere 1' });
    const second = await uploadImage(t.app, user, { title: 'da leggere 2' });
    // Neither is read yet, so neither can be in a group.
    expect(await progress()).toEqual({ images_to_analyse: 2 });
    expect(await groupOf(first.id_image)).toBeUndefined();

    // A photo whose job failed for good is awaited no more: nothing will read it.
    await t.app.ctx.database.db
      .updateTable('jobs')
      .set({ status: 'failed' })
      .where(
        'payload',
        '=',
        JSON.stringify({ id_image: second.id_image, filename: second.filename }),
      )
      .execute();
    expect(await progress()).toEqual({ images_to_analyse: 1 });

    // Its full size, then its analysis (queued by the first in its transaction): counted
    // until both have run.
    expect(await t.app.ctx.jobs.runUntilIdle()).toBe(2);
    expect(await progress()).toEqual({ images_to_analyse: 0 });
  });
});

describe('grouping', () => {
  it('puts two pictures of the same writing in different styles in one group (real OCR)', async () => {
    const text = 'Pensa con la tua testa';
    const first = await uploadImage(t.app, user, {
      title: 'muro chiaro',
      bytes: await writing(text.toUpperCase(), {
        font: 'Oswald 80',
        file: FONTS.oswald,
        ink: '#1a1a1a',
        wall: '#e8e0d0',
        width: 1400,
        height: 700,
      }),
    });
    const second = await uploadImage(t.app, user, {
      title: 'muro blu',
      bytes: await writing(text, {
        font: 'Special Elite 64',
        file: FONTS.elite,
        ink: '#f4f4f4',
        wall: '#203050',
        width: 1300,
        height: 800,
      }),
    });
    // Each: its full size, then its analysis.
    expect(await t.app.ctx.jobs.runUntilIdle()).toBe(4);

    const group = (await groups()).find((g) => g.images.some((i) => i.id_image === first.id_image));
    expect(group?.images.map((i) => i.id_image).sort((a, b) => a - b)).toEqual([
      first.id_image,
      second.id_image,
    ]);
    expect(group?.kind).toBe('text');
    expect(group?.count).toBe(2);
    expect(foldText(group?.testo_estratto ?? '')).toBe('pensa con la tua testa');
    const card = group?.images.find((i) => i.id_image === second.id_image);
    expect(card).toMatchObject({
      titolo_img: 'muro blu',
      filename: second.filename,
      status: 'pending',
      user: { username: user.username },
      stats: { likes: 0, downloads: 0 },
      width: 1300,
      height: 800,
    });
    expect(card?.size).toBeGreaterThan(0);
    // Pending files are private: the thumbnail URL is signed, and it works.
    expect(card?.thumbnail_url).toMatch(/^\/api\/images\/\d+\/thumbnail\?exp=\d+&u=\d+&sig=/);
    const thumbnail = await t.app.inject({ method: 'GET', url: card?.thumbnail_url ?? '' });
    expect(thumbnail.statusCode).toBe(200);
  });

  it('keeps an OCR slip of one letter in the group', async () => {
    const a = await image('slip a', 'Non mollare mai');
    const b = await image('slip b', 'NON MOLLAVE MAI');
    const c = await image('slip c', 'non molare mai');
    expect(await groupOf(a)).toEqual([a, b, c]);
    // Also in the shortest usable text (8 letters), where a slip weighs most.
    const d = await image('corto d', 'Amo Parma');
    const e = await image('corto e', 'Amo Panma');
    expect(await groupOf(d)).toEqual([d, e]);
  });

  it('does not group different writings on the same wall', async () => {
    const wall = randomHash();
    const a = await image('stesso muro a', 'Forza Roma sempre', wall);
    const b = await image('stesso muro b', 'Forza Lazio sempre', wall);
    const c = await image('stesso muro c', 'Ciao nonna ci manchi', wall);
    const d = await image('stesso muro d', 'Ciao Dani ci manchi', wall);
    for (const id of [a, b, c, d]) expect(await groupOf(id)).toBeUndefined();
  });

  it('lets a close hash group two unsure readings that agree loosely, never confident ones', async () => {
    // Two photos of one writing, both misread by the OCR (confidence 55): 0.67 similar, under
    // the text threshold, but the pictures are the same.
    const wall = randomHash();
    const a = await image('incerta a', 'Torno a casa stasera', wall, 55);
    const b = await image('incerta b', 'Tomo a cesa stasena xx', wall, 55);
    expect(await groupOf(a)).toEqual([a, b]);
    // Texts as far apart read confidently stay apart: confident readings that differ are
    // different writings, however alike the walls.
    const other = randomHash();
    const c = await image('sicura c', 'Le stelle non chiedono', other, 90);
    const d = await image('sicura d', 'Le steIIe mom chiedomo zz', other, 90);
    expect(await groupOf(c)).toBeUndefined();
    expect(await groupOf(d)).toBeUndefined();
    // Unsure readings of clearly different texts do not group either.
    const third = randomHash();
    const e = await image('diversa e', 'Basta guerre nel mondo', third, 50);
    const f = await image('diversa f', 'Mi manchi ogni giorno', third, 50);
    expect(await groupOf(e)).toBeUndefined();
    expect(await groupOf(f)).toBeUndefined();
  });

  it('groups a confident reading that missed words with the whole one, if the pictures look alike', async () => {
    const wall = randomHash();
    // 13 bits from `wall`: within the missed-words distance (14), beyond the plain one (10).
    const nearby = flipBits(wall, 13);
    const whole = await image('parziale a', 'CREDI IN TE IL CIELO È DI TUTTI', wall, 91);
    const part = await image('parziale b', 'crei il cielo e di tutti', nearby, 90);
    expect(await groupOf(whole)).toEqual([whole, part]);
    // A reading in part of a picture that does not look alike (26 and 20 bits) stays apart.
    const far = randomHash();
    const c = await image('parziale c', 'nonno sei sempre con noi', far, 88);
    const d = await image('parziale d', 'nonno con', flipBits(far, 26), 88);
    const e = await image('parziale e', 'NONNO SEMPRE CON NOI', flipBits(far, 6), 87);
    expect(await groupOf(c)).toEqual([c, e]);
    expect(await groupOf(d)).toBeUndefined();
    // A word replaced in a short writing is another writing, however alike the pictures.
    const same = randomHash();
    const f = await image('parziale f', 'Viva la Juve per sempre', same, 90);
    const g = await image('parziale g', 'Viva il Toro per sempre', flipBits(same, 3), 90);
    expect(await groupOf(f)).toBeUndefined();
    expect(await groupOf(g)).toBeUndefined();
  });

  it('keeps a writing apart from a longer one that begins with it, unless the pictures look alike', async () => {
    // 'Votate con la testa La scuola siamo noi' read as its first words is 0.89 alike to the
    // writing 'Votate con la testa': two letters more is as much as a word, so the pictures
    // decide, and 28 bits apart they are other pictures.
    const far = randomHash();
    const a = await image('prefisso a', 'Votate con la testa', far, 92);
    const b = await image('prefisso b', 'votate con la testa la', flipBits(far, 28), 90);
    expect(await groupOf(a)).toBeUndefined();
    expect(await groupOf(b)).toBeUndefined();
    // A photo that lost a few letters of the same writing, 18 bits away (a crop): not clearly
    // another picture, so it groups.
    const near = randomHash();
    const c = await image('prefisso c', 'Viola per sempre', near, 91);
    const d = await image('prefisso d', 'ola per sempre', flipBits(near, 18), 89);
    expect(await groupOf(c)).toEqual([c, d]);
  });

  it('measures a reading in part word by word', () => {
    const words = (text: string) =>
      signatureOf({ id_image: 1, text_folded: foldText(text), phash: null }).words;
    expect(
      matchedLetters(words('credi in te il cielo è di tutti'), words('crei il cielo e di tutti')),
    ).toBe(4 + 5 + 5);
    expect(
      readInPart(words('credi in te il cielo è di tutti'), words('crei il cielo e di tutti')),
    ).toBe(true);
    expect(readInPart(words('nonno sei sempre con noi'), words('nonno sempre con noi'))).toBe(true);
    // Every word matched, but too few letters to say anything (D7: 8 letters).
    expect(readInPart(words('urla più forte'), words('pi forte'))).toBe(false);
    // One word replaced: 'roma' is unmatched in the shorter reading, 11 of 15 letters.
    expect(readInPart(words('forza roma sempre'), words('forza lazio sempre'))).toBe(false);
    expect(readInPart(words('ciao nonna ci manchi'), words('ciao dani ci manchi'))).toBe(false);
    // The order counts: the same words shuffled are not a reading in part.
    expect(readInPart(words('sempre mare cielo'), words('cielo mare sempre'))).toBe(false);
  });

  it('ignores texts shorter than 8 letters', async () => {
    const a = await image('breve a', 'Ti amo!');
    const b = await image('breve b', 'TI AMO');
    expect(await groupOf(a)).toBeUndefined();
    expect(await groupOf(b)).toBeUndefined();
  });

  it('groups visually identical pictures without text by their hash', async () => {
    const photo = await sharp({
      create: { width: 640, height: 480, channels: 3, background: '#808080' },
    })
      .composite([
        {
          input: await sharp({
            create: { width: 300, height: 200, channels: 3, background: '#202020' },
          })
            .png()
            .toBuffer(),
          left: 60,
          top: 40,
        },
        {
          input: await sharp({
            create: { width: 200, height: 300, channels: 3, background: '#f0f0f0' },
          })
            .png()
            .toBuffer(),
          left: 400,
          top: 150,
        },
      ])
      .jpeg({ quality: 90 })
      .toBuffer();
    const copy = await sharp(photo).resize(320).jpeg({ quality: 60 }).toBuffer();
    const a = await quietUpload('senza testo a', photo);
    const b = await quietUpload('senza testo b', copy);
    await analysed(a, '', await perceptualHash(photo));
    await analysed(b, '', await perceptualHash(copy));
    const group = (await groups()).find((g) => g.images.some((i) => i.id_image === a));
    expect(group?.images.map((i) => i.id_image).sort((x, y) => x - y)).toEqual([a, b]);
    expect(group?.kind).toBe('visual');
    expect(group?.testo_estratto).toBe('');
  });

  it('leaves rejected images out and lists the largest groups first', async () => {
    const a = await image('grande a', 'Siamo tutti antifascisti');
    const b = await image('grande b', 'Siamo tutti antifascisti');
    const c = await image('grande c', 'Siamo tutti antifascisti!');
    const list = await groups();
    const counts = list.map((g) => g.count);
    expect(counts).toEqual([...counts].sort((x, y) => y - x));
    expect(await groupOf(a)).toEqual([a, b, c]);

    await t.app.ctx.database.db
      .updateTable('images')
      .set({ status: 'rejected' })
      .where('id_image', '=', c)
      .execute();
    expect(await groupOf(a)).toEqual([a, b]);
  });
});

describe('dismissing and deleting', () => {
  it("hides a group marked 'Non sono duplicati' until a new image joins it", async () => {
    const a = await image('diverse a', 'Giuli e Fede sorelle per scelta');
    const b = await image('diverse b', 'Giuli e Fede, sorelle per scelta');
    expect(await groupOf(a)).toEqual([a, b]);

    const dismissed = await t.app.inject({
      method: 'POST',
      url: '/api/admin/duplicate-images/dismiss',
      headers: bearer(adminToken),
      payload: { image_ids: [b, a, b] },
    });
    expect(dismissed.statusCode).toBe(200);
    expect(dismissed.json()).toEqual({ ok: true, image_ids: [a, b] });
    expect(await groupOf(a)).toBeUndefined();

    // Dismissing again is harmless.
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/admin/duplicate-images/dismiss',
      headers: bearer(adminToken),
      payload: { image_ids: [a, b] },
    });
    expect(again.statusCode).toBe(200);

    const c = await image('diverse c', 'giuli e fede sorelle per scelte');
    expect(await groupOf(a)).toEqual([a, b, c]);
  });

  it('refuses a dismissal of fewer than two images, of unknown images or of unrelated ones', async () => {
    const a = await image('rifiuto a', 'Napoli campione d Italia');
    const unrelated = await image('rifiuto b', 'La luna sopra i tetti di Trastevere');
    expect(await groupOf(a)).toBeUndefined();
    const dismissals = () =>
      t.app.ctx.database.db.selectFrom('duplicate_dismissals').select('image_ids').execute();
    const before = await dismissals();
    const cases = [
      { payload: { image_ids: [a] }, status: 400 },
      { payload: { image_ids: [a, a] }, status: 400 },
      { payload: {}, status: 400 },
      { payload: { image_ids: [a, 'x'] }, status: 400 },
      { payload: { image_ids: [a, 999_999] }, status: 404 },
      // Kept, it would hide these two images' group before it ever formed.
      { payload: { image_ids: [a, unrelated] }, status: 400 },
    ];
    for (const { payload, status } of cases) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/admin/duplicate-images/dismiss',
        headers: bearer(adminToken),
        payload,
      });
      expect(response.statusCode).toBe(status);
      expect(typeof response.json<{ detail: string }>().detail).toBe('string');
    }
    expect(await dismissals()).toEqual(before);
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/admin/duplicate-images/dismiss',
      headers: bearer(adminToken),
      payload: { image_ids: [a, unrelated] },
    });
    expect(refused.json()).toEqual({
      detail:
        'Le immagini indicate non fanno parte di uno stesso gruppo di duplicati: ricarica l’elenco dei gruppi.',
    });
  });

  it('removes a deleted image from its group and drops a group left with one image', async () => {
    const a = await image('elimina a', 'Il rap e poesia di strada');
    const b = await image('elimina b', 'Il rap è poesia di strada');
    const c = await image('elimina c', 'Il rap e poesia di etrada');
    expect(await groupOf(a)).toEqual([a, b, c]);

    const del = (id: number) =>
      t.app.inject({
        method: 'DELETE',
        url: `/api/admin/duplicate-images/${id}`,
        headers: bearer(adminToken),
      });
    const first = await del(c);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ ok: true });
    expect(await groupOf(a)).toEqual([a, b]);
    const keys = await t.app.ctx.database.db
      .selectFrom('duplicate_text_keys')
      .select('bucket')
      .where('id_image', '=', c)
      .execute();
    expect(keys).toEqual([]);

    expect((await del(b)).statusCode).toBe(200);
    expect(await groupOf(a)).toBeUndefined();

    const unknown = await del(b);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ detail: 'Immagine non trovata' });
  });
});

describe('moderation hints', () => {
  it('lists an approved duplicate of a pending copy and suggests its category and tags', async () => {
    const calcio = await createCategory(t.app, 'messaggi_calcio');
    const original = await uploadImage(t.app, user, {
      title: 'curva',
      categoryId: calcio,
      tags: ['roma', 'curva'],
    });
    await dropJobs(original);
    await analysed(original.id_image, 'Curva Sud sempre presente');
    await approve(t.app, original.id_image);

    const copy = await image('copia', 'CURVA SUD SEMPRE PRESENTF');
    const hints = await t.app.ctx.duplicates.hintsForImage(copy);
    expect(hints.possible_duplicates).toEqual([
      {
        id_image: original.id_image,
        titolo_img: 'curva',
        thumbnail_url: `/api/images/${original.id_image}/thumbnail`,
        similarity: expect.any(Number) as number,
        kind: 'text',
      },
    ]);
    expect(hints.possible_duplicates[0]?.similarity).toBeGreaterThanOrEqual(0.9);
    expect(hints.suggested_category).toEqual({ id_categoria: calcio, nome: 'messaggi_calcio' });
    expect(hints.suggested_tags.map((tag) => tag.nome).sort()).toEqual(['curva', 'roma']);

    // A pending image is never offered as a duplicate: only approved ones are.
    const other = await image('altra copia', 'Curva Sud sempre presente');
    const more = await t.app.ctx.duplicates.hintsForImages([copy, other]);
    expect(more.get(other)?.possible_duplicates.map((d) => d.id_image)).toEqual([
      original.id_image,
    ]);
    expect(more.get(copy)?.possible_duplicates.map((d) => d.id_image)).toEqual([original.id_image]);

    // A long queue's neighbours are looked up a hundred images a statement: each image of
    // every statement gets its own.
    const keys = await t.app.ctx.database.db
      .selectFrom('duplicate_text_keys')
      .select('bucket')
      .where('id_image', '=', original.id_image)
      .execute();
    const queue = Array.from({ length: 250 }, (_, i) => ({
      id: 1_000_000 + i,
      keys: keys.map((row) => row.bucket),
    }));
    const neighbours = await textCandidatesOfMany(t.app.ctx.database.db, queue, {
      limit: 3,
      approvedOnly: true,
    });
    const alone = await textCandidatesOfMany(t.app.ctx.database.db, queue.slice(0, 1), {
      limit: 3,
      approvedOnly: true,
    });
    expect(alone.get(queue[0]?.id ?? 0)).toContain(original.id_image);
    expect([...neighbours.keys()]).toEqual(queue.map((source) => source.id));
    for (const found of neighbours.values()) expect(found).toEqual(alone.get(queue[0]?.id ?? 0));
  });

  it('suggests a category and tags named in the text when no similar image exists', async () => {
    const amore = await createCategory(t.app, 'messaggi_amore');
    const tagged = await image('con tag', 'Lisbona aspettami per sempre');
    await t.app.ctx.taxonomy.assignTags(tagged, ['Lisbona']);
    await approve(t.app, tagged);

    const pending = await image('nuova', "Amore mio, ti porterò a Lisbona d'estate");
    const hints = await t.app.ctx.duplicates.hintsForImage(pending);
    expect(hints.possible_duplicates).toEqual([]);
    expect(hints.suggested_category).toEqual({ id_categoria: amore, nome: 'messaggi_amore' });
    expect(hints.suggested_tags.map((tag) => tag.nome)).toContain('Lisbona');

    const blank = await image('vuota', '');
    expect(await t.app.ctx.duplicates.hintsForImage(blank)).toEqual({
      possible_duplicates: [],
      suggested_category: null,
      suggested_tags: [],
    });
    await expect(t.app.ctx.duplicates.hintsForImage(999_999)).rejects.toMatchObject({
      statusCode: 404,
    });
  });
});

describe('maintenance', () => {
  it('rebuilds the whole index with the same groups', async () => {
    const before = await groups();
    const result = await t.app.ctx.duplicates.reindexAll();
    expect(result.images).toBeGreaterThan(10);
    const after = await groups();
    const shape = (list: Group[]) =>
      list
        .map((g) =>
          g.images
            .map((i) => i.id_image)
            .sort((a, b) => a - b)
            .join(','),
        )
        .sort();
    expect(shape(after)).toEqual(shape(before));
  });
});

/*
 * Speed check, skipped unless asked for:
 *   DUPLICATES_SPEED_CHECK=20000 npx vitest run test/duplicates.test.ts -t speed
 * Adds that many synthetic analysed images (texts of 2–7 words from a small vocabulary, so
 * buckets are more crowded than with real texts; one in ten a copy of an earlier text with up
 * to two letter slips; one in ten without text, some of them near copies by hash), then times
 * the bulk re-index, the indexing of single new images (what the analysis job does) and the
 * group listing, and measures how many planted copies were found.
 */
const SPEED_CHECK = Number(process.env['DUPLICATES_SPEED_CHECK'] ?? 0);

describe.runIf(SPEED_CHECK > 0)('speed', () => {
  const WORDS = (
    'amore cuore sempre per non mollare mai forza roma lazio napoli juve curva sud ' +
    'ti amo giulia marco sara luca chiara vita bella mare sole notte luna stelle cielo ' +
    'scuola pubblica tutti libera liberi pace guerra lavoro casa affitti studenti strada ' +
    'muro parla citta quartiere resistenza antifa viva abbasso governo sogni speranza ' +
    'domani altro giorno pensa testa tua mia mio nostro vostro ciao nonna manchi sei ' +
    'tutto niente nessuno ancora adesso qui ora basta voglio vogliamo siamo stanchi ' +
    'felici insieme fratelli sorelle amici poesia rap musica arte colore grigio nero ' +
    'rosso verde bianco azzurro primavera estate inverno autunno tempo ricordo'
  ).split(' ');

  it('indexes, verifies and lists groups fast at scale', { timeout: 1_800_000 }, async () => {
    const db = t.app.ctx.database.db;
    let seed = 12345;
    const random = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
    const slip = (text: string): string => {
      const at = 1 + Math.floor(random() * (text.length - 2));
      const letter = pick('abcdefghilmnopqrstuvz'.split(''));
      return text.slice(0, at) + letter + text.slice(at + 1);
    };
    const hash = () => randomHash();
    const flip = (value: string, bits: number) => {
      let n = BigInt(`0x${value}`);
      for (let i = 0; i < bits; i += 1) n ^= 1n << BigInt(Math.floor(random() * 64));
      return n.toString(16).padStart(16, '0');
    };

    const texts: string[] = [];
    const hashes: string[] = [];
    const planted: Array<[number, number]> = [];
    const rows = [];
    const now = new Date().toISOString();
    for (let i = 0; i < SPEED_CHECK; i += 1) {
      let text: string;
      let phash = hash();
      const roll = random();
      if (roll < 0.1 && i > 0) {
        const source = Math.floor(random() * i);
        text = texts[source] ?? '';
        if (text !== '') {
          for (let k = Math.floor(random() * 3); k > 0; k -= 1) text = slip(text);
          planted.push([source, i]);
        } else {
          phash = flip(hashes[source] ?? hash(), Math.floor(random() * 5));
          planted.push([source, i]);
        }
      } else if (roll < 0.2) {
        text = '';
      } else {
        text = Array.from({ length: 2 + Math.floor(random() * 6) }, () => pick(WORDS)).join(' ');
      }
      texts.push(text);
      hashes.push(phash);
      rows.push({
        filename: `speed${i}.webp`,
        titolo_img: `sintetica ${i}`,
        id_utente: user.id,
        id_categoria: 1,
        status: random() < 0.9 ? ('approved' as const) : ('pending' as const),
        mime_type: 'image/webp',
        size_bytes: 1000,
        width: 100,
        height: 100,
        extracted_text: text,
        text_folded: text,
        phash,
        created_at: now,
      });
    }
    const ids: number[] = [];
    for (let i = 0; i < rows.length; i += 500) {
      const inserted = await db
        .insertInto('images')
        .values(rows.slice(i, i + 500))
        .returning('id_image')
        .execute();
      ids.push(...inserted.map((row) => row.id_image));
    }

    let started = performance.now();
    const result = await t.app.ctx.duplicates.reindexAll();
    const bulkMs = performance.now() - started;

    // Single images, as the analysis job indexes them: 50 new copies of random earlier texts.
    const single: number[] = [];
    for (let k = 0; k < 50; k += 1) {
      const source = Math.floor(random() * SPEED_CHECK);
      const id = await quietUpload(`nuova ${k}`);
      const text = texts[source] === '' ? '' : slip(texts[source] ?? '');
      await db
        .updateTable('images')
        .set({ extracted_text: text, text_folded: text, phash: flip(hashes[source] ?? '', 2) })
        .where('id_image', '=', id)
        .execute();
      started = performance.now();
      await t.app.ctx.duplicates.indexImage(id);
      single.push(performance.now() - started);
    }

    const listMs: number[] = [];
    let list: Group[] = [];
    for (let k = 0; k < 3; k += 1) {
      started = performance.now();
      list = await groups();
      listMs.push(performance.now() - started);
    }

    const groupOfId = new Map<number, number>();
    list.forEach((g, n) => {
      for (const i of g.images) groupOfId.set(i.id_image, n);
    });
    const shouldGroup = planted.filter(([a, b]) => {
      const [ta, tb] = [texts[a] ?? '', texts[b] ?? ''];
      if (ta === '') return true;
      const letters = ta.replaceAll(' ', '').length;
      const distance = ta.split('').filter((c, i) => c !== tb[i]).length;
      return letters >= 8 && 1 - distance / letters >= 0.8;
    });
    const found = shouldGroup.filter(([a, b]) => {
      const ga = groupOfId.get(ids[a] ?? 0);
      return ga !== undefined && ga === groupOfId.get(ids[b] ?? 0);
    });
    const missed = shouldGroup
      .filter((pair) => !found.includes(pair))
      .map(([a, b]) => `'${texts[a] ?? ''}' / '${texts[b] ?? ''}'`);
    const pairs = await db
      .selectFrom('duplicate_pairs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];
    console.log(
      `[speed] ${SPEED_CHECK} synthetic images: bulk re-index ${Math.round(bulkMs)} ms ` +
        `(${result.images} images, ${result.pairs} pairs, ${pairs.n} stored); ` +
        `indexImage median ${median(single)?.toFixed(1)} ms, max ${Math.max(...single).toFixed(1)} ms; ` +
        `GET /api/admin/duplicate-images ${listMs.map((ms) => Math.round(ms)).join('/')} ms ` +
        `for ${list.length} groups; planted copies found ${found.length}/${shouldGroup.length}` +
        (missed.length > 0 ? ` (missed: ${missed.join(', ')})` : ''),
    );
    expect(found.length / shouldGroup.length).toBeGreaterThan(0.99);
  });
});
