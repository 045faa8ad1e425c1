import type { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createViewRecorder } from '../src/modules/interactions/view-recorder.js';
import { startViewThread } from '../src/modules/interactions/view-thread.js';
import { buildTestApp, type TestApp } from './helpers/app.js';
import { createUser, type TestUser } from './helpers/factories.js';
import { holdDeletion } from './helpers/held-write.js';
import { publishedImage, uploadImage } from './helpers/images.js';

/*
 * The views' thread (issue 8, goal 5) as the server drives it; interactions.test.ts covers the
 * views through HTTP, which go through the same thread.
 */

let t: TestApp;
let owner: TestUser;

beforeAll(async () => {
  t = await buildTestApp();
  owner = await createUser(t.app);
});
afterAll(() => t.close());

const DAY_MS = 24 * 60 * 60 * 1000;

function viewOf(imageId: number, viewerKey: string, viewer: TestUser | null = null) {
  const at = new Date();
  return {
    imageId,
    viewerKey,
    earlierKey: viewerKey,
    viewer: viewer === null ? null : { id_utente: viewer.id, is_superuser: 0 as const },
    since: new Date(at.getTime() - DAY_MS).toISOString(),
    at: at.toISOString(),
  };
}

function collectingLog() {
  const lines: Array<{ details: object; message: string }> = [];
  return { lines, error: (details: object, message: string) => lines.push({ details, message }) };
}

const viewsCount = async (imageId: number) =>
  (await t.app.ctx.images.findById(imageId))?.views_count;

describe("the views' thread", () => {
  it('applies D5 on its own connection and writes what waits when it closes', async () => {
    const image = (await publishedImage(t.app, owner)).id_image;
    const pending = (await uploadImage(t.app, owner)).id_image;
    const log = collectingLog();
    const thread = startViewThread({
      database: t.config.database,
      flushMs: 60_000,
      log,
      fallback: () => {
        throw new Error('the thread should not fail here');
      },
    });
    const outcomes = await Promise.all([
      thread.record(viewOf(image, 'a:one')),
      thread.record(viewOf(image, 'a:one')),
      thread.record(viewOf(image, 'a:two')),
      thread.record(viewOf(pending, 'a:one')),
      thread.record(viewOf(pending, `u:${String(owner.id)}`, owner)),
      thread.record(viewOf(999_999, 'a:one')),
    ]);
    // The same viewer twice at once: one of the two counts, whichever is checked first.
    expect(outcomes.slice(0, 2).sort()).toEqual(['added', 'exists']);
    // Its uploader sees the pending one, which counts nothing until it is published (D4).
    expect(outcomes.slice(2)).toEqual(['added', 'hidden', 'unpublished', 'hidden']);
    // A minute from the next write: only the close writes them.
    expect(await viewsCount(image)).toBe(0);
    await thread.close();
    expect(await viewsCount(image)).toBe(2);
    expect(await viewsCount(pending)).toBe(0);
    expect(log.lines).toEqual([]);
    await expect(thread.record(viewOf(image, 'a:three'))).rejects.toThrow(/closed/);
  });

  it('hands the views over to the server’s own connection when it fails', async () => {
    const image = (await publishedImage(t.app, owner)).id_image;
    const log = collectingLog();
    const thread = startViewThread({
      // A database the thread cannot open: it fails while the first view is in flight.
      database: { kind: 'sqlite', file: '/dev/null/no-such-dir/views.sqlite' },
      flushMs: 60_000,
      log,
      fallback: () => createViewRecorder(t.app.ctx.database.db, log, 60_000),
    });
    expect(await thread.record(viewOf(image, 'a:first'))).toBe('added');
    expect(log.lines.map((line) => line.message)).toEqual([
      "the views' thread failed; views are recorded on the server's connection",
    ]);
    expect(await thread.record(viewOf(image, 'a:first'))).toBe('exists');
    expect(await thread.record(viewOf(image, 'a:second'))).toBe('added');
    await thread.flush();
    expect(await viewsCount(image)).toBe(2);
    await thread.close();
  });
});

describe('the views recorder', () => {
  it.each(['images', 'users'] as const)(
    'writes a batch in which a view’s %s row is deleted while the batch is written, without it',
    async (table) => {
      const viewer = await createUser(t.app);
      const doomed = (await publishedImage(t.app, owner)).id_image;
      const other = (await publishedImage(t.app, owner)).id_image;
      const log = collectingLog();
      const recorder = createViewRecorder(t.app.ctx.database.db, log, 60_000);
      // The doomed row is the image of one view, or the user of the other.
      expect(await recorder.record(viewOf(doomed, 'a:doomed'))).toBe('added');
      expect(await recorder.record(viewOf(other, `u:${String(viewer.id)}`, viewer))).toBe('added');
      // Deleted, and held uncommitted, while the batch is written: it finds the row still
      // there, then (PostgreSQL) meets the deletion's lock with the row it writes.
      const deletion = await holdDeletion(
        t.config.database,
        table,
        table === 'images' ? doomed : viewer.id,
        400,
      );
      await recorder.flush();
      await deletion.committed;
      // What the deletion left is written by this flush, not by a retry after a failure.
      expect(log.lines).toEqual([]);
      expect(await viewsCount(table === 'images' ? other : doomed)).toBe(1);
      await recorder.close();
    },
  );

  it('counts a view once when its batch is written while the same view is being checked', async () => {
    const image = (await publishedImage(t.app, owner)).id_image;
    const db = t.app.ctx.database.db;
    let holding = false;
    let release = () => {};
    const hold = new Promise<void>((resolve) => {
      release = resolve;
    });
    let readDone = () => {};
    const read = new Promise<void>((resolve) => {
      readDone = resolve;
    });
    // D5's read for a view, held after it ran (its connection free again) until released.
    const gated = new Proxy(db, {
      get(target, property) {
        if (property === 'executeQuery') {
          return async (query: CompiledQuery) => {
            const result = await target.executeQuery(query);
            if (holding && query.sql.includes('"seen"')) {
              readDone();
              await hold;
            }
            return result;
          };
        }
        const value: unknown = Reflect.get(target, property);
        return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
      },
    });
    const recorder = createViewRecorder(gated, collectingLog(), 60_000);
    expect(await recorder.record(viewOf(image, 'a:race'))).toBe('added');
    holding = true;
    // The same viewer again: its read finds no view in the database yet...
    const again = recorder.record(viewOf(image, 'a:race'));
    await read;
    // ...and the first view is written before the check looks at what waits.
    await recorder.flush();
    release();
    expect(await again).toBe('exists');
    await recorder.close();
    expect(await viewsCount(image)).toBe(1);
  });
});
