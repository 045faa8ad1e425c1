import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepOrphanFiles } from '../src/modules/images/images.sweeper.js';
import { buildTestApp, type TestApp } from './helpers/app.js';
import { createUser } from './helpers/factories.js';
import { uploadImage } from './helpers/images.js';

/*
 * Issue 7: a process killed between writing an upload's files and committing its row leaves
 * files no row points to (and, mid-write, temporary files). The sweeper removes them once
 * they are older than the grace period, and never touches a file a row still uses.
 */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const HOUR = 3_600_000;
const root = () => path.join(t.config.dataDir, 'images');
const exists = (file: string) =>
  fs.access(file).then(
    () => true,
    () => false,
  );

async function writeFile(file: string, ageMs: number): Promise<string> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, 'x');
  const when = new Date(Date.now() - ageMs);
  await fs.utimes(file, when, when);
  return file;
}

async function age(file: string, ageMs: number): Promise<void> {
  const when = new Date(Date.now() - ageMs);
  await fs.utimes(file, when, when);
}

describe('orphan file sweeper', () => {
  it('removes old temporary files and old files without a row, keeps everything else', async () => {
    const user = await createUser(t.app);
    const kept = await uploadImage(t.app, user);
    const keptFiles = ['', 'display', 'thumbs'].map((folder) =>
      path.join(root(), folder, kept.filename),
    );
    const present: string[] = [];
    for (const file of keptFiles) {
      if (await exists(file)) {
        await age(file, 3 * HOUR);
        present.push(file);
      }
    }
    expect(present.length).toBeGreaterThan(1);

    const orphan = 'OrphanOrphanOrphan01.webp';
    const oldOrphans = await Promise.all(
      ['', 'display', 'thumbs'].map((folder) =>
        writeFile(path.join(root(), folder, orphan), 2 * HOUR),
      ),
    );
    const oldTemp = await writeFile(path.join(root(), 'upload-123.tmp'), 2 * HOUR);
    const freshOrphan = await writeFile(path.join(root(), 'FreshFreshFreshFresh.webp'), 60_000);
    const freshTemp = await writeFile(path.join(root(), 'thumbs', 'upload-456.tmp'), 60_000);
    // Names the server never writes are not its to delete.
    const foreign = await writeFile(path.join(root(), 'LEGGIMI.txt'), 5 * HOUR);

    const result = await sweepOrphanFiles(t.app.ctx.database.db, t.app.ctx.clock, t.config.dataDir);

    expect(result).toEqual({ temporary: 1, orphans: 3 });
    for (const file of [...oldOrphans, oldTemp]) expect(await exists(file)).toBe(false);
    for (const file of [...present, freshOrphan, freshTemp, foreign]) {
      expect(await exists(file)).toBe(true);
    }
    // The image whose files were kept still serves.
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/images/${kept.id_image}`,
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect(response.statusCode).toBe(200);

    // A second pass finds nothing left to do.
    expect(
      await sweepOrphanFiles(t.app.ctx.database.db, t.app.ctx.clock, t.config.dataDir),
    ).toEqual({ temporary: 0, orphans: 0 });
  });

  it('copes with a data directory that has no images yet', async () => {
    const empty = await fs.mkdtemp(path.join(t.config.dataDir, 'empty-'));
    expect(await sweepOrphanFiles(t.app.ctx.database.db, t.app.ctx.clock, empty)).toEqual({
      temporary: 0,
      orphans: 0,
    });
  });
});
