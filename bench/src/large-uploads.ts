import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { MAX_INPUT_PIXELS } from '../../server/src/lib/imaging.js';
import { dropCatalogue, generateCatalogue } from './generate.js';
import { ensureServerBuild, mb, startServer } from './load.js';
import { prepareMixed, uploadBody } from './mixed.js';

/*
 * `npm run bench:large-uploads -- [--only prog444,png] [--rounds 1] [--at-once 4] [--baseline <checkout>]`
 *
 * Issue 8, goal 6's memory bound (server peak RSS ≤ 400 MB with 4 uploads in flight) for the
 * largest files an upload may be: 40 MP (MAX_INPUT_PIXELS), each kind of file on a fresh
 * server (VmHWM only grows), 4 (`--at-once`) uploads sent at once `--rounds` times, each round waiting for
 * the full-size files. The server runs its job worker, as in production. A progressive JPEG
 * is the costly case: libjpeg keeps the whole image's DCT coefficients (2 bytes a sample) to
 * decode it; so does an interlaced PNG or a lossless WebP its pixels. With `--baseline`, each
 * kind is sent to that checkout's build too (its bench/bench-server.mjs and server/dist), right
 * after this build's. Not part of `npm test`.
 */

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    rounds: { type: 'string', default: '1' },
    'at-once': { type: 'string', default: '4' },
    baseline: { type: 'string' },
  },
});
const ROUNDS = Number(values.rounds);
const AT_ONCE = Number(values['at-once']);
const say = (text: string) => process.stdout.write(`${text}\n`);

/** 4:3 at just under MAX_INPUT_PIXELS: 7296×5472 = 39.9 MP. */
const WIDTH = 7296;
const HEIGHT = 5472;

/**
 * A photo-like image that fits the 5 MB upload limit at 40 MP: smooth colour fields (noise
 * blurred at an eighth of the size, then enlarged) and large text.
 */
async function photoPixels() {
  const small = await sharp({
    create: {
      width: WIDTH / 8,
      height: HEIGHT / 8,
      channels: 3,
      background: '#777777',
      noise: { type: 'gaussian', mean: 120, sigma: 60 },
    },
  })
    .blur(3)
    .png()
    .toBuffer();
  const text = Buffer.from(
    `<svg width="${String(WIDTH)}" height="${String(HEIGHT)}"><text x="600" y="2900" ` +
      `font-size="900" fill="#f2f2f2" font-family="DejaVu Sans">MURO 40</text></svg>`,
  );
  return sharp(small)
    .resize(WIDTH, HEIGHT, { kernel: 'cubic' })
    .composite([{ input: text }])
    .png({ compressionLevel: 1 })
    .toBuffer();
}

/** A graphic (flat colours) as PNG: a 40 MP photo does not fit 5 MB as PNG. */
function graphicPng() {
  const rects = Array.from({ length: 40 }, (_, i) => {
    const colour = (((i * 2654435761) >>> 8) & 0xffffff).toString(16).padStart(6, '0');
    return `<rect x="${String((i * 613) % WIDTH)}" y="${String((i * 457) % HEIGHT)}" width="900" height="500" fill="#${colour}"/>`;
  }).join('');
  const svg = Buffer.from(
    `<svg width="${String(WIDTH)}" height="${String(HEIGHT)}"><rect width="100%" height="100%" fill="#d8d0c0"/>${rects}` +
      `<text x="600" y="2900" font-size="900" fill="#202020" font-family="DejaVu Sans">MURO 40</text></svg>`,
  );
  return sharp(svg).png({ compressionLevel: 9 }).toBuffer();
}

async function main(): Promise<void> {
  ensureServerBuild();
  if (WIDTH * HEIGHT > MAX_INPUT_PIXELS) throw new Error('the test image is over the limit');
  say(
    `Making the files (${String(WIDTH)}×${String(HEIGHT)}, ${((WIDTH * HEIGHT) / 1e6).toFixed(1)} MP)…`,
  );
  const pixels = await photoPixels();
  const jpeg = (progressive: boolean, chromaSubsampling: string) =>
    sharp(pixels).jpeg({ quality: 82, progressive, chromaSubsampling }).toBuffer();
  const kinds: Record<string, () => Promise<Buffer>> = {
    prog444: () => jpeg(true, '4:4:4'),
    prog420: () => jpeg(true, '4:2:0'),
    base444: () => jpeg(false, '4:4:4'),
    png: graphicPng,
    'png-interlaced': async () =>
      sharp(await graphicPng())
        .png({ progressive: true })
        .toBuffer(),
    'png16-interlaced': async () =>
      sharp(await graphicPng())
        .toColourspace('rgb16')
        .png({ progressive: true })
        .toBuffer(),
    webp: () => sharp(pixels).webp({ quality: 80 }).toBuffer(),
    'webp-lossless': async () =>
      sharp(await graphicPng())
        .webp({ lossless: true })
        .toBuffer(),
  };
  const chosen = values.only === undefined ? Object.keys(kinds) : values.only.split(',');
  const files = new Map<string, Buffer>();
  for (const name of chosen) {
    const make = kinds[name];
    if (make === undefined) throw new Error(`unknown kind ${name}`);
    files.set(name, await make());
  }

  const catalogue = await generateCatalogue({ engine: 'sqlite', images: 100, postgresUrl: '' });
  try {
    const setup = await prepareMixed(catalogue);
    const builds = [{ label: 'this build', benchServer: undefined as string | undefined }];
    if (values.baseline !== undefined) {
      builds.push({
        label: `baseline (${path.basename(path.resolve(values.baseline))})`,
        benchServer: path.join(path.resolve(values.baseline), 'bench/bench-server.mjs'),
      });
    }
    for (const [name, bytes] of files) {
      for (const build of builds) {
        const server = await startServer(
          { DATA_DIR: catalogue.dataDir, LOG_LEVEL: 'warn', JOBS_IN_SERVER: '1', ...setup.env },
          build.benchServer,
        );
        try {
          const send = async (user: number) => {
            const { body, type } = uploadBody(bytes, catalogue.meta.categoryId);
            const started = performance.now();
            const response = await fetch(`${server.origin}/api/images/export`, {
              method: 'POST',
              headers: { authorization: setup.authorisations[user] ?? '', 'content-type': type },
              body,
            });
            const text = await response.text();
            if (response.status !== 201) {
              throw new Error(`${name}: upload answered ${String(response.status)}: ${text}`);
            }
            const { filename } = JSON.parse(text) as { filename: string };
            const ms = performance.now() - started;
            const file = path.join(catalogue.dataDir, 'images', filename);
            while (!fs.existsSync(file)) await new Promise((resolve) => setTimeout(resolve, 5));
            return ms;
          };
          const before = server.rss();
          const times: number[] = [];
          for (let round = 0; round < ROUNDS; round += 1) {
            times.push(
              ...(await Promise.all(Array.from({ length: AT_ONCE }, (_, user) => send(user)))),
            );
          }
          times.sort((a, b) => a - b);
          say(
            `${build.label}, ${name} (${(bytes.length / 1024 / 1024).toFixed(2)} MB): ${String(AT_ONCE)} at once × ${String(ROUNDS)}, all 201; server RSS ` +
              `before ${mb(before)}, peak (VmHWM) ${mb(server.peakRss())}; answered in ` +
              `${times.map((ms) => ms.toFixed(0)).join(', ')} ms`,
          );
        } finally {
          await server.stop();
        }
      }
    }
  } finally {
    await dropCatalogue(catalogue, '');
  }
}

await main();
