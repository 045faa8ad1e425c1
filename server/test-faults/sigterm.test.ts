import { afterEach, describe, expect, it } from 'vitest';
import { FULL_SIZE_JOB } from '../src/jobs/full-size/full-size.job.js';
import { IMAGE_ANALYSIS_JOB } from '../src/jobs/image-analysis/image-analysis.job.js';
import { TEST_ENGINE } from '../test/helpers/database.js';
import {
  createFaultEnvironment,
  expectWholeImageFiles,
  killLeftoverServers,
  photoBytes,
  RawConnection,
  registerUser,
  requestHead,
  sleep,
  startServer,
  upload,
  uploadForm,
  waitFor,
  type FaultEnvironment,
} from './harness.js';

/*
 * Issue 7: SIGTERM (a deploy, `docker stop`, systemd) while uploads are still arriving. The
 * promise of main.ts and the lifecycle plugin: requests in flight finish, requests that come
 * later get a clean 503, the process exits 0 with nothing half-done.
 */

let env: FaultEnvironment | undefined;
afterEach(async () => {
  await killLeftoverServers();
  await env?.cleanup();
  env = undefined;
});

describe(`SIGTERM under load (${TEST_ENGINE})`, () => {
  it('finishes the uploads in flight, answers later requests with 503, and exits 0', async () => {
    env = await createFaultEnvironment();
    const server = await startServer(env.env());
    const token = await registerUser(server.url);
    const photo = await photoBytes();
    // A job in hand when the signal comes: the analysis of an earlier upload, under way.
    const earlier = await upload(server.url, token, photo, { title: 'Muro di prima' });
    expect(earlier.status).toBe(201);
    const { id_image: earlierId } = (await earlier.json()) as { id_image: number };
    const db = env.open();
    await waitFor(async () => {
      const job = await db.db
        .selectFrom('jobs')
        .select('status')
        .where('name', '=', IMAGE_ANALYSIS_JOB)
        .executeTakeFirst();
      return job?.status === 'running';
    }, 'the analysis job to start');
    await db.close();

    const form = uploadForm(photo, { title: 'Muro lento' });
    const head = requestHead(
      'POST',
      `${server.url}/api/images/export`,
      { ...form.headers, authorization: `Bearer ${token}` },
      form.payload.length,
    );

    // Slow clients: four uploads whose bodies are only half sent when the signal arrives.
    const UPLOADS = 4;
    const half = Math.floor(form.payload.length / 2);
    const connections = await Promise.all(
      Array.from({ length: UPLOADS }, () => RawConnection.open(server.url)),
    );
    for (const connection of connections) {
      await connection.write(head);
      await connection.write(form.payload.subarray(0, half));
    }
    // A keep-alive connection with nothing in flight: the server may close it at once.
    const idle = await RawConnection.open(server.url);
    await idle.write(requestHead('GET', `${server.url}/api/categories`, {}, 0));
    expect((await idle.response()).status).toBe(200);

    await sleep(200);
    server.child.kill('SIGTERM');
    await sleep(300);

    // The listener is closed: a new connection is refused, not accepted and left hanging.
    await expect(RawConnection.open(server.url)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    // Idle connections are closed rather than kept until their timeout.
    await idle.whenClosed();

    // The rest of each body trickles in after the signal, in small pieces.
    await Promise.all(
      connections.map(async (connection) => {
        for (let offset = half; offset < form.payload.length; offset += 64 * 1024) {
          await connection.write(form.payload.subarray(offset, offset + 64 * 1024));
          await sleep(50);
        }
      }),
    );

    const accepted: number[] = [];
    for (const connection of connections) {
      const response = await connection.response();
      // In flight when the signal came: finished as if nothing happened.
      expect(response.status, response.body).toBe(201);
      accepted.push((JSON.parse(response.body) as { id_image: number }).id_image);
      // A request arriving after the signal, on a connection still open: a clean 503 in the
      // error format, telling the client to go elsewhere.
      await connection.write(requestHead('GET', `${server.url}/api/categories`, {}, 0));
      const later = await connection.response();
      expect(later.status).toBe(503);
      expect(later.headers['connection']).toBe('close');
      expect(JSON.parse(later.body)).toEqual({
        detail: 'Il server si sta riavviando. Riprova tra qualche istante.',
      });
      await connection.whenClosed();
    }

    const { code, signal } = await server.exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(server.output()).toMatch(/shutting down: finishing requests in flight/);

    // Nothing half-done: the uploads are whole, each with its job; the worker stopped only
    // once the requests were done, finishing what it had in hand, so no job is left claimed
    // (the uploads' ones are done or wait for the next start).
    const after = env.open();
    try {
      const rows = await after.db
        .selectFrom('images')
        .select(['id_image', 'filename', 'width', 'height'])
        .orderBy('id_image')
        .execute();
      expect(rows.map((row) => row.id_image)).toEqual(
        [earlierId, ...accepted].sort((a, b) => a - b),
      );
      for (const row of rows) await expectWholeImageFiles(env.dataDir, row);
      const jobs = await after.db
        .selectFrom('jobs')
        .select(['name', 'payload', 'status'])
        .where('name', 'in', [IMAGE_ANALYSIS_JOB, FULL_SIZE_JOB])
        .execute();
      const statusOf = (name: string) =>
        new Map(
          jobs
            .filter((job) => job.name === name)
            .map((job) => [(JSON.parse(job.payload) as { id_image: number }).id_image, job.status]),
        );
      const analysis = statusOf(IMAGE_ANALYSIS_JOB);
      const fullSize = statusOf(FULL_SIZE_JOB);
      expect(analysis.get(earlierId)).toBe('done');
      for (const id of accepted) {
        // Its full size made and its analysis queued or done, or its full size still queued
        // (the analysis is queued by that job).
        if (fullSize.get(id) === 'done') expect(['queued', 'done']).toContain(analysis.get(id));
        else expect(fullSize.get(id)).toBe('queued');
      }
    } finally {
      await after.close();
    }
  });
});
