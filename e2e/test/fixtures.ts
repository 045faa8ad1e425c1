import { randomBytes } from 'node:crypto';
import sharp from 'sharp';

/*
 * Data for browser tests, made through the real API of the server under test: users, uploads
 * and approvals, exactly as people and administrators make them.
 */

export interface ApiUser {
  id: number;
  username: string;
  email: string;
  password: string;
  token: string;
}

async function json<T>(response: Response): Promise<T> {
  const body = (await response.json()) as T;
  if (!response.ok) throw new Error(`${response.status}: ${JSON.stringify(body)}`);
  return body;
}

/** A call to the API of the server under test as the holder of `token`; throws unless 2xx. */
export async function apiAs<T>(
  baseUrl: string,
  token: string,
  path: string,
  init: RequestInit = {},
): Promise<T> {
  return json<T>(
    await fetch(`${baseUrl}/api${path}`, {
      ...init,
      headers: {
        authorization: `Bearer ${token}`,
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
    }),
  );
}

export async function registerUser(baseUrl: string, prefix = 'utente'): Promise<ApiUser> {
  const username = `${prefix}${randomBytes(3).toString('hex')}`;
  const password = 'password-sicura';
  const email = `${username}@example.it`;
  const body = await json<{ access_token: string; user: { id_utente: number } }>(
    await fetch(`${baseUrl}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        username,
        email,
        password,
        age_confirmed: true,
      }),
    }),
  );
  return { id: body.user.id_utente, username, email, password, token: body.access_token };
}

export async function loginAdmin(baseUrl: string): Promise<string> {
  const body = await json<{ access_token: string }>(
    await fetch(`${baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'admin-password' }),
    }),
  );
  return body.access_token;
}

/** A small generated JPEG with a colour and some text, so pictures differ. */
export async function jpeg(
  text: string,
  colour = '#c9b99a',
  width = 800,
  height = 600,
): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="100%" height="100%" fill="${colour}"/>
    <text x="50%" y="50%" font-size="64" text-anchor="middle" fill="#222">${text}</text></svg>`;
  return sharp(Buffer.from(svg)).jpeg().toBuffer();
}

export async function upload(
  baseUrl: string,
  user: ApiUser,
  title: string,
  options: { categoryId?: number; tags?: string[]; colour?: string } = {},
): Promise<{ id_image: number; filename: string }> {
  const form = new FormData();
  const bytes = new Uint8Array(await jpeg(title, options.colour));
  form.append('file', new Blob([bytes], { type: 'image/jpeg' }), `${title}.jpg`);
  form.append('title', title);
  form.append('category_id', String(options.categoryId ?? 1));
  form.append('tags', JSON.stringify(options.tags ?? []));
  return json(
    await fetch(`${baseUrl}/api/images/export`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}` },
      body: form,
    }),
  );
}

export async function approve(
  baseUrl: string,
  adminToken: string,
  filename: string,
): Promise<void> {
  await json(
    await fetch(`${baseUrl}/api/admin/approve-image/${filename}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${adminToken}` },
    }),
  );
}

export async function createCategory(
  baseUrl: string,
  adminToken: string,
  nome: string,
): Promise<number> {
  const body = await json<{ id_categoria: number }>(
    await fetch(`${baseUrl}/api/admin/categories`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ nome }),
    }),
  );
  return body.id_categoria;
}

/** Uploads and approves: a public picture in one call. */
export async function publish(
  baseUrl: string,
  user: ApiUser,
  adminToken: string,
  title: string,
  options: { categoryId?: number; tags?: string[]; colour?: string } = {},
): Promise<number> {
  const image = await upload(baseUrl, user, title, options);
  await approve(baseUrl, adminToken, image.filename);
  return image.id_image;
}

/**
 * A picture of coloured squares drawn from `seed`: no writing on it, and nothing like the
 * picture of another seed, so the same seed uploaded twice is a duplicate and nothing else is.
 */
export async function noise(seed: number, width = 800, height = 600): Promise<Buffer> {
  const columns = 32;
  const rows = 24;
  const pixels = Buffer.alloc(columns * rows * 3);
  let state = seed >>> 0;
  for (let i = 0; i < pixels.length; i += 1) {
    // A linear congruential generator: the same seed always draws the same picture.
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    pixels[i] = state >>> 24;
  }
  return sharp(pixels, { raw: { width: columns, height: rows, channels: 3 } })
    .resize(width, height, { kernel: 'nearest' })
    .jpeg()
    .toBuffer();
}

/** Uploads these JPEG bytes, as `upload` does with a generated picture. */
export async function uploadBytes(
  baseUrl: string,
  user: ApiUser,
  title: string,
  bytes: Buffer,
  options: { categoryId?: number; tags?: string[] } = {},
): Promise<{ id_image: number; filename: string }> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), `${title}.jpg`);
  form.append('title', title);
  form.append('category_id', String(options.categoryId ?? 1));
  form.append('tags', JSON.stringify(options.tags ?? []));
  return json(
    await fetch(`${baseUrl}/api/images/export`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}` },
      body: form,
    }),
  );
}
