import { randomBytes } from 'node:crypto';
import zlib from 'node:zlib';
import sharp from 'sharp';
import type { App } from '../../src/app.js';
import { bearer, type TestUser } from './factories.js';

/** A JPEG made on the fly: no binary fixtures to keep in the repository. */
export function jpegBytes(
  options: {
    width?: number;
    height?: number;
    colour?: string;
    orientation?: number;
    exif?: Record<string, Record<string, string>>;
  } = {},
): Promise<Buffer> {
  let image = sharp({
    create: {
      width: options.width ?? 64,
      height: options.height ?? 48,
      channels: 3,
      background: options.colour ?? '#c04060',
    },
  }).jpeg({ quality: 80 });
  if (options.orientation !== undefined) {
    image = image.withMetadata({ orientation: options.orientation });
  }
  if (options.exif !== undefined) image = image.withExifMerge(options.exif);
  return image.toBuffer();
}

export function pngBytes(width = 64, height = 48): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: '#3060c0' } })
    .png()
    .toBuffer();
}

/**
 * A valid small PNG whose header claims width × height: a decompression bomb's shape,
 * without making the machine build one.
 */
export async function pngClaiming(width: number, height: number): Promise<Buffer> {
  const png = Buffer.from(await pngBytes(16, 16));
  // IHDR data starts after the 8-byte signature, the 4-byte length and the 4-byte type.
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(zlib.crc32(png.subarray(12, 29)), 29);
  return png;
}

export function webpBytes(width = 64, height = 48): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#40c060' } })
    .webp()
    .toBuffer();
}

/** An animated WebP of two frames, red then green. */
export async function animatedWebpBytes(width = 32, height = 24): Promise<Buffer> {
  const frame = (background: string) =>
    sharp({ create: { width, height, channels: 3, background } })
      .png()
      .toBuffer();
  return sharp([await frame('#ff0000'), await frame('#00ff00')], { join: { animated: true } })
    .webp()
    .toBuffer();
}

/** A PNG chunk: length, type, data and the CRC of type and data. */
function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * An APNG of `frames` frames (1 makes a still image that still carries the animation chunks),
 * red then green, built chunk by chunk: sharp writes none.
 */
export async function apngBytes(frames: 1 | 2, width = 16, height = 16): Promise<Buffer> {
  const still = (background: string) =>
    sharp({ create: { width, height, channels: 3, background } })
      .png()
      .toBuffer();
  const chunksOf = (png: Buffer) => {
    const chunks: Array<{ type: string; data: Buffer }> = [];
    for (let at = 8; at < png.length;) {
      const length = png.readUInt32BE(at);
      chunks.push({
        type: png.toString('latin1', at + 4, at + 8),
        data: png.subarray(at + 8, at + 8 + length),
      });
      at += 12 + length;
    }
    return chunks;
  };
  const imageData = (png: Buffer) =>
    Buffer.concat(
      chunksOf(png)
        .filter((c) => c.type === 'IDAT')
        .map((c) => c.data),
    );
  const first = await still('#ff0000');
  const header = chunksOf(first).find((c) => c.type === 'IHDR')!.data;
  const animationControl = Buffer.alloc(8);
  animationControl.writeUInt32BE(frames, 0); // num_frames; num_plays 0 = for ever
  const frameControl = (sequence: number) => {
    const data = Buffer.alloc(26);
    data.writeUInt32BE(sequence, 0);
    data.writeUInt32BE(width, 4);
    data.writeUInt32BE(height, 8);
    data.writeUInt16BE(1, 20); // delay 1/2 s
    data.writeUInt16BE(2, 22);
    return data;
  };
  const parts = [
    first.subarray(0, 8),
    pngChunk('IHDR', header),
    pngChunk('acTL', animationControl),
    pngChunk('fcTL', frameControl(0)),
    pngChunk('IDAT', imageData(first)),
  ];
  if (frames === 2) {
    const sequence = Buffer.alloc(4);
    sequence.writeUInt32BE(2);
    parts.push(
      pngChunk('fcTL', frameControl(1)),
      pngChunk('fdAT', Buffer.concat([sequence, imageData(await still('#00ff00'))])),
    );
  }
  parts.push(pngChunk('IEND', Buffer.alloc(0)));
  return Buffer.concat(parts);
}

export interface Part {
  name: string;
  value: string | Buffer;
  filename?: string;
  contentType?: string;
}

/** A multipart/form-data body, built by hand so tests control every byte. */
export function multipart(parts: Part[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----muri${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition =
      part.filename === undefined
        ? `form-data; name="${part.name}"`
        : `form-data; name="${part.name}"; filename="${part.filename}"`;
    const type = part.contentType === undefined ? '' : `Content-Type: ${part.contentType}\r\n`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`));
    chunks.push(typeof part.value === 'string' ? Buffer.from(part.value) : part.value);
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

export function postUpload(app: App, token: string | undefined, parts: Part[]) {
  const body = multipart(parts);
  return app.inject({
    method: 'POST',
    url: '/api/images/export',
    headers: { ...body.headers, ...(token === undefined ? {} : bearer(token)) },
    payload: body.payload,
  });
}

export interface UploadOptions {
  title?: string;
  categoryId?: number;
  tags?: string[];
  bytes?: Buffer;
}

/** Uploads through the real endpoint, as the web app does (SPEC §7 fields). */
export async function uploadImage(
  app: App,
  user: TestUser,
  options: UploadOptions = {},
): Promise<{ id_image: number; filename: string }> {
  const response = await postUpload(app, user.token, [
    {
      name: 'file',
      value: options.bytes ?? (await jpegBytes()),
      filename: 'foto.jpg',
      contentType: 'image/jpeg',
    },
    { name: 'title', value: options.title ?? 'foto.jpg' },
    { name: 'category_id', value: String(options.categoryId ?? 1) },
    { name: 'tags', value: JSON.stringify(options.tags ?? []) },
  ]);
  if (response.statusCode !== 201) {
    throw new Error(`upload failed: ${response.statusCode} ${response.body}`);
  }
  return response.json();
}

/**
 * Makes an image public the way approval does: status, publication time and the approved
 * counts of its category and tags.
 */
export async function approve(app: App, imageId: number, publishedAt = new Date()): Promise<void> {
  await app.ctx.database.db
    .updateTable('images')
    .set({ status: 'approved', published_at: publishedAt.toISOString() })
    .where('id_image', '=', imageId)
    .execute();
  await app.ctx.taxonomy.recountAll();
  await app.ctx.search.reindexImage(imageId);
  // Written past the API, so the lists kept for anonymous visitors are emptied by hand.
  app.publicCache.clear();
}

export async function createCategory(app: App, nome: string): Promise<number> {
  const row = await app.ctx.database.db
    .insertInto('categories')
    .values({ nome, nome_key: nome.toLowerCase(), created_at: new Date().toISOString() })
    .returning('id_categoria')
    .executeTakeFirstOrThrow();
  return row.id_categoria;
}

/** Uploads and approves: a public image in one call. */
export async function publishedImage(
  app: App,
  user: TestUser,
  options: UploadOptions & { publishedAt?: Date } = {},
): Promise<{ id_image: number; filename: string }> {
  const image = await uploadImage(app, user, options);
  await approve(app, image.id_image, options.publishedAt);
  return image;
}
