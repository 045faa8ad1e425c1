import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Executor } from '../src/db/executor.js';
import { precompiled } from '../src/db/precompiled.js';
import { buildTestApp, type TestApp } from './helpers/app.js';
import { createUser, type TestUser } from './helpers/factories.js';

/*
 * Queries compiled once per engine and run with new arguments (db/precompiled.ts), against the
 * real database of the engine under test: each call sees its own arguments, constants stay
 * where the builder put them, transactions use the same compiled SQL, and a builder that uses
 * an argument for anything but a value is refused rather than run with a wrong query.
 */

let t: TestApp;
let db: Executor;
let anna: TestUser;
let bruno: TestUser;

beforeAll(async () => {
  t = await buildTestApp();
  db = t.app.ctx.database.db;
  anna = await createUser(t.app);
  bruno = await createUser(t.app);
});

afterAll(async () => {
  await t.close();
});

describe('precompiled queries', () => {
  const usernameOf = precompiled((db, id: number) =>
    db.selectFrom('users').select('username').where('id_utente', '=', id),
  );

  it('answers each call with its own arguments', async () => {
    for (const user of [anna, bruno, anna]) {
      const { rows } = await usernameOf(db, user.id);
      expect(rows).toEqual([{ username: user.username }]);
    }
    expect((await usernameOf(db, 987654)).rows).toEqual([]);
  });

  it('keeps constants and puts arguments that appear twice in both places', async () => {
    // 'muri' is a constant of the query, between the two uses of the argument.
    const matches = precompiled((db, id: number) =>
      db
        .selectFrom('users')
        .select('id_utente')
        .where('id_utente', '=', id)
        .where((eb) => eb.or([eb('username', '<>', 'muri'), eb('id_utente', '=', id)])),
    );
    expect((await matches(db, anna.id)).rows).toEqual([{ id_utente: anna.id }]);
    expect((await matches(db, bruno.id)).rows).toEqual([{ id_utente: bruno.id }]);
  });

  it('reports the rows a change touched, inside and outside a transaction', async () => {
    const bump = precompiled((db, id: number) =>
      db
        .updateTable('users')
        .set({ reactions_version: sql`reactions_version + 1` })
        .where('id_utente', '=', id),
    );
    const versionOf = async (id: number) =>
      (
        await db
          .selectFrom('users')
          .select('reactions_version')
          .where('id_utente', '=', id)
          .executeTakeFirstOrThrow()
      ).reactions_version;
    const before = await versionOf(bruno.id);
    expect(Number((await bump(db, bruno.id)).numAffectedRows)).toBe(1);
    await db.transaction().execute(async (trx) => {
      expect(Number((await bump(trx, bruno.id)).numAffectedRows)).toBe(1);
    });
    expect(Number((await bump(db, 987654)).numAffectedRows)).toBe(0);
    expect(await versionOf(bruno.id)).toBe(before + 2);
    expect(await versionOf(anna.id)).toBe(0);
  });

  it('refuses a builder that puts an argument into the SQL text', async () => {
    const inText = precompiled((db, name: string) =>
      db.selectFrom('users').select(sql.lit(name).as('x')),
    );
    await expect(inText(db, 'anna')).rejects.toThrow(/SQL text/);
  });

  it('refuses a builder that does not use an argument as a parameter', async () => {
    const unused = precompiled((db, _id: number) => db.selectFrom('users').select('id_utente'));
    await expect(unused(db, anna.id)).rejects.toThrow(/argument 0/);
  });
});
