import { stemmer } from '@orama/stemmers/italian';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ensureSearchTermsCurrent,
  SEARCH_REBUILD_JOB,
  SEARCH_TERMS_SETTING,
} from '../src/jobs/search-rebuild/search-rebuild.job.js';
import { enqueueJob } from '../src/jobs/worker.js';
import { systemClock } from '../src/lib/clock.js';
import { createSearchRepository } from '../src/modules/search/search.repository.js';
import {
  foldForSearch,
  queryTerms,
  searchDocument,
  SEARCH_TERMS_VERSION,
} from '../src/modules/search/search.text.js';
import { saveSettings } from '../src/modules/settings/settings.repository.js';
import { buildTestApp, TEST_ADMIN, type TestApp } from './helpers/app.js';
import { bearer, createUser, login } from './helpers/factories.js';
import { uploadImage } from './helpers/images.js';

/*
 * A release that changes search's terms (search.text.ts termOf) must not leave an existing
 * database's documents behind: a server starting on it enqueues the rebuild, the worker makes
 * every document again, and the words whose term changed are found again.
 */

let t: TestApp;
beforeAll(async () => {
  // Answers are not kept: the rebuild changes documents outside any request.
  t = await buildTestApp({ publicCacheMs: 0 });
});
afterAll(() => t.close());

const db = () => t.app.ctx.database.db;

async function found(query: string): Promise<number[]> {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/search?query=${encodeURIComponent(query)}`,
  });
  expect(response.statusCode, query).toBe(200);
  return response
    .json<{ images: Array<{ id_image: number }> }>()
    .images.map((image) => image.id_image);
}

/** The images holding every word whole: no prefix retry, no fallback (which would hide it). */
async function strict(query: string): Promise<number[]> {
  const repo = createSearchRepository(db(), t.app.ctx.database.dialect);
  const page = await repo.searchApprovedImages({
    terms: queryTerms(query),
    prefixLast: false,
    skip: 0,
    limit: 10,
    order: 'newest',
  });
  return page.ids;
}

async function storedVersion(): Promise<unknown> {
  const row = await db()
    .selectFrom('settings')
    .select('value')
    .where('key', '=', SEARCH_TERMS_SETTING)
    .executeTakeFirst();
  return row === undefined ? undefined : JSON.parse(row.value);
}

function rebuildJobs() {
  return db().selectFrom('jobs').select('status').where('name', '=', SEARCH_REBUILD_JOB).execute();
}

describe('search documents follow a change of terms', () => {
  it('records the current version on a new database, with nothing to rebuild', async () => {
    expect(await storedVersion()).toBe(SEARCH_TERMS_VERSION);
    expect(await rebuildJobs()).toEqual([]);
    expect(await ensureSearchTermsCurrent(db(), systemClock)).toBe('current');
  });

  it("rebuilds an older database's documents in a job, once, and finds the words again", async () => {
    const user = await createUser(t.app);
    const image = await uploadImage(t.app, user, { title: 'Cento anni sul lago' });
    const admin = (await login(t.app, TEST_ADMIN.username, TEST_ADMIN.password)).json<{
      access_token: string;
    }>().access_token;
    const approved = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/approve-image/${image.filename}`,
      headers: bearer(admin),
    });
    expect(approved.statusCode).toBe(200);
    expect(await strict('anno laghi')).toEqual([image.id_image]);

    // The database as version 1 left it: plain Snowball stems ('anni' kept 'anni').
    const title = foldForSearch('Cento anni sul lago').split(' ').map(stemmer).join(' ');
    const current = searchDocument({
      title: 'Cento anni sul lago',
      tags: [],
      category: null,
      text: null,
      username: null,
      alternates: null,
    });
    await createSearchRepository(db(), t.app.ctx.database.dialect).upsertImageDocument(
      image.id_image,
      { ...current, title },
    );
    await saveSettings(db(), [{ key: SEARCH_TERMS_SETTING, value: '1' }], '2026-11-26T00:00:00Z');
    // Neither word's term is the old document's: the strict match is lost (the search's
    // looser retries would still show the photo, ranked as a partial match).
    expect(await strict('anno laghi')).toEqual([]);

    // What a server starting on it does: one job, however many times it starts.
    expect(await ensureSearchTermsCurrent(db(), systemClock)).toBe('enqueued');
    expect(await ensureSearchTermsCurrent(db(), systemClock)).toBe('pending');
    expect(await rebuildJobs()).toEqual([{ status: 'queued' }]);

    await t.app.ctx.jobs.runUntilIdle();
    expect(await rebuildJobs()).toEqual([{ status: 'done' }]);
    expect(await storedVersion()).toBe(SEARCH_TERMS_VERSION);
    expect(await strict('anno laghi')).toEqual([image.id_image]);
    expect(await found('laghi anni')).toEqual([image.id_image]);
    expect(await ensureSearchTermsCurrent(db(), systemClock)).toBe('current');
  });

  it("rebuilds when the recorded version is unreadable or an older release's job waits", async () => {
    await saveSettings(
      db(),
      [{ key: SEARCH_TERMS_SETTING, value: 'rotto' }],
      '2026-11-26T00:00:00Z',
    );
    // A job an older release left queued rebuilds to its own version: it does not count.
    await enqueueJob(
      db(),
      systemClock,
      { name: SEARCH_REBUILD_JOB, maxAttempts: 1 },
      { version: SEARCH_TERMS_VERSION - 1 },
    );
    expect(await ensureSearchTermsCurrent(db(), systemClock)).toBe('enqueued');
    await t.app.ctx.jobs.runUntilIdle();
    expect(await storedVersion()).toBe(SEARCH_TERMS_VERSION);
    expect(await rebuildJobs()).toEqual([
      { status: 'done' },
      { status: 'done' },
      { status: 'done' },
    ]);
  });
});
