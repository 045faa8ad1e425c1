import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import sharp from 'sharp';
import { processUpload, THUMB_WIDTH } from '../../server/src/lib/imaging.js';
import { dropCatalogue, generateCatalogue } from './generate.js';
import { ensureServerBuild, mb, startServer } from './load.js';
import { prepareMixed, uploadBody } from './mixed.js';

/*
 * `npm run bench:pipeline -- [--files 8] [--uploads 12]`
 *
 * Issue 8, goal 6, the image pipeline, on 12-megapixel JPEGs (4000×3000, made here):
 * - upload to pending: sequential uploads through the real server (multipart, decoding, the
 *   three WebP sizes and the ThumbHash, files written, the row and its job committed; OCR runs
 *   later, in jobs): p50 and p95;
 * - thumbnails side by side, the same files and the same output (400 px wide WebP, quality 72),
 *   two at a time on the two cores: sharp, as the server makes them, against ImageMagick's
 *   `convert -thumbnail` (Debian's `imagemagick` package; the run says so when it is missing);
 * - the server's peak RSS with 4 uploads in flight for the whole of `--uploads` rounds.
 * Not part of `npm test`.
 */

const { values } = parseArgs({
  options: {
    files: { type: 'string', default: '8' },
    uploads: { type: 'string', default: '12' },
  },
});
const FILES = Number(values.files);
const UPLOADS = Number(values.uploads);
const run = promisify(execFile);
const say = (text: string) => process.stdout.write(`${text}\n`);

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;

/** A 12 MP photo-like JPEG: smooth colour fields, grain and a few hard edges. */
async function photo(seed: number): Promise<Buffer> {
  const width = 4000;
  const height = 3000;
  const base = await sharp({
    create: {
      width,
      height,
      channels: 3,
      background: '#777777',
      noise: { type: 'gaussian', mean: 110 + (seed % 5) * 10, sigma: 40 },
    },
  })
    .blur(1.2)
    .png()
    .toBuffer();
  const text = Buffer.from(
    `<svg width="${width}" height="${height}"><text x="300" y="1600" font-size="420" ` +
      `fill="#f2f2f2" font-family="DejaVu Sans">MURO ${String(seed)}</text></svg>`,
  );
  return sharp(base)
    .composite([{ input: text }])
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** Runs `tasks` with at most `limit` at once; resolves when all are done. */
async function pool(limit: number, tasks: Array<() => Promise<unknown>>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < tasks.length) {
        const task = tasks[next];
        next += 1;
        await task?.();
      }
    }),
  );
}

async function hasImageMagick(): Promise<boolean> {
  try {
    const { stdout } = await run('convert', ['-version']);
    return stdout.includes('ImageMagick');
  } catch {
    return false;
  }
}

async function main(): Promise<void> {
  ensureServerBuild();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'muri-pipeline-'));
  say(`Making ${String(FILES)} JPEGs of 4000×3000…`);
  const photos: Buffer[] = [];
  for (let i = 0; i < FILES; i += 1) {
    const bytes = await photo(i);
    photos.push(bytes);
    fs.writeFileSync(path.join(dir, `in-${String(i)}.jpg`), bytes);
  }
  const size = photos.reduce((sum, bytes) => sum + bytes.length, 0) / photos.length;
  say(
    `Machine: ${String(os.availableParallelism())} cores, Node ${process.version}, ` +
      `sharp ${sharp.versions.sharp} (libvips ${sharp.versions.vips}); ` +
      `JPEGs of ${mb(size)} on average`,
  );

  // Thumbnails, side by side.
  const sharpStart = performance.now();
  await pool(
    2,
    photos.map(
      (bytes, i) => () =>
        sharp(bytes)
          .rotate()
          .resize({ width: THUMB_WIDTH })
          .webp({ quality: 72 })
          .toFile(path.join(dir, `sharp-${String(i)}.webp`)),
    ),
  );
  const sharpRate = FILES / ((performance.now() - sharpStart) / 1000);
  say(`\nthumbnails (400 px WebP), two at a time: sharp ${sharpRate.toFixed(2)} files/s`);
  if (await hasImageMagick()) {
    const magickStart = performance.now();
    await pool(
      2,
      photos.map(
        (_, i) => () =>
          run('convert', [
            path.join(dir, `in-${String(i)}.jpg`),
            '-auto-orient',
            '-thumbnail',
            `${String(THUMB_WIDTH)}x`,
            '-quality',
            '72',
            path.join(dir, `magick-${String(i)}.webp`),
          ]),
      ),
    );
    const magickRate = FILES / ((performance.now() - magickStart) / 1000);
    say(
      `  ImageMagick convert -thumbnail ${magickRate.toFixed(2)} files/s: sharp is ` +
        `${(sharpRate / magickRate).toFixed(2)}× (goal ≥ 2.5×)`,
    );
  } else {
    say('  ImageMagick is not installed (apt-get install imagemagick): no comparison');
  }

  // Uploads through the real server.
  const catalogue = await generateCatalogue({ engine: 'sqlite', images: 1000, postgresUrl: '' });
  try {
    const setup = await prepareMixed(catalogue);
    const server = await startServer({
      DATA_DIR: catalogue.dataDir,
      LOG_LEVEL: 'warn',
      ...setup.env,
    });
    try {
      const send = async (bytes: Buffer) => {
        const { body, type } = uploadBody(bytes, catalogue.meta.categoryId);
        const started = performance.now();
        const response = await fetch(`${server.origin}/api/images/export`, {
          method: 'POST',
          headers: { authorization: setup.authorisations[0] ?? '', 'content-type': type },
          body,
        });
        if (response.status !== 201) {
          throw new Error(`upload answered ${String(response.status)}: ${await response.text()}`);
        }
        return performance.now() - started;
      };
      await send(photos[0] ?? Buffer.alloc(0)); // warm-up
      const times: number[] = [];
      for (let i = 0; i < UPLOADS; i += 1)
        times.push(await send(photos[i % FILES] ?? Buffer.alloc(0)));
      times.sort((a, b) => a - b);
      say(
        `\nupload to pending, one at a time (${String(UPLOADS)} uploads): p50 ` +
          `${percentile(times, 50).toFixed(0)} ms, p95 ${percentile(times, 95).toFixed(0)} ms ` +
          '(goal: p50 ≤ 250 ms)',
      );
      // The same files through processUpload alone, in this process: the share of the upload
      // spent decoding and encoding, against HTTP, multipart, files and database.
      const imaging: number[] = [];
      for (let i = 0; i < UPLOADS; i += 1) {
        const started = performance.now();
        await processUpload(photos[i % FILES] ?? Buffer.alloc(0));
        imaging.push(performance.now() - started);
      }
      imaging.sort((a, b) => a - b);
      say(
        `  of which decoding and encoding (processUpload alone, in the bench's process): ` +
          `p50 ${percentile(imaging, 50).toFixed(0)} ms`,
      );
      const before = server.peakRss();
      await pool(
        4,
        Array.from({ length: UPLOADS }, (_, i) => () => send(photos[i % FILES] ?? Buffer.alloc(0))),
      );
      say(
        `4 uploads in flight (${String(UPLOADS)} in all): server peak RSS ${mb(server.peakRss())} ` +
          `(before: ${mb(before)}; goal ≤ 400 MB)`,
      );
    } finally {
      await server.stop();
    }
  } finally {
    await dropCatalogue(catalogue, '');
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
