import { randomBytes, randomInt } from 'node:crypto';
import type autocannon from 'autocannon';
import sharp from 'sharp';
import { TAGS } from '../../server/src/demo/phrases.js';
import { createTokenService } from '../../server/src/modules/auth/tokens.js';
import type { Catalogue } from './generate.js';
import { load, type LoadResult, type RequestShape, type ServerHandle } from './load.js';

/*
 * Issue 7's mixed traffic: browsing (the gallery and a category's gallery), image details,
 * searches, like toggles by logged-in users and uploads, all at once against one server. One
 * autocannon instance per kind, run in parallel: each kind keeps its own latencies and its own
 * counts of errors, and the share of each kind is set by its number of connections. Every
 * answer is expected to be a 2xx (a like toggles, so it answers 200 'added' or 'removed'), so
 * any other status, and any socket error or timeout, is an error.
 */

/** Users 1..USERS of the generated catalogue act as the logged-in visitors. */
const USERS = 300;
/** Distinct photos the uploaders send (made once, in memory). */
const PHOTOS = 16;

export interface MixedSetup {
  /** Handed to the server (JWT_SECRET), so the tokens minted here are valid there. */
  env: Record<string, string>;
  kinds: Kind[];
  /** `Bearer …` headers of the logged-in visitors, valid with `env`. */
  authorisations: string[];
}

export interface Kind {
  name: string;
  /** Share of the connections. */
  weight: number;
  path: string;
  request: RequestShape;
}

/** Picks one of `items` per request. */
function any<T>(items: readonly T[]): T {
  return items[randomInt(items.length)] as T;
}

/** A request built afresh each time (`setupRequest`), from the defaults autocannon passes in. */
function each(build: () => autocannon.Request): RequestShape {
  return {
    requests: [
      {
        setupRequest: (request) => {
          const next = build();
          return { ...request, ...next, headers: { ...request.headers, ...next.headers } };
        },
      },
    ],
  };
}

/** A multipart/form-data body with the upload form's fields (SPEC §7). */
export function uploadBody(photo: Buffer, categoryId: number): { body: Buffer; type: string } {
  const boundary = `----muriload${randomBytes(8).toString('hex')}`;
  const field = (name: string, value: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  return {
    body: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="muro.jpg"\r\n` +
          'Content-Type: image/jpeg\r\n\r\n',
      ),
      photo,
      Buffer.from('\r\n'),
      Buffer.from(field('title', 'Scritta sul muro')),
      Buffer.from(field('category_id', String(categoryId))),
      Buffer.from(field('tags', JSON.stringify([any(TAGS)]))),
      Buffer.from(`--${boundary}--\r\n`),
    ]),
    type: `multipart/form-data; boundary=${boundary}`,
  };
}

export async function prepareMixed(catalogue: Catalogue): Promise<MixedSetup> {
  const { meta } = catalogue;
  const secret = randomBytes(32).toString('hex');
  const tokens = createTokenService(secret);
  // The generated users have token_version 0; tokens minted with the server's own signer.
  const authorisations = Array.from(
    { length: USERS },
    (_, i) => `Bearer ${tokens.sign({ userId: i + 1, version: 0 })}`,
  );
  // Small real JPEGs (sharp, once): the server decodes and re-encodes every upload.
  const photos = await Promise.all(
    Array.from({ length: PHOTOS }, (_, i) =>
      sharp({
        create: {
          width: 480 + i * 8,
          height: 360,
          channels: 3,
          background: { r: (i * 37) % 256, g: (i * 91) % 256, b: (i * 53) % 256 },
        },
      })
        .jpeg({ quality: 80 })
        .toBuffer(),
    ),
  );
  const uploads = photos.map((photo) => uploadBody(photo, meta.categoryId));
  const words = [meta.commonWord, ...TAGS.slice(0, 20)];
  const imageId = () => 1 + randomInt(meta.images);
  const pages = 10;

  const kinds: Kind[] = [
    {
      name: 'gallery',
      weight: 4,
      path: '/api/images?limit=120',
      request: each(() => ({
        path: `/api/images?limit=120&skip=${String(120 * randomInt(pages))}`,
      })),
    },
    {
      name: 'category',
      weight: 2,
      path: `/api/categories/${String(meta.categoryId)}/images?limit=120`,
      request: {},
    },
    {
      name: 'detail',
      weight: 4,
      path: '/api/images/1',
      request: each(() => ({ path: `/api/images/${String(imageId())}` })),
    },
    {
      name: 'search',
      weight: 2,
      path: '/api/search',
      request: each(() => ({ path: `/api/search?query=${encodeURIComponent(any(words))}` })),
    },
    {
      name: 'like',
      weight: 3,
      path: '/api/images/1/interactions',
      request: {
        method: 'POST',
        ...each(() => ({
          method: 'POST',
          path: `/api/images/${String(imageId())}/interactions`,
          headers: { authorization: any(authorisations), 'content-type': 'application/json' },
          body: Buffer.from('{"id_tipo_interazione":1}'),
        })),
      },
    },
    {
      name: 'upload',
      weight: 1,
      path: '/api/images/export',
      request: {
        method: 'POST',
        ...each(() => {
          const upload = any(uploads);
          return {
            method: 'POST',
            path: '/api/images/export',
            headers: { authorization: any(authorisations), 'content-type': upload.type },
            body: upload.body,
          };
        }),
      },
    },
  ];
  return {
    env: {
      JWT_SECRET: secret,
      // Every upload stays pending (nobody moderates during the run): no cap on the queue.
      MAX_PENDING_UPLOADS: '999999',
      RATE_LIMITS: '0',
    },
    kinds,
    authorisations,
  };
}

/** Anonymous views (interaction 7) of random images, as every image page records one (D5). */
export function viewKind(catalogue: Catalogue): Kind {
  const images = catalogue.meta.images;
  return {
    name: 'view',
    weight: 1,
    path: '/api/images/1/interactions',
    request: {
      method: 'POST',
      ...each(() => ({
        method: 'POST',
        path: `/api/images/${String(1 + randomInt(images))}/interactions`,
        headers: { 'content-type': 'application/json' },
        body: Buffer.from('{"id_tipo_interazione":7}'),
      })),
    },
  };
}

/** All kinds at once for `seconds`; `connections` are shared out by weight (at least one each). */
export async function runMixed(
  server: ServerHandle,
  setup: MixedSetup,
  options: { seconds: number; connections: number },
): Promise<LoadResult[]> {
  const total = setup.kinds.reduce((sum, kind) => sum + kind.weight, 0);
  return Promise.all(
    setup.kinds.map((kind) =>
      load(server, kind.name, kind.path, {
        seconds: options.seconds,
        connections: Math.max(1, Math.round((options.connections * kind.weight) / total)),
        request: kind.request,
      }),
    ),
  );
}
