import { randomBytes } from 'node:crypto';
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/db/database.js';
import { FULL_SIZE_JOB } from '../src/jobs/full-size/full-size.job.js';
import { IMAGE_ANALYSIS_JOB } from '../src/jobs/image-analysis/image-analysis.job.js';
import { MAIL_JOB } from '../src/jobs/mail/mail.job.js';
import { DEFAULT_STALE_LOCK_MS } from '../src/jobs/queue.js';
import { outboxDir } from '../src/modules/mail/mailer.js';
import { imagesRoot } from '../src/modules/images/images.storage.js';
import { ORPHAN_GRACE_MS } from '../src/modules/images/images.sweeper.js';
import { TEST_ENGINE } from '../test/helpers/database.js';
import { jpegBytes } from '../test/helpers/images.js';
import {
  ageImageFiles,
  createFaultEnvironment,
  expectWholeImageFiles,
  killLeftoverServers,
  loginAs,
  photoBytes,
  registerUser,
  startServer,
  storedFiles,
  TEST_ADMIN,
  upload,
  waitFor,
  type FaultEnvironment,
  type ServerProcess,
} from './harness.js';

/*
 * Issue 7: `kill -9` of the server in the middle of uploads and of approvals, then a restart on
 * the same data folder and database. A killed process runs no handler and flushes nothing, so
 * what is left is exactly what the write ordering (files, then the row and its job in one
 * transaction) and the transactions guarantee.
 */

let env: FaultEnvironment | undefined;
afterEach(async () => {
  await killLeftoverServers();
  await env?.cleanup();
  env = undefined;
});

/** The dead worker's locks, aged as the stale-lock timeout would after two minutes of waiting. */
async function ageJobLocks(db: DatabaseHandle): Promise<number> {
  const staleAt = new Date(Date.now() - DEFAULT_STALE_LOCK_MS - 60_000).toISOString();
  const result = await db.db
    .updateTable('jobs')
    .set({ locked_at: staleAt })
    .where('status', '=', 'running')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Images with a done analysis job. */
async function analysedImages(db: DatabaseHandle): Promise<Set<number>> {
  const rows = await db.db
    .selectFrom('jobs')
    .select('payload')
    .where('name', '=', IMAGE_ANALYSIS_JOB)
    .where('status', '=', 'done')
    .execute();
  return new Set(rows.map((row) => (JSON.parse(row.payload) as { id_image: number }).id_image));
}

async function jobsByStatus(db: DatabaseHandle, name: string): Promise<Record<string, number>> {
  const rows = await db.db
    .selectFrom('jobs')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('name', '=', name)
    .groupBy('status')
    .execute();
  return Object.fromEntries(rows.map((row) => [row.status, row.n]));
}

/**
 * Six clients upload photos back to back. Once four uploads were answered, the process is
 * killed the instant it starts writing the next upload's files (a temporary file appears among
 * the display sizes): the files of that upload are then half-way to disk and its transaction
 * not committed, while the other uploads are in every stage (body arriving, re-encoding,
 * committing) and full-size jobs of answered ones may be running.
 */
/**
 * After a restart has caught up: exactly the rows' files are on disk (every size of every
 * image, no kept pixels, no temporary files), each whole, and every image has its hash.
 */
async function expectEveryImageComplete(
  dataDir: string,
  db: DatabaseHandle,
  after: Awaited<ReturnType<typeof storedFiles>>,
  filenames: Iterable<string>,
): Promise<void> {
  const names = [...filenames].sort();
  expect(after.temporary).toEqual([]);
  for (const variant of ['original', 'display', 'thumb']) {
    expect([...after.byVariant[variant]!].sort()).toEqual(names);
  }
  expect([...after.byVariant['pixels']!]).toEqual([]);
  for (const name of names) {
    await expectWholeImageFiles(dataDir, { filename: name }, 'made');
  }
  const unhashed = await db.db
    .selectFrom('images')
    .select('id_image')
    .where('phash', 'is', null)
    .execute();
  expect(unhashed).toEqual([]);
}

async function uploadUntilKilled(
  server: ServerProcess,
  dataDir: string,
  token: string,
  photos: Buffer[],
) {
  const TOTAL = 18;
  const KILL_AFTER = 4;
  const accepted: Array<{ id_image: number; filename: string }> = [];
  const unexpected: string[] = [];
  let cutOff = 0;
  let next = 0;
  let armed = false;
  let killed = false;
  // Uploads write display sizes, thumbnails and kept pixels; the full size is its job's.
  const displays = path.join(imagesRoot(dataDir), 'display');
  await fs.mkdir(displays, { recursive: true });
  const watcher = fsSync.watch(displays, (_event, name) => {
    if (!armed || name?.endsWith('.tmp') !== true) return;
    killed = true;
    server.child.kill('SIGKILL');
  });
  const client = async () => {
    while (next < TOTAL && !killed) {
      const index = next++;
      try {
        const response = await upload(server.url, token, photos[index % photos.length]!, {
          title: `Muro ${index}`,
          tags: ['muro'],
        });
        if (response.status === 201) {
          accepted.push((await response.json()) as (typeof accepted)[number]);
        } else unexpected.push(`${response.status} ${await response.text()}`);
      } catch {
        // The connection died with the process: the client never learnt the outcome.
        cutOff += 1;
      }
      if (accepted.length >= KILL_AFTER) armed = true;
    }
  };
  await Promise.all(Array.from({ length: 6 }, client));
  watcher.close();
  await server.kill9();
  return { accepted, unexpected, cutOff, signal: (await server.exited).signal };
}

describe(`kill -9 during uploads (${TEST_ENGINE})`, () => {
  it('leaves no row without its files, no file without its row after the grace, and no job lost', async () => {
    env = await createFaultEnvironment();
    const photos = await Promise.all([photoBytes(), photoBytes(), photoBytes()]);
    let token: string | undefined;
    const accepted: Array<{ id_image: number }> = [];

    // Rounds of uploads, each ended by a kill. The kill is meant to catch an upload writing its
    // files; should the server on a busy machine have finished that upload before the signal
    // landed, another round is played, at most three.
    let temporaryFiles = 0;
    let orphanFiles = 0;
    for (let round = 1; round <= 3 && temporaryFiles + orphanFiles === 0; round += 1) {
      const server = await startServer(env.env());
      token ??= await registerUser(server.url);
      const outcome = await uploadUntilKilled(server, env.dataDir, token, photos);
      expect(outcome.unexpected).toEqual([]);
      expect(outcome.signal).toBe('SIGKILL');
      // The kill landed while uploads were under way, not between them.
      expect(outcome.cutOff).toBeGreaterThan(0);
      accepted.push(...outcome.accepted);

      const db = env.open();
      try {
        const rows = await db.db
          .selectFrom('images')
          .select(['id_image', 'filename', 'width', 'height'])
          .execute();
        // Durability: every upload the client was told succeeded survived the kill.
        const ids = new Set(rows.map((row) => row.id_image));
        for (const image of accepted) expect(ids.has(image.id_image)).toBe(true);
        // No row without its files (the full size, or the pixels it is made from), and none
        // of them cut short.
        for (const row of rows) await expectWholeImageFiles(env.dataDir, row);
        // Every image has its full-size job (which queues its analysis): row and job were
        // committed together.
        const jobs = await db.db
          .selectFrom('jobs')
          .select('payload')
          .where('name', '=', FULL_SIZE_JOB)
          .execute();
        const analysed = jobs.map(
          (job) => (JSON.parse(job.payload) as { id_image: number }).id_image,
        );
        expect(analysed.sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));

        const onDisk = await storedFiles(env.dataDir);
        const names = new Set(rows.map((row) => row.filename));
        temporaryFiles = onDisk.temporary.length;
        orphanFiles = 0;
        for (const files of Object.values(onDisk.byVariant)) {
          orphanFiles += [...files].filter((name) => !names.has(name)).length;
        }
        console.info(
          `kill -9 during uploads (${TEST_ENGINE}), round ${round}: ` +
            `${outcome.accepted.length} answered, ${outcome.cutOff} cut off, ${rows.length} ` +
            `rows; left on disk: ${orphanFiles} files without a row, ${temporaryFiles} ` +
            'temporary files',
        );
      } finally {
        await db.close();
      }
    }
    // A kill caught an upload writing its files (what the sweeper is for).
    expect(temporaryFiles + orphanFiles).toBeGreaterThan(0);

    const db = env.open();
    try {
      // Time passes: the files are older than the sweeper's grace and the dead worker's job
      // locks are stale, as they would be an hour and two minutes later.
      await ageImageFiles(env.dataDir, ORPHAN_GRACE_MS + 60_000);
      console.info(`running jobs of the dead worker: ${await ageJobLocks(db)}`);
    } finally {
      await db.close();
    }

    // The restart: its worker's first housekeeping pass sweeps, then it takes the jobs up.
    const second = await startServer(env.env());
    const swept = await waitFor(
      () => second.logs().find((line) => line['msg'] === 'housekeeping done'),
      'the first housekeeping pass',
    );
    expect(swept['task']).toBe('orphan-files');
    // It removed exactly what the kill left: every temporary file and every file without a row.
    expect(swept['outcome']).toEqual({
      temporary: temporaryFiles,
      orphans: orphanFiles,
    });

    const db2 = env.open();
    try {
      const rows = await db2.db.selectFrom('images').select(['id_image', 'filename']).execute();
      const names = new Set(rows.map((row) => row.filename));

      // No job lost: queued ones and the dead worker's running ones all finish, full sizes
      // first, then the analyses they queue.
      await waitFor(
        async () => {
          const fullSizes = await jobsByStatus(db2, FULL_SIZE_JOB);
          const analyses = await analysedImages(db2);
          return (fullSizes['done'] === rows.length && analyses.size === rows.length) || undefined;
        },
        'every full-size and analysis job to be done',
        90_000,
        500,
      ).catch(async (error: unknown) => {
        // What was left undone, to tell why.
        const left = await db2.db
          .selectFrom('jobs')
          .select(['name', 'status', 'attempts', 'payload', 'last_error'])
          .where('status', '!=', 'done')
          .execute();
        console.info(`jobs not done: ${JSON.stringify(left, null, 1)}`);
        throw error;
      });
      expect(await jobsByStatus(db2, FULL_SIZE_JOB)).toEqual({ done: rows.length });
      // Every analysis done (an image analysed twice, after a kill between its full-size job's
      // commit and its end, is allowed: the result is the same).
      expect(Object.keys(await jobsByStatus(db2, IMAGE_ANALYSIS_JOB))).toEqual(['done']);
      expect([...(await analysedImages(db2))].sort()).toEqual(
        rows.map((row) => row.id_image).sort(),
      );

      const after = await storedFiles(env.dataDir);
      // Exactly the files of the rows are left: orphans and temporary files swept, not one
      // file of a row touched (the rows' files were aged past the grace too), every full size
      // made and its pixels gone.
      await expectEveryImageComplete(env.dataDir, db2, after, names);
    } finally {
      await db2.close();
    }

    // And the restarted server serves the uploads of before the kill.
    const mine = await fetch(`${second.url}/api/users/me/images`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(mine.status).toBe(200);
    second.child.kill('SIGTERM');
    expect((await second.exited).code).toBe(0);
  });
});

/** Everything an approval or a rejection writes, for one image. */
interface ImageState {
  id_image: number;
  filename: string;
  titolo_img: string | null;
  id_categoria: number;
  status: string;
  reviewed_by: number | null;
  reviewed_at: string | null;
  published_at: string | null;
  rejection_reason: string | null;
}

/**
 * Fails unless every decision is whole: the row's fields, the approved counts of categories
 * and tags, the search index and the uploader's e-mail job all agree with the status.
 */
async function expectConsistentDecisions(
  db: DatabaseHandle,
  adminId: number,
): Promise<{
  images: ImageState[];
  decided: number;
}> {
  const images: ImageState[] = await db.db
    .selectFrom('images')
    .select([
      'id_image',
      'filename',
      'titolo_img',
      'id_categoria',
      'status',
      'reviewed_by',
      'reviewed_at',
      'published_at',
      'rejection_reason',
    ])
    .execute();
  for (const image of images) {
    const what = `image ${image.id_image} (${image.status})`;
    if (image.status === 'pending') {
      expect(
        [image.reviewed_by, image.reviewed_at, image.published_at, image.rejection_reason],
        what,
      ).toEqual([null, null, null, null]);
    } else {
      expect(image.reviewed_by, what).toBe(adminId);
      expect(image.reviewed_at, what).not.toBeNull();
      expect(image.published_at !== null, what).toBe(image.status === 'approved');
      expect(image.rejection_reason !== null, what).toBe(image.status === 'rejected');
    }
  }

  // The denormalised counts equal a count from scratch.
  const categories = await db.db
    .selectFrom('categories')
    .select(['id_categoria', 'image_count'])
    .execute();
  for (const category of categories) {
    const approved = images.filter(
      (image) => image.status === 'approved' && image.id_categoria === category.id_categoria,
    ).length;
    expect(category.image_count, `category ${category.id_categoria}`).toBe(approved);
  }
  const approvedIds = new Set(
    images.filter((image) => image.status === 'approved').map((image) => image.id_image),
  );
  const links = await db.db.selectFrom('image_tags').select(['id_image', 'id_tag']).execute();
  const tags = await db.db.selectFrom('tags').select(['id_tag', 'image_count']).execute();
  for (const tag of tags) {
    const approved = links.filter(
      (link) => link.id_tag === tag.id_tag && approvedIds.has(link.id_image),
    ).length;
    expect(tag.image_count, `tag ${tag.id_tag}`).toBe(approved);
  }

  // The search index holds exactly the approved images.
  const indexed = await sql<{ id_image: number }>`
    SELECT ${sql.raw(db.dialect === 'sqlite' ? 'rowid' : 'id_image')} AS id_image
    FROM image_search`.execute(db.db);
  expect(indexed.rows.map((row) => row.id_image).sort((a, b) => a - b)).toEqual(
    [...approvedIds].sort((a, b) => a - b),
  );

  // One e-mail per decision, about that image, none for an undecided one (D8).
  const mails = await db.db
    .selectFrom('jobs')
    .select('payload')
    .where('name', '=', MAIL_JOB)
    .execute();
  const texts = mails.map((mail) => (JSON.parse(mail.payload) as { text: string }).text);
  const decided = images.filter((image) => image.status !== 'pending');
  expect(texts).toHaveLength(decided.length);
  for (const image of images) {
    const about = texts.filter((text) => text.includes(`«${image.titolo_img ?? ''}»`)).length;
    expect(about, `e-mails about image ${image.id_image}`).toBe(image.status === 'pending' ? 0 : 1);
  }
  return { images, decided: decided.length };
}

describe(`kill -9 during approvals (${TEST_ENGINE})`, () => {
  it('leaves every decision whole or not made at all, and a retry completes them', async () => {
    env = await createFaultEnvironment();
    // No OCR until the end: the uploads' analysis jobs wait for the last restart.
    const quiet = env.env({ JOBS_IN_SERVER: '0' });
    let server = await startServer(quiet);
    const adminToken = await loginAs(server.url, TEST_ADMIN.username, TEST_ADMIN.password);
    const asAdmin = { authorization: `Bearer ${adminToken}` };
    const me = (await (await fetch(`${server.url}/api/users/me`, { headers: asAdmin })).json()) as {
      id_utente: number;
    };
    const categoryIds: number[] = [];
    for (const nome of ['Politica', 'Amore']) {
      const response = await fetch(`${server.url}/api/admin/categories`, {
        method: 'POST',
        headers: { ...asAdmin, 'content-type': 'application/json' },
        body: JSON.stringify({ nome }),
      });
      expect(response.status).toBe(201);
      categoryIds.push(((await response.json()) as { id_categoria: number }).id_categoria);
    }
    const userToken = await registerUser(server.url);
    const bytes = await jpegBytes();

    const decide = (url: string, image: { filename: string; reject: boolean }) =>
      image.reject
        ? fetch(`${url}/api/admin/reject-image/${image.filename}`, {
            method: 'POST',
            headers: { ...asAdmin, 'content-type': 'text/plain' },
            body: 'Fuori tema',
          })
        : fetch(`${url}/api/admin/approve-image/${image.filename}`, {
            method: 'PUT',
            headers: asAdmin,
          });

    // A round: pending images in two categories with shared tags (each title unique, so its
    // e-mail can be told apart), then every decision at once, and the process killed as soon
    // as a few were answered. A decision takes milliseconds, so on a busy machine the server
    // can finish them all before the kill lands: then the round proved nothing and another
    // one is played, at most three.
    const BATCH = 24;
    const KILL_AFTER = 4;
    const pending: Array<{ filename: string; reject: boolean }> = [];
    let landed = false;
    for (let round = 1; round <= 3 && !landed; round += 1) {
      if (round > 1) server = await startServer(quiet);
      const batch: typeof pending = [];
      for (let index = 0; index < BATCH; index += 1) {
        const response = await upload(server.url, userToken, bytes, {
          title: `Scritta ${index} ${randomBytes(4).toString('hex')}`,
          categoryId: categoryIds[index % 2]!,
          tags: ['muro', `gruppo${index % 3}`],
        });
        expect(response.status).toBe(201);
        const { filename } = (await response.json()) as { filename: string };
        batch.push({ filename, reject: index % 4 === 3 });
      }
      pending.push(...batch);

      let answered = 0;
      let cutOff = 0;
      const unexpected: string[] = [];
      const target = server;
      await Promise.all(
        batch.map(async (image) => {
          try {
            const response = await decide(target.url, image);
            if (response.status === 200) answered += 1;
            else unexpected.push(`${response.status} ${await response.text()}`);
            if (answered >= KILL_AFTER) target.child.kill('SIGKILL');
          } catch {
            // The connection died with the process: the client never learnt the outcome.
            cutOff += 1;
          }
        }),
      );
      await target.kill9();
      expect(unexpected).toEqual([]);

      const db = env.open();
      try {
        const { decided } = await expectConsistentDecisions(db, me.id_utente);
        // What the client was told happened did happen.
        expect(decided).toBeGreaterThanOrEqual(answered);
        console.info(
          `kill -9 during approvals (${TEST_ENGINE}), round ${round}: ${answered} answered, ` +
            `${cutOff} cut off, ${decided} of ${pending.length} decided in the database`,
        );
      } finally {
        await db.close();
      }
      landed = cutOff > 0;
    }
    // The kill landed while decisions were under way.
    expect(landed).toBe(true);

    // After a restart the administrator simply tries again: decisions already made answer
    // that the image was reviewed already, the others go through.
    const last = await startServer(env.env());
    const retried = await Promise.all(
      pending.map(async (image) => {
        const response = await decide(last.url, image);
        return { status: response.status, body: (await response.json()) as { detail?: string } };
      }),
    );
    for (const { status, body } of retried) {
      if (status === 400) {
        expect(body.detail).toBe(
          'L’immagine non è più in attesa di approvazione: qualcuno l’ha già esaminata.',
        );
      } else expect(status, JSON.stringify(body)).toBe(200);
    }

    const db = env.open();
    try {
      const { images } = await expectConsistentDecisions(db, me.id_utente);
      expect(images.filter((image) => image.status === 'pending')).toEqual([]);
      // No job lost: the e-mails (and the uploads' analyses) queued before and after the kills
      // all run, and each e-mail lands in the outbox once.
      await waitFor(
        async () => {
          const open = await db.db
            .selectFrom('jobs')
            .select('id_job')
            .where('status', 'in', ['queued', 'running'])
            .execute();
          return open.length === 0 || undefined;
        },
        'every job to finish',
        90_000,
        500,
      );
      expect(await jobsByStatus(db, MAIL_JOB)).toEqual({ done: pending.length });
      const outbox = await fs.readdir(outboxDir(env.dataDir));
      expect(outbox.filter((name) => path.extname(name) === '.eml')).toHaveLength(pending.length);
    } finally {
      await db.close();
    }
    last.child.kill('SIGTERM');
    expect((await last.exited).code).toBe(0);
  });
});

describe(`kill -9 between an upload's answer and its full size (${TEST_ENGINE})`, () => {
  it('makes every full size after the restart, from the kept pixels, then analyses it', async () => {
    env = await createFaultEnvironment();
    const photos = await Promise.all([photoBytes(), photoBytes(), photoBytes()]);

    // 1. Answered, then killed before any job ran: no worker in this process.
    const first = await startServer(env.env({ JOBS_IN_SERVER: '0' }));
    const token = await registerUser(first.url);
    const answered: Array<{ id_image: number; filename: string }> = [];
    for (const [index, photo] of photos.entries()) {
      const response = await upload(first.url, token, photo, { title: `Muro ${index}` });
      expect(response.status).toBe(201);
      answered.push((await response.json()) as (typeof answered)[number]);
    }
    // Until its job runs, the full-size URL answers the display size, which nobody keeps.
    const own = (await (
      await fetch(`${first.url}/api/users/me/images`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as { images: Array<{ id_image: number; image_url: string }> };
    const standIn = await fetch(`${first.url}${own.images[0]?.image_url ?? ''}`);
    expect(standIn.status).toBe(200);
    expect(standIn.headers.get('cache-control')).toBe('no-store');
    await first.kill9();

    const db = env.open();
    try {
      const rows = await db.db
        .selectFrom('images')
        .select(['id_image', 'filename', 'width', 'height'])
        .orderBy('id_image')
        .execute();
      expect(rows.map((row) => row.id_image)).toEqual(answered.map((image) => image.id_image));
      for (const row of rows) {
        // Display size, thumbnail and the whole pixels of the full size, which is not made.
        await expectWholeImageFiles(env.dataDir, row);
        await expect(fs.access(path.join(imagesRoot(env.dataDir), row.filename))).rejects.toThrow();
      }
      expect(await jobsByStatus(db, FULL_SIZE_JOB)).toEqual({ queued: rows.length });
      expect(await jobsByStatus(db, IMAGE_ANALYSIS_JOB)).toEqual({});
    } finally {
      await db.close();
    }

    // 2. A server with its worker, killed the instant the first full size is being written:
    //    that job dies holding its lock, mid-write.
    await fs.mkdir(imagesRoot(env.dataDir), { recursive: true });
    let second: ServerProcess | undefined;
    let writing = false;
    // Read through a function: the watcher changes it while the test awaits, which
    // TypeScript's narrowing cannot see.
    const isWriting = () => writing;
    const watcher = fsSync.watch(imagesRoot(env.dataDir), (_event, name) => {
      if (name?.endsWith('.tmp') !== true) return;
      writing = true;
      second?.child.kill('SIGKILL');
    });
    try {
      second = await startServer(env.env());
      // The worker may have started writing before the server said it was listening.
      if (isWriting()) second.child.kill('SIGKILL');
      await waitFor(
        () => isWriting() || undefined,
        'the first full size to be written',
        30_000,
        20,
      );
    } finally {
      watcher.close();
    }
    expect((await second.exited).signal).toBe('SIGKILL');
    // Before the first full size was whole: none is (the kill landed mid-write).
    expect((await storedFiles(env.dataDir)).byVariant['original']!.size).toBeLessThan(3);

    const db2 = env.open();
    try {
      const stale = await ageJobLocks(db2);
      console.info(
        `kill -9 during a full-size job (${TEST_ENGINE}): ${stale} job(s) left running, ` +
          `full sizes: ${JSON.stringify(await jobsByStatus(db2, FULL_SIZE_JOB))}`,
      );
      await ageImageFiles(env.dataDir, ORPHAN_GRACE_MS + 60_000);
    } finally {
      await db2.close();
    }

    // 3. The restart: the queued and the dead worker's jobs all finish.
    const third = await startServer(env.env());
    const db3 = env.open();
    try {
      await waitFor(
        async () => {
          const analysed = await analysedImages(db3);
          return analysed.size === answered.length || undefined;
        },
        'every image made at full size and analysed',
        90_000,
        500,
      );
      expect(await jobsByStatus(db3, FULL_SIZE_JOB)).toEqual({ done: answered.length });
      const after = await storedFiles(env.dataDir);
      const names = answered.map((image) => image.filename).sort();
      // The pixels are gone once their full size exists; the killed write's temporary file
      // went with the restart's first sweep.
      await expectEveryImageComplete(env.dataDir, db3, after, names);
    } finally {
      await db3.close();
    }
    // The full-size URL now serves the full size.
    const mine = (await (
      await fetch(`${third.url}/api/users/me/images`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as { images: Array<{ image_url: string; filename: string }> };
    for (const image of mine.images) {
      const file = await fetch(`${third.url}${image.image_url}`);
      expect(file.status).toBe(200);
      expect(file.headers.get('cache-control')).toBe('private, max-age=3600');
      expect(
        Buffer.from(await file.arrayBuffer()).equals(
          await fs.readFile(path.join(imagesRoot(env.dataDir), image.filename)),
        ),
      ).toBe(true);
    }
    third.child.kill('SIGTERM');
    expect((await third.exited).code).toBe(0);
  });
});
