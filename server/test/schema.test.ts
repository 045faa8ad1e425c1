import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { isUniqueViolation } from '../src/db/errors.js';
import { buildTestApp, TEST_ADMIN, type TestApp } from './helpers/app.js';
import { TEST_ENGINE } from './helpers/database.js';
import { up as foldKeysFully } from '../src/db/migrations/2026-11-27T2200-full-case-keys.js';
import { bearer, createUser, login } from './helpers/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const db = () => t.app.ctx.database.db;
const now = () => new Date().toISOString();

async function insertImage(userId: number, filename: string) {
  return db()
    .insertInto('images')
    .values({
      filename,
      id_utente: userId,
      id_categoria: 1,
      status: 'approved',
      mime_type: 'image/webp',
      size_bytes: 1000,
      width: 10,
      height: 10,
      created_at: now(),
      published_at: now(),
    })
    .returning('id_image')
    .executeTakeFirstOrThrow();
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the write to fail');
}

describe('schema', () => {
  it('seeds category 1 "Non categorizzata" and keeps the id sequence in step', async () => {
    const first = await db().selectFrom('categories').selectAll().execute();
    expect(first).toEqual([
      expect.objectContaining({ id_categoria: 1, nome: 'Non categorizzata', image_count: 0 }),
    ]);
    const next = await db()
      .insertInto('categories')
      .values({ nome: 'messaggi_amore', nome_key: 'messaggi_amore', created_at: now() })
      .returning('id_categoria')
      .executeTakeFirstOrThrow();
    expect(next.id_categoria).toBe(2);
  });

  it('creates every table and index the API needs', async () => {
    const tables = [
      'users',
      'categories',
      'tags',
      'images',
      'image_tags',
      'interactions',
      'follows',
      'settings',
      'jobs',
      'duplicate_dismissals',
    ] as const;
    for (const table of tables) {
      await expect(db().selectFrom(table).selectAll().limit(1).execute()).resolves.toBeDefined();
    }
    const indexQuery =
      t.app.ctx.database.dialect === 'sqlite'
        ? sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'index'`
        : sql<{
            name: string;
          }>`SELECT indexname AS name FROM pg_indexes WHERE schemaname = 'public'`;
    const names = (await indexQuery.execute(db())).rows.map((row) => row.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'users_username_key_unique',
        'users_email_key_unique',
        'images_filename_unique',
        'images_public_newest',
        'images_public_by_category',
        'images_public_by_user',
        'images_by_user_all',
        'images_by_status',
        'image_tags_by_tag',
        'interactions_toggle_unique',
        'interactions_by_user',
        'interactions_by_image',
        'interactions_by_time',
        'follows_by_followed',
        'jobs_due',
      ]),
    );
  });

  it('reads timestamps back as the ISO strings they were written as, on every engine', async () => {
    const user = await createUser(t.app);
    const { id_image } = await insertImage(user.id, 'when.webp');
    for (const when of ['2026-11-27T04:43:46.123Z', '2026-01-02T03:04:05.000Z']) {
      await db()
        .updateTable('images')
        .set({ published_at: when })
        .where('id_image', '=', id_image)
        .execute();
      const row = await db()
        .selectFrom('images')
        .select('published_at')
        .where('id_image', '=', id_image)
        .executeTakeFirstOrThrow();
      expect(row.published_at).toBe(when);
    }
  });

  it.runIf(TEST_ENGINE === 'postgres')(
    'reads PostgreSQL timestamps to the millisecond, in any session time zone',
    async () => {
      const read = async (zone: string, literal: string) =>
        db()
          .transaction()
          .execute(async (trx) => {
            await sql`SELECT set_config('TimeZone', ${zone}, true)`.execute(trx);
            const { rows } = await sql<{ t: string }>`SELECT ${literal}::timestamptz AS t`.execute(
              trx,
            );
            return rows[0]?.t;
          });
      // Microseconds are cut, not rounded, as Date#toISOString has always cut them.
      expect(await read('UTC', '2026-11-27 04:43:46.123999+00')).toBe('2026-11-27T04:43:46.123Z');
      expect(await read('UTC', '2026-11-27 04:43:46.5+00')).toBe('2026-11-27T04:43:46.500Z');
      expect(await read('UTC', '2026-11-27 04:43:46+00')).toBe('2026-11-27T04:43:46.000Z');
      expect(await read('Europe/Rome', '2026-11-27 04:43:46.25+00')).toBe(
        '2026-11-27T04:43:46.250Z',
      );
      expect(await read('Asia/Kolkata', '2026-07-01 00:00:00+00')).toBe('2026-07-01T00:00:00.000Z');
    },
  );

  it('keeps toggles unique per user, image and type, but lets views repeat', async () => {
    const user = await createUser(t.app);
    const { id_image } = await insertImage(user.id, 'toggle.webp');
    const like = { id_image, id_utente: user.id, id_tipo_interazione: 1, created_at: now() };
    await db().insertInto('interactions').values(like).execute();
    expect(
      isUniqueViolation(await failure(db().insertInto('interactions').values(like).execute())),
    ).toBe(true);
    const view = { ...like, id_tipo_interazione: 7, viewer_key: `u:${user.id}` };
    await db().insertInto('interactions').values([view, view]).execute();
    // Downloads are recorded every time (D5).
    const download = { ...like, id_tipo_interazione: 3 };
    await db().insertInto('interactions').values([download, download]).execute();
  });

  it('enforces foreign keys, checks and cascades', async () => {
    const user = await createUser(t.app);
    await expect(insertImage(999_999, 'orphan.webp')).rejects.toThrow();
    await expect(
      db()
        .insertInto('follows')
        .values({ follower_id: user.id, followed_id: user.id, created_at: now() })
        .execute(),
    ).rejects.toThrow();
    await expect(
      db()
        .insertInto('interactions')
        .values({ id_image: 1, id_utente: user.id, id_tipo_interazione: 8, created_at: now() })
        .execute(),
    ).rejects.toThrow();

    const { id_image } = await insertImage(user.id, 'cascade.webp');
    await db()
      .insertInto('interactions')
      .values({ id_image, id_utente: user.id, id_tipo_interazione: 2, created_at: now() })
      .execute();
    await db().deleteFrom('users').where('id_utente', '=', user.id).execute();
    const left = await db()
      .selectFrom('interactions')
      .select('id_interazione')
      .where('id_image', '=', id_image)
      .execute();
    expect(left).toEqual([]);
  });

  it('moves keys to full case folding, keeping a row whose folded key another holds', async () => {
    // Accounts and a tag as the lower-case keys of before 2026-11-27 left them: 'σας' and
    // 'σασ' were two names then, 'Straße' was keyed 'straße'.
    const sigma = await createUser(t.app, { username: 'σας', email: 'sigma@example.it' });
    const final = await createUser(t.app, { username: 'ζζζ', email: 'final@example.it' });
    const strasse = await createUser(t.app, { username: 'ppp', email: 'ppp@example.it' });
    const rename = (id: number, username: string, key: string) =>
      db()
        .updateTable('users')
        .set({ username, username_key: key })
        .where('id_utente', '=', id)
        .execute();
    await rename(final.id, 'σασ', 'σασ');
    await rename(strasse.id, 'Straße', 'straße');
    await db()
      .updateTable('users')
      .set({ email: 'Straße@example.it', email_key: 'straße@example.it' })
      .where('id_utente', '=', strasse.id)
      .execute();
    const tag = await db()
      .insertInto('tags')
      .values({ nome: 'WEIẞBIER', nome_key: 'weißbier', created_at: now() })
      .returning('id_tag')
      .executeTakeFirstOrThrow();

    await foldKeysFully(db());

    const keys = await db()
      .selectFrom('users')
      .select(['id_utente', 'username_key', 'email_key'])
      .where('id_utente', 'in', [sigma.id, final.id, strasse.id])
      .orderBy('id_utente')
      .execute();
    expect(keys).toEqual([
      { id_utente: sigma.id, username_key: 'σας', email_key: 'sigma@example.it' },
      // Its folded key 'σας' is held: it keeps the old one.
      { id_utente: final.id, username_key: 'σασ', email_key: 'final@example.it' },
      { id_utente: strasse.id, username_key: 'strasse', email_key: 'strasse@example.it' },
    ]);
    const tagKey = await db()
      .selectFrom('tags')
      .select('nome_key')
      .where('id_tag', '=', tag.id_tag)
      .executeTakeFirstOrThrow();
    expect(tagKey.nome_key).toBe('weissbier');

    // Each account still logs in as itself: the one left on its old key by its exact name.
    const loggedIn = async (username: string, password: string) =>
      (await login(t.app, username, password)).json<{ user: { id_utente: number } }>().user
        .id_utente;
    expect(await loggedIn('σασ', final.password)).toBe(final.id);
    expect(await loggedIn('ΣΑΣ', sigma.password)).toBe(sigma.id);
    expect(await loggedIn('σας', sigma.password)).toBe(sigma.id);
    expect(await loggedIn('STRASSE', strasse.password)).toBe(strasse.id);

    // The one left on its old key is changed like any other: the key it holds is its own.
    const changed = await t.app.inject({
      method: 'PUT',
      url: '/api/users/me',
      headers: bearer(final.token),
      payload: { password: 'una-password-nuova', current_password: final.password },
    });
    expect(changed.statusCode).toBe(200);
    expect(await loggedIn('σασ', 'una-password-nuova')).toBe(final.id);
    const admin = (await login(t.app, TEST_ADMIN.username, TEST_ADMIN.password)).json<{
      access_token: string;
    }>().access_token;
    const deactivated = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/users/${String(final.id)}`,
      headers: bearer(admin),
      payload: { username: 'σασ', email: 'final@example.it', is_active: false },
    });
    expect(deactivated.statusCode).toBe(200);
    expect(deactivated.json()).toMatchObject({ is_active: false });
  });

  it('starts again on an existing database without migrating twice or losing data', async () => {
    const user = await createUser(t.app);
    const again = await buildApp(t.config, { logStream: { write: () => undefined } });
    try {
      const found = await again.ctx.users.getById(user.id);
      expect(found?.username).toBe(user.username);
      const categories = await again.ctx.database.db
        .selectFrom('categories')
        .select('nome')
        .where('nome', '=', 'Non categorizzata')
        .execute();
      expect(categories).toHaveLength(1);
    } finally {
      await again.close();
    }
  });
});
