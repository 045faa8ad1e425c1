import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isGalleryEmpty, seedDemoContent, type DemoSummary } from '../src/demo/seed.js';
import { enqueueImageAnalysis } from '../src/jobs/image-analysis/image-analysis.job.js';
import { buildTestApp, TEST_ADMIN, type TestApp } from './helpers/app.js';
import { bearer, login } from './helpers/factories.js';

let t: TestApp;
let summary: DemoSummary;
const created: number[] = [];

beforeAll(async () => {
  t = await buildTestApp();
  expect(await isGalleryEmpty(t.app.ctx)).toBe(true);
  // A small gallery: the same code path as the 300 pictures of a first start, in seconds.
  summary = await seedDemoContent(t.app.ctx, {
    images: 24,
    afterImage: async (id) => {
      created.push(id);
      // As main.ts does on a first start.
      await enqueueImageAnalysis(t.app.ctx.database.db, t.app.ctx.clock, id);
      await t.app.ctx.search.reindexImage(id);
    },
  });
});
afterAll(() => t.close());

describe('demo content (D12)', () => {
  it('creates users, the themed categories, approved, pending and rejected pictures', async () => {
    expect(summary).toMatchObject({ users: 30, categories: 15, pending: 6, rejected: 1 });
    expect(summary.approved).toBe(24 - 6 - 1);
    expect(created).toHaveLength(24);
    expect(await isGalleryEmpty(t.app.ctx)).toBe(false);

    const gallery = (await t.app.inject({ method: 'GET', url: '/api/images' })).json();
    expect(gallery.total).toBe(summary.approved);
    const categories = (await t.app.inject({ method: 'GET', url: '/api/categories' })).json();
    expect(categories.map((c: { nome: string }) => c.nome)).toContain('messaggi_amore');
    const counted = categories.reduce((sum: number, c: { count: number }) => sum + c.count, 0);
    expect(counted).toBe(summary.approved);
  });

  it('spreads reactions and views over time so trending has a week, with consistent counters', async () => {
    const trending = (await t.app.inject({ method: 'GET', url: '/api/trending-images' })).json();
    expect(trending.images.length).toBeGreaterThan(0);
    const rows = await t.app.ctx.database.db
      .selectFrom('images')
      .select(['id_image', 'likes_count', 'views_count'])
      .where('status', '=', 'approved')
      .execute();
    const likes = await t.app.ctx.database.db
      .selectFrom('interactions')
      .select(['id_image'])
      .where('id_tipo_interazione', '=', 1)
      .execute();
    expect(rows.reduce((sum, row) => sum + row.likes_count, 0)).toBe(likes.length);
    expect(rows.some((row) => row.views_count > 0)).toBe(true);
  });

  it('photographs some writings twice (for the duplicate finder) and makes them searchable', async () => {
    const titles = await t.app.ctx.database.db.selectFrom('images').select('titolo_img').execute();
    const counts = new Map<string, number>();
    for (const { titolo_img } of titles)
      counts.set(titolo_img ?? '', (counts.get(titolo_img ?? '') ?? 0) + 1);
    expect([...counts.values()].filter((n) => n >= 2).length).toBeGreaterThanOrEqual(3);

    const [first] = (await t.app.inject({ method: 'GET', url: '/api/images?limit=1' })).json()
      .images;
    const word =
      String(first.titolo_img)
        .split(/\s+/)
        .find((w: string) => w.length > 3) ?? '';
    const found = (
      await t.app.inject({ method: 'GET', url: `/api/search?query=${encodeURIComponent(word)}` })
    ).json();
    expect(found.images.map((image: { id_image: number }) => image.id_image)).toContain(
      first.id_image,
    );
  });

  it('makes the second photographs look like the first, so the duplicate finder groups them', async () => {
    await t.app.ctx.jobs.runUntilIdle();
    const token = (await login(t.app, TEST_ADMIN.username, TEST_ADMIN.password)).json<{
      access_token: string;
    }>().access_token;
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/admin/duplicate-images',
      headers: bearer(token),
    });
    expect(response.statusCode).toBe(200);
    const groups = response.json<{ images: { titolo_img: string | null }[] }[]>();
    // Every group is one writing photographed twice: the same title on each of its pictures.
    expect(groups.length).toBeGreaterThanOrEqual(summary.duplicateGroups - 1);
    for (const group of groups) {
      expect(new Set(group.images.map((image) => image.titolo_img)).size).toBe(1);
    }
    // The photos are read by the reader process at the idle scheduling class (jobs/reader-process),
    // which gets a core only when nothing else wants it: a few seconds alone, but next to other
    // test files on a busy CI machine it may wait minutes (up to two, with the earlier reader).
  }, 300_000);

  it('gives demo users passwords nobody knows', async () => {
    const users = await t.app.ctx.database.db
      .selectFrom('users')
      .select('username')
      .where('email', 'like', '%@demo.muriparlanti.it')
      .execute();
    expect(users).toHaveLength(30);
    for (const password of ['password', 'demo-password', 'muriparlanti']) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: users[0]?.username, password },
      });
      expect(response.statusCode).toBe(401);
    }
  });

  it('has every demo user join before anything they uploaded, published or did', async () => {
    const db = t.app.ctx.database.db;
    const users = await db
      .selectFrom('users')
      .select(['id_utente', 'created_at', 'age_confirmed_at'])
      .where('email', 'like', '%@demo.muriparlanti.it')
      .execute();
    const joined = new Map(users.map((user) => [user.id_utente, Date.parse(user.created_at)]));
    const now = t.app.ctx.clock.now().getTime();
    for (const user of users) {
      expect(Date.parse(user.created_at)).toBeLessThan(now);
      expect(user.age_confirmed_at === null ? null : Date.parse(user.age_confirmed_at)).toBe(
        Date.parse(user.created_at),
      );
    }
    const images = await db
      .selectFrom('images')
      .select(['id_image', 'id_utente', 'created_at', 'published_at'])
      .execute();
    expect(images.length).toBeGreaterThan(0);
    for (const image of images) {
      const since = joined.get(image.id_utente)!;
      expect(since, `image ${image.id_image}`).toBeLessThanOrEqual(Date.parse(image.created_at));
      if (image.published_at !== null) {
        expect(since, `image ${image.id_image}`).toBeLessThanOrEqual(
          Date.parse(image.published_at),
        );
      }
    }
    const follows = await db.selectFrom('follows').select(['follower_id', 'created_at']).execute();
    for (const follow of follows) {
      expect(joined.get(follow.follower_id)!).toBeLessThanOrEqual(Date.parse(follow.created_at));
    }
    const acts = await db
      .selectFrom('interactions')
      .select(['id_utente', 'created_at'])
      .where('id_utente', 'is not', null)
      .execute();
    for (const act of acts) {
      expect(joined.get(act.id_utente!)!).toBeLessThanOrEqual(Date.parse(act.created_at));
    }
    // What a profile shows as 'Membro dal'.
    const uploader = images[0]!.id_utente;
    const profile = (
      await t.app.inject({ method: 'GET', url: `/api/users/${uploader}/profile` })
    ).json();
    expect(Date.parse(profile.user.created_at)).toBe(joined.get(uploader));
  });
});

describe('a demo gallery of a few pictures (DEMO_IMAGES=5)', () => {
  it('is all approved and distinct, and says so', async () => {
    const small = await buildTestApp();
    try {
      const result = await seedDemoContent(small.app.ctx, { images: 5 });
      expect(result).toMatchObject({ approved: 5, pending: 0, rejected: 0, duplicateGroups: 0 });
      const gallery = (await small.app.inject({ method: 'GET', url: '/api/images' })).json<{
        total: number;
        images: Array<{ titolo_img: string }>;
      }>();
      expect(gallery.total).toBe(5);
      expect(new Set(gallery.images.map((image) => image.titolo_img)).size).toBe(5);
    } finally {
      await small.close();
    }
  });
});
