import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, TEST_ADMIN, type TestApp } from './helpers/app.js';
import { bearer, createUser, login, type TestUser } from './helpers/factories.js';
import { createCategory, publishedImage } from './helpers/images.js';

/*
 * Two administrators with the same image, account, category or tag open, one saving after the other from a
 * form filled before the first save: the second must not silently undo the first. The forms
 * send back the `revision` they were filled with; a stale one is answered 409 with an Italian
 * detail and changes nothing. Without it (SPEC's bodies) an edit is applied as before.
 */

let t: TestApp;
let adminToken: string;
let user: TestUser;

beforeAll(async () => {
  t = await buildTestApp();
  adminToken = (await login(t.app, TEST_ADMIN.username, TEST_ADMIN.password)).json().access_token;
  user = await createUser(t.app);
});
afterAll(() => t.close());

const asAdmin = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({
    method,
    url,
    headers: bearer(adminToken),
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });

interface ListedImage {
  id_image: number;
  titolo_img: string | null;
  id_categoria: number;
  tags: string[];
  revision: number;
}

async function listed(id: number): Promise<ListedImage> {
  const rows = (await asAdmin('GET', '/api/admin/images')).json<ListedImage[]>();
  const row = rows.find((image) => image.id_image === id);
  if (row === undefined) throw new Error(`image ${id} not listed`);
  return row;
}

/** What 'Modifica Immagine' sends: every field of the row it was opened with. */
const formOf = (row: ListedImage) => ({
  titolo_img: row.titolo_img ?? '',
  id_categoria: row.id_categoria,
  tags: row.tags,
  revision: row.revision,
});

describe('an image edited from a stale form', () => {
  it('is refused with 409 and keeps the first administrator’s change', async () => {
    const image = await publishedImage(t.app, user, { title: 'Muro di via Roma', tags: ['roma'] });
    const opened = await listed(image.id_image);
    const cat = await createCategory(t.app, 'messaggi_stantii');

    // The first administrator adds a tag and moves it.
    const first = await asAdmin('PUT', `/api/admin/images/${image.id_image}`, {
      ...formOf(opened),
      id_categoria: cat,
      tags: ['roma', 'centro'],
    });
    expect(first.statusCode).toBe(200);

    // The second, from the form opened before, only fixes the title.
    const second = await asAdmin('PUT', `/api/admin/images/${image.id_image}`, {
      ...formOf(opened),
      titolo_img: 'Muro di via Roma, 12',
    });
    expect(second.statusCode).toBe(409);
    expect(second.json()).toEqual({
      detail:
        'Un altro amministratore ha modificato questa immagine dopo che l’hai aperta: ricarica per vedere i dati aggiornati e ripeti la modifica.',
    });
    const now = await listed(image.id_image);
    expect(now).toMatchObject({ titolo_img: 'Muro di via Roma', id_categoria: cat });
    expect([...now.tags].sort()).toEqual(['centro', 'roma']);
    expect((await t.app.inject(`/api/categories/${cat}`)).json().count).toBe(1);

    // Reloaded, the same change goes through.
    const again = await asAdmin('PUT', `/api/admin/images/${image.id_image}`, {
      ...formOf(now),
      titolo_img: 'Muro di via Roma, 12',
    });
    expect(again.statusCode).toBe(200);
    expect((await listed(image.id_image)).titolo_img).toBe('Muro di via Roma, 12');
  });

  it('does not bring back a tag deleted or renamed since the form was opened', async () => {
    const image = await publishedImage(t.app, user, { tags: ['refuso', 'vecchio'] });
    const opened = await listed(image.id_image);
    const tags = (await asAdmin('GET', '/api/admin/tags')).json<
      { id_tag: number; nome: string }[]
    >();
    const idOf = (nome: string) => tags.find((tag) => tag.nome === nome)?.id_tag;
    expect((await asAdmin('DELETE', `/api/admin/tags/${idOf('refuso')}`)).statusCode).toBe(200);
    const stale = await asAdmin('PUT', `/api/admin/images/${image.id_image}`, formOf(opened));
    expect(stale.statusCode).toBe(409);

    const reopened = await listed(image.id_image);
    expect(reopened.tags).toEqual(['vecchio']);
    const renamed = await asAdmin('PUT', `/api/admin/tags/${idOf('vecchio')}`, { nome: 'nuovo' });
    expect(renamed.statusCode).toBe(200);
    expect(
      (await asAdmin('PUT', `/api/admin/images/${image.id_image}`, formOf(reopened))).statusCode,
    ).toBe(409);
    const names = (await asAdmin('GET', '/api/admin/tags')).json<{ nome: string }[]>();
    expect(names.map((tag) => tag.nome)).not.toContain('refuso');
    expect(names.map((tag) => tag.nome)).not.toContain('vecchio');
    expect((await listed(image.id_image)).tags).toEqual(['nuovo']);
  });

  it('is stale once the image’s category was deleted and it moved to Non categorizzata', async () => {
    const cat = await createCategory(t.app, 'messaggi_da_chiudere');
    const image = await publishedImage(t.app, user, { categoryId: cat });
    const opened = await listed(image.id_image);
    expect(opened.id_categoria).toBe(cat);
    expect((await asAdmin('DELETE', `/api/admin/categories/${cat}`)).statusCode).toBe(200);
    const stale = await asAdmin('PUT', `/api/admin/images/${image.id_image}`, {
      ...formOf(opened),
      titolo_img: 'Nuovo titolo',
    });
    expect(stale.statusCode).toBe(409);
    expect((await listed(image.id_image)).id_categoria).toBe(1);
  });

  it('still takes SPEC’s body without a revision', async () => {
    const image = await publishedImage(t.app, user, { title: 'Prima' });
    await asAdmin('PUT', `/api/admin/images/${image.id_image}`, { titolo_img: 'Seconda' });
    const plain = await asAdmin('PUT', `/api/admin/images/${image.id_image}`, {
      titolo_img: 'Terza',
    });
    expect(plain.statusCode).toBe(200);
    expect((await listed(image.id_image)).titolo_img).toBe('Terza');
  });
});

describe('a user edited from a stale form', () => {
  interface Detail {
    id_utente: number;
    username: string;
    email: string;
    is_active: boolean;
    is_superuser: boolean;
    revision: number;
  }
  const formOf = (user: Detail) => ({
    username: user.username,
    email: user.email,
    password: '',
    is_active: user.is_active,
    is_superuser: user.is_superuser,
    revision: user.revision,
  });

  it('is refused with 409 instead of reactivating an account deactivated meanwhile', async () => {
    const target = await createUser(t.app);
    const opened = (await asAdmin('GET', `/api/admin/users/${target.id}`)).json<Detail>();
    const listedRow = (await asAdmin('GET', '/api/admin/users'))
      .json<{ users: Detail[] }>()
      .users.find((row) => row.id_utente === target.id);
    expect(listedRow?.revision).toBe(opened.revision);

    const deactivated = await asAdmin('PUT', `/api/admin/users/${target.id}`, {
      ...formOf(opened),
      is_active: false,
    });
    expect(deactivated.statusCode).toBe(200);
    expect(deactivated.json<Detail>().revision).toBeGreaterThan(opened.revision);

    const stale = await asAdmin('PUT', `/api/admin/users/${target.id}`, {
      ...formOf(opened),
      username: `${target.username}x`,
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({
      detail:
        'Questo utente è stato modificato da qualcun altro dopo che l’hai aperto: ricarica per vedere i dati aggiornati e ripeti la modifica.',
    });
    const now = (await asAdmin('GET', `/api/admin/users/${target.id}`)).json<Detail>();
    expect(now).toMatchObject({ username: target.username, is_active: false });
    expect((await login(t.app, target.username, target.password)).statusCode).toBe(403);

    // Without a revision, as SPEC's body, the edit is applied.
    const plain = await asAdmin('PUT', `/api/admin/users/${target.id}`, {
      username: target.username,
      email: target.email,
      is_active: true,
    });
    expect(plain.statusCode).toBe(200);
  });

  it('is stale after the user changed their own profile', async () => {
    const target = await createUser(t.app);
    const opened = (await asAdmin('GET', `/api/admin/users/${target.id}`)).json<Detail>();
    const own = await t.app.inject({
      method: 'PUT',
      url: '/api/users/me',
      headers: bearer(target.token),
      payload: { username: `${target.username}n` },
    });
    expect(own.statusCode).toBe(200);
    const stale = await asAdmin('PUT', `/api/admin/users/${target.id}`, {
      ...formOf(opened),
      is_superuser: true,
    });
    expect(stale.statusCode).toBe(409);
    const now = (await asAdmin('GET', `/api/admin/users/${target.id}`)).json<Detail>();
    expect(now).toMatchObject({ username: `${target.username}n`, is_superuser: false });
  });
});

describe('a category or a tag renamed from a stale dialog', () => {
  interface Named {
    nome: string;
    revision: number;
  }
  const kinds = [
    {
      kind: 'categories',
      id: 'id_categoria',
      names: ['messaggi_pontile', 'Pontile vecchio', 'Pontile nuovo'],
      detail:
        'Un altro amministratore ha rinominato questa categoria dopo che l’hai aperta: ricarica per vedere i dati aggiornati e ripeti la modifica.',
    },
    {
      kind: 'tags',
      id: 'id_tag',
      names: ['pontile', 'pontile vecchio', 'pontile nuovo'],
      detail:
        'Un altro amministratore ha rinominato questo tag dopo che l’hai aperto: ricarica per vedere i dati aggiornati e ripeti la modifica.',
    },
  ] as const;

  for (const { kind, id, names, detail } of kinds) {
    it(`${kind}: is refused with 409 and keeps the first rename; without a revision it is applied`, async () => {
      const [first, second, third] = names;
      const created = await asAdmin('POST', `/api/admin/${kind}`, { nome: first });
      expect(created.statusCode).toBe(201);
      const url = `/api/admin/${kind}/${created.json<Record<string, number>>()[id]}`;
      const listedNow = async () =>
        (await asAdmin('GET', `/api/admin/${kind}?search=pontile`)).json<Named[]>();
      const [opened] = await listedNow();
      expect(opened).toMatchObject({ nome: first, revision: 0 });

      const renamed = await asAdmin('PUT', url, { nome: second, revision: opened!.revision });
      expect(renamed.statusCode).toBe(200);
      expect(renamed.json()).toMatchObject({ nome: second, revision: 1 });

      // The second dialog, opened before the first rename.
      const stale = await asAdmin('PUT', url, { nome: third, revision: opened!.revision });
      expect(stale.statusCode).toBe(409);
      expect(stale.json()).toEqual({ detail });
      expect(await listedNow()).toMatchObject([{ nome: second, revision: 1 }]);

      // A revision past any stored one is a stale dialog too, not a database error.
      const far = await asAdmin('PUT', url, { nome: third, revision: 2_147_483_647 });
      expect(far.statusCode).toBe(409);
      for (const revision of [-1, 2_147_483_648, '1', 1.5]) {
        const bad = await asAdmin('PUT', url, { nome: third, revision });
        expect(bad.statusCode, String(revision)).toBe(400);
      }
      expect(await listedNow()).toMatchObject([{ nome: second, revision: 1 }]);

      // SPEC's body, without a revision: applied as before.
      const plain = await asAdmin('PUT', url, { nome: third });
      expect(plain.statusCode).toBe(200);
      expect(await listedNow()).toMatchObject([{ nome: third, revision: 2 }]);

      const gone = await asAdmin('DELETE', url);
      expect(gone.statusCode).toBe(200);
      const missing = await asAdmin('PUT', url, { nome: first, revision: 2 });
      expect(missing.statusCode).toBe(404);
    });

    it(`${kind}: a stale dialog is told so before the name it chose is found taken`, async () => {
      const [first, second] = names;
      const created = async (nome: string) => {
        const answer = await asAdmin('POST', `/api/admin/${kind}`, { nome: `${nome} doppio` });
        expect(answer.statusCode).toBe(201);
        return answer.json<Named & Record<string, number>>();
      };
      const target = await created(first);
      const other = await created(second);
      const url = `/api/admin/${kind}/${target[id]}`;
      const renamed = await asAdmin('PUT', url, {
        nome: `${first} doppio rinominato`,
        revision: 0,
      });
      expect(renamed.statusCode).toBe(200);

      // The second dialog, opened before that rename, picks the other row's name: 409, which
      // makes the web app reload the list, not 400 over a list that is out of date.
      const stale = await asAdmin('PUT', url, { nome: other.nome, revision: 0 });
      expect(stale.statusCode).toBe(409);
      expect(stale.json()).toEqual({ detail });
      const after = (await asAdmin('GET', `/api/admin/${kind}?search=doppio`)).json<Named[]>();
      expect(after.map((row) => row.nome).sort()).toEqual(
        [`${first} doppio rinominato`, other.nome].sort(),
      );

      // A current dialog picking a taken name is told the name is taken.
      const taken = await asAdmin('PUT', url, { nome: other.nome, revision: 1 });
      expect(taken.statusCode).toBe(400);
      expect(taken.json<{ detail: string }>().detail).toMatch(/^Esiste già un/u);
      // A row gone is a 404 whatever the dialog chose.
      const missing = await asAdmin('PUT', `/api/admin/${kind}/2147483647`, {
        nome: other.nome,
        revision: 0,
      });
      expect(missing.statusCode).toBe(404);
      // A blank name is refused as such, stale dialog or not (the field's own check).
      const blank = await asAdmin('PUT', url, { nome: '   ', revision: 0 });
      expect(blank.statusCode).toBe(400);
      expect(blank.json()).toEqual({ detail: 'Il nome non può essere vuoto.' });
    });
  }
});
