import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processAllSizes } from '../src/lib/imaging.js';
import { sweepOrphanFiles } from '../src/modules/images/images.sweeper.js';
import { buildTestApp, TEST_ADMIN, type TestApp } from './helpers/app.js';
import { bearer, createUser, login, type TestUser } from './helpers/factories.js';
import { jpegBytes, uploadImage } from './helpers/images.js';

/*
 * Issue 8, goal 6: an upload is answered once its display size, thumbnail and placeholder
 * exist; the full-size file is made after the answer by a job, from the decoded pixels the
 * upload kept (images/pixels/), and only then is the image analysed. Until it exists the
 * full-size URL serves the display size, uncached.
 */

let t: TestApp;
let user: TestUser;
let adminToken: string;
beforeAll(async () => {
  t = await buildTestApp();
  user = await createUser(t.app);
  adminToken = (await login(t.app, TEST_ADMIN.username, TEST_ADMIN.password)).json().access_token;
});
afterAll(() => t.close());

const root = () => path.join(t.config.dataDir, 'images');
const fullPath = (filename: string) => path.join(root(), filename);
const displayPath = (filename: string) => path.join(root(), 'display', filename);
const pixelsPath = (filename: string) =>
  path.join(root(), 'pixels', filename.replace(/\.webp$/, '.rgb'));
const exists = (file: string) =>
  fs.access(file).then(
    () => true,
    () => false,
  );

async function jobs(): Promise<Array<{ name: string; status: string }>> {
  return t.app.ctx.database.db
    .selectFrom('jobs')
    .select(['name', 'status'])
    .orderBy('id_job')
    .execute();
}

async function clearJobs(): Promise<void> {
  await t.app.ctx.jobs.runUntilIdle();
  await t.app.ctx.database.db.deleteFrom('jobs').execute();
}

/** The uploader's own view of an image: its signed file URLs among them. */
async function ownImage(id: number): Promise<{ image_url: string; status: string }> {
  const response = await t.app.inject({
    method: 'GET',
    url: '/api/users/me/images',
    headers: bearer(user.token),
  });
  const image = response.json().images.find((entry: { id_image: number }) => entry.id_image === id);
  if (image === undefined) throw new Error(`image ${id} is not among the uploader's`);
  return image;
}

describe('the full size, made after the answer', () => {
  it('is made by a job from the kept pixels, byte for byte the one-decode encode, then analysed', async () => {
    await clearJobs();
    const bytes = await jpegBytes({ width: 1600, height: 1000 });
    const { id_image, filename } = await uploadImage(t.app, user, { bytes });

    // Answered: display size, thumbnail and kept pixels exist, the full size not yet.
    expect(await exists(displayPath(filename))).toBe(true);
    expect(await exists(path.join(root(), 'thumbs', filename))).toBe(true);
    expect(await exists(fullPath(filename))).toBe(false);
    expect((await fs.stat(pixelsPath(filename))).size).toBe(1600 * 1000 * 3);
    expect(await jobs()).toEqual([{ name: 'image.full-size', status: 'queued' }]);

    // Meanwhile the full-size URL answers the display size, which nobody may keep.
    const { image_url } = await ownImage(id_image);
    const standIn = await t.app.inject({ method: 'GET', url: image_url });
    expect(standIn.statusCode).toBe(200);
    expect(standIn.headers['cache-control']).toBe('no-store');
    expect(standIn.rawPayload.equals(await fs.readFile(displayPath(filename)))).toBe(true);
    // So does a download.
    const download = await t.app.inject({
      method: 'GET',
      url: `/api/images/${id_image}/download`,
      headers: bearer(user.token),
    });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(await fs.readFile(displayPath(filename)))).toBe(true);

    expect(await t.app.ctx.jobs.runUntilIdle()).toBe(2);
    expect(await jobs()).toEqual([
      { name: 'image.full-size', status: 'done' },
      { name: 'image.analyse', status: 'done' },
    ]);
    const full = await fs.readFile(fullPath(filename));
    // The same file the upload itself encoded before the job existed: the analysis reads a
    // file of the same quality.
    expect(full.equals((await processAllSizes(bytes)).original)).toBe(true);
    expect(await exists(pixelsPath(filename))).toBe(false);
    const row = await t.app.ctx.database.db
      .selectFrom('images')
      .select(['size_bytes', 'phash', 'width', 'height'])
      .where('id_image', '=', id_image)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ size_bytes: full.length, width: 1600, height: 1000 });
    expect(row.phash).toMatch(/^[0-9a-f]{16}$/);

    const served = await t.app.inject({ method: 'GET', url: image_url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['cache-control']).toBe('private, max-age=3600');
    expect(served.rawPayload.equals(full)).toBe(true);
  });

  it('keeps no metadata in the kept pixels: they are bare pixels of the upright picture', async () => {
    await clearJobs();
    const bytes = await jpegBytes({
      width: 80,
      height: 40,
      orientation: 6,
      exif: { IFD0: { Copyright: 'Mario Rossi' }, IFD3: { GPSLatitudeRef: 'N' } },
    });
    const { filename } = await uploadImage(t.app, user, { bytes });
    const pixels = await fs.readFile(pixelsPath(filename));
    // Upright 40×80, three bytes a pixel, nothing else.
    expect(pixels.length).toBe(40 * 80 * 3);
    expect(pixels.includes(Buffer.from('Mario Rossi'))).toBe(false);
    await t.app.ctx.jobs.runUntilIdle();
    const metadata = await sharp(fullPath(filename)).metadata();
    expect([metadata.width, metadata.height, metadata.exif]).toEqual([40, 80, undefined]);
  });

  it('approved before its full size exists: the public URL serves the display size uncached until then', async () => {
    await clearJobs();
    const { id_image, filename } = await uploadImage(t.app, user);
    const approved = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/approve-image/${filename}`,
      headers: bearer(adminToken),
    });
    expect(approved.statusCode).toBe(200);
    const early = await t.app.inject({ method: 'GET', url: `/static/images/${filename}` });
    expect(early.statusCode).toBe(200);
    // Never 'immutable' for a stand-in: the real file must replace it.
    expect(early.headers['cache-control']).toBe('no-store');

    await t.app.ctx.jobs.runUntilIdle();
    const late = await t.app.inject({ method: 'GET', url: `/static/images/${filename}` });
    expect(late.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(late.rawPayload.equals(await fs.readFile(fullPath(filename)))).toBe(true);
    expect(id_image).toBeGreaterThan(0);
  });

  it('deleted or rejected while its job waits: nothing is left behind, and a rejected one still gets its file', async () => {
    await clearJobs();
    const deleted = await uploadImage(t.app, user);
    const rejected = await uploadImage(t.app, user);
    const gone = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/images/${deleted.id_image}`,
      headers: bearer(adminToken),
    });
    expect(gone.statusCode).toBe(200);
    // The deletion removed the kept pixels with the other files.
    expect(await exists(pixelsPath(deleted.filename))).toBe(false);
    expect(await exists(displayPath(deleted.filename))).toBe(false);
    const refused = await t.app.inject({
      method: 'POST',
      url: `/api/admin/reject-image/${rejected.filename}`,
      headers: { ...bearer(adminToken), 'content-type': 'text/plain' },
      payload: 'Illeggibile',
    });
    expect(refused.statusCode).toBe(200);

    await t.app.ctx.jobs.runUntilIdle();
    // The deleted image's job found nothing to do and did nothing, quietly.
    expect(await exists(fullPath(deleted.filename))).toBe(false);
    const statuses = (await jobs()).filter((job) => job.name.startsWith('image.'));
    expect(statuses).toEqual([
      { name: 'image.full-size', status: 'done' },
      { name: 'image.full-size', status: 'done' },
      { name: 'image.analyse', status: 'done' },
    ]);
    // The uploader still sees a rejected image, at full size.
    expect(await exists(fullPath(rejected.filename))).toBe(true);
    expect(await exists(pixelsPath(rejected.filename))).toBe(false);
    expect((await ownImage(rejected.id_image)).status).toBe('rejected');
  });

  it('the sweeper removes kept pixels whose row is gone, and keeps those of a row', async () => {
    await clearJobs();
    const waiting = await uploadImage(t.app, user);
    const orphan = pixelsPath('OrphanOrphanOrphan02.webp');
    await fs.writeFile(orphan, 'x');
    const old = new Date(Date.now() - 2 * 3_600_000);
    await fs.utimes(orphan, old, old);
    await fs.utimes(pixelsPath(waiting.filename), old, old);

    const result = await sweepOrphanFiles(t.app.ctx.database.db, t.app.ctx.clock, t.config.dataDir);
    expect(result).toEqual({ temporary: 0, orphans: 1 });
    expect(await exists(orphan)).toBe(false);
    // However old, a row's pixels wait for its job.
    expect(await exists(pixelsPath(waiting.filename))).toBe(true);
    await t.app.ctx.jobs.runUntilIdle();
    expect(await exists(fullPath(waiting.filename))).toBe(true);
  });
});
