import { createRequire } from 'node:module';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers/app.js';
import { createUser } from './helpers/factories.js';
import { approve, uploadImage } from './helpers/images.js';

const require = createRequire(import.meta.url);
const oswald = require.resolve('@expo-google-fonts/oswald/400Regular/Oswald_400Regular.ttf');

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

/** A light wall with dark writing: what the OCR job must read. */
async function writing(text: string): Promise<Buffer> {
  const letters = await sharp({
    text: {
      text: `<span foreground="#1a1a1a">${text}</span>`,
      font: 'Oswald 90',
      fontfile: oswald,
      rgba: true,
    },
  })
    .png()
    .toBuffer();
  return sharp({ create: { width: 1400, height: 700, channels: 3, background: '#e8e0d0' } })
    .composite([{ input: letters, gravity: 'center' }])
    .jpeg()
    .toBuffer();
}

describe('upload → analysis job → search', () => {
  it('reads the text on the wall after upload and makes it searchable once approved', async () => {
    const user = await createUser(t.app);
    const { id_image } = await uploadImage(t.app, user, {
      title: 'foto del muro',
      bytes: await writing('NON MOLLARE MAI'),
    });
    const queued = await t.app.ctx.database.db
      .selectFrom('jobs')
      .select(['name', 'status'])
      .execute();
    // The full size first (issue 8, goal 6): the analysis reads that file, and is queued by
    // its job once the file exists.
    expect(queued).toEqual([{ name: 'image.full-size', status: 'queued' }]);

    expect(await t.app.ctx.jobs.runUntilIdle()).toBe(2);
    const ran = await t.app.ctx.database.db
      .selectFrom('jobs')
      .select(['name', 'status'])
      .orderBy('id_job')
      .execute();
    expect(ran).toEqual([
      { name: 'image.full-size', status: 'done' },
      { name: 'image.analyse', status: 'done' },
    ]);
    const analysed = await t.app.ctx.database.db
      .selectFrom('images')
      .select(['text_folded', 'phash', 'ocr_alternates'])
      .where('id_image', '=', id_image)
      .executeTakeFirstOrThrow();
    expect(analysed.text_folded).toContain('mollare');
    expect(analysed.phash).toMatch(/^[0-9a-f]{16}$/);
    // Stored through the reading process, never a word the text already holds.
    expect(analysed.ocr_alternates).toEqual(expect.any(String));
    for (const word of analysed.ocr_alternates?.split(' ').filter(Boolean) ?? []) {
      expect(analysed.text_folded?.split(' ')).not.toContain(word);
    }

    await approve(t.app, id_image);
    const found = await t.app.inject({ method: 'GET', url: '/api/search?query=mollare' });
    expect(found.json().images.map((image: { id_image: number }) => image.id_image)).toEqual([
      id_image,
    ]);
  });
});

describe('the analysis of pictures of unusual shapes', () => {
  it.each([
    // 2048×100 once stored: its short side is below the evened look's tile (2048 / 18).
    ['a long banner', 4000, 195],
    ['a tall strip', 60, 3000],
    ['a single pixel', 1, 1],
  ])('reads %s to its end: text and hash stored, no job failed', async (_, width, height) => {
    const user = await createUser(t.app);
    const bytes = await sharp({
      create: { width, height, channels: 3, background: '#e8e0d0' },
    })
      .jpeg()
      .toBuffer();
    const { id_image } = await uploadImage(t.app, user, { bytes });
    await t.app.ctx.jobs.runUntilIdle();
    const jobs = await t.app.ctx.database.db
      .selectFrom('jobs')
      .select(['name', 'status', 'last_error'])
      .where('status', '!=', 'done')
      .execute();
    expect(jobs).toEqual([]);
    const analysed = await t.app.ctx.database.db
      .selectFrom('images')
      .select(['text_folded', 'phash'])
      .where('id_image', '=', id_image)
      .executeTakeFirstOrThrow();
    expect(analysed.phash).toMatch(/^[0-9a-f]{16}$/);
    expect(analysed.text_folded).toEqual(expect.any(String));
  });
});
