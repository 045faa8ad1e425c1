import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import sharp from 'sharp';
import { encodeFullSize, processUpload, THUMB_WIDTH } from '../../server/src/lib/imaging.js';
import { dropCatalogue, generateCatalogue, type Catalogue } from './generate.js';
import { ensureServerBuild, mb, startServer, type ServerHandle } from './load.js';
import { prepareMixed, uploadBody } from './mixed.js';

/*
 * `npm run bench:pipeline -- [--files 8] [--uploads 12] [--baseline <checkout>]`
 *
 * Issue 8, goal 6, the image pipeline, on 12-megapixel JPEGs (4000×3000, made here):
 * - upload to pending: sequential uploads through the real server (multipart, decoding, the
 *   display and thumbnail WebPs and the ThumbHash, files and the full size's pixels written,
 *   the row and its job committed; the full-size WebP and the OCR come later, in jobs): p50
 *   and p95, one at a time (each once the previous full size exists) and back to back;
 * - thumbnails side by side, the same files and the same output (400 px wide WebP, quality 72),
 *   two at a time on the two cores: sharp, as the server makes them, against ImageMagick's
 *   `convert -thumbnail` (Debian's `imagemagick` package; the run says so when it is missing);
 * - the server's peak RSS with 4 uploads in flight for the whole of `--uploads` rounds;
 * - with `--baseline <dir>` (another checkout, its server built: `npm run build -w server`
 *   there), the same uploads against that build too, the two taking turns in one run.
 * The servers run their job worker, as in production: the full-size file is made by a job
 * after the answer, and the run reports how long after.
 * Not part of `npm test`.
 */

const { values } = parseArgs({
  options: {
    files: { type: 'string', default: '8' },
    uploads: { type: 'string', default: '12' },
    baseline: { type: 'string' },
  },
});
const BASELINE = values.baseline;
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

  // Uploads through the real server(s): this build, and with --baseline another checkout's
  // build (its own bench/bench-server.mjs and server/dist) on a catalogue of its own.
  const builds = [{ label: 'this build', benchServer: undefined as string | undefined }];
  if (BASELINE !== undefined) {
    builds.push({
      label: `baseline (${path.basename(path.resolve(BASELINE))})`,
      benchServer: path.join(path.resolve(BASELINE), 'bench/bench-server.mjs'),
    });
  }
  const servers: Array<{
    label: string;
    server: ServerHandle;
    catalogue: Catalogue;
    authorisation: string;
  }> = [];
  try {
    for (const build of builds) {
      const catalogue = await generateCatalogue({
        engine: 'sqlite',
        images: 1000,
        postgresUrl: '',
      });
      const setup = await prepareMixed(catalogue);
      const server = await startServer(
        {
          DATA_DIR: catalogue.dataDir,
          LOG_LEVEL: 'warn',
          // The job worker runs in the server, as in production: the full-size encode this
          // build does after the answer is billed to the uploads it competes with. (The OCR
          // of each upload runs too, in a process of its own at the lowest CPU priority.)
          JOBS_IN_SERVER: '1',
          ...setup.env,
        },
        build.benchServer,
      );
      servers.push({
        label: build.label,
        server,
        catalogue,
        authorisation: setup.authorisations[0] ?? '',
      });
    }
    const photoAt = (i: number) => photos[i % FILES] ?? Buffer.alloc(0);
    const send = async (target: (typeof servers)[number], bytes: Buffer) => {
      const { body, type } = uploadBody(bytes, target.catalogue.meta.categoryId);
      const started = performance.now();
      const response = await fetch(`${target.server.origin}/api/images/export`, {
        method: 'POST',
        headers: { authorization: target.authorisation, 'content-type': type },
        body,
      });
      if (response.status !== 201) {
        throw new Error(`upload answered ${String(response.status)}: ${await response.text()}`);
      }
      const answered = performance.now();
      const { filename } = (await response.json()) as { filename: string };
      return { ms: answered - started, answered, filename };
    };
    /** Milliseconds from the answer until the full-size file exists (polled every 2 ms). */
    const fullSizeAfter = async (
      target: (typeof servers)[number],
      upload: { answered: number; filename: string },
    ) => {
      const file = path.join(target.catalogue.dataDir, 'images', upload.filename);
      while (!fs.existsSync(file)) await new Promise((resolve) => setTimeout(resolve, 2));
      return Math.max(0, performance.now() - upload.answered);
    };
    const median = (values: number[]) =>
      percentile(
        [...values].sort((a, b) => a - b),
        50,
      );
    const p95 = (values: number[]) =>
      percentile(
        [...values].sort((a, b) => a - b),
        95,
      );
    for (const target of servers) await fullSizeAfter(target, await send(target, photoAt(0))); // warm-up

    // 1. One upload at a time, each once the previous one's full size exists (someone
    //    uploading a photo), the builds taking turns so they share the machine's drift.
    const turns = new Map(servers.map((target) => [target.label, [] as number[]]));
    const ready = new Map(servers.map((target) => [target.label, [] as number[]]));
    for (let i = 0; i < UPLOADS; i += 1) {
      const order = i % 2 === 0 ? servers : [...servers].reverse();
      for (const target of order) {
        const upload = await send(target, photoAt(i));
        turns.get(target.label)?.push(upload.ms);
        ready.get(target.label)?.push(upload.ms + (await fullSizeAfter(target, upload)));
      }
    }
    say(
      `\nupload to pending, one at a time, builds taking turns (${String(UPLOADS)} uploads each):`,
    );
    for (const target of servers) {
      const times = turns.get(target.label) ?? [];
      say(
        `  ${target.label}: p50 ${median(times).toFixed(0)} ms, p95 ${p95(times).toFixed(0)} ms ` +
          `(goal: p50 ≤ 250 ms); full size on disk ${median(ready.get(target.label) ?? []).toFixed(0)} ms after the request (p50)`,
      );
    }
    if (servers.length === 2) {
      const [mine, baseline] = servers.map((target) => median(turns.get(target.label) ?? []));
      say(`  this build / baseline: ${((mine ?? 0) / (baseline ?? 1)).toFixed(2)}×`);
    }

    // 2. Back to back: the next upload as soon as the previous one is answered, so this
    //    build's full-size job of the previous upload competes with the next one.
    say(`\nupload to pending, back to back (${String(UPLOADS)} uploads each):`);
    for (const target of servers) {
      const times: number[] = [];
      const pending: Array<Promise<number>> = [];
      for (let i = 0; i < UPLOADS; i += 1) {
        const upload = await send(target, photoAt(i));
        times.push(upload.ms);
        pending.push(fullSizeAfter(target, upload));
      }
      const lags = await Promise.all(pending);
      say(
        `  ${target.label}: p50 ${median(times).toFixed(0)} ms, p95 ${p95(times).toFixed(0)} ms; ` +
          `full size on disk p50 ${median(lags).toFixed(0)} ms after the answer (max ${Math.max(...lags).toFixed(0)})`,
      );
    }

    // The same files through the imaging functions alone, in this process: what an upload
    // waits for (processUpload) and what the full-size job does after the answer.
    const imaging: number[] = [];
    const fullSize: number[] = [];
    for (let i = 0; i < UPLOADS; i += 1) {
      const started = performance.now();
      const processed = await processUpload(photoAt(i));
      imaging.push(performance.now() - started);
      const encodeStarted = performance.now();
      await encodeFullSize(processed.pixels, processed.width, processed.height);
      fullSize.push(performance.now() - encodeStarted);
    }
    say(
      `  decoding and encoding alone, in the bench's process, p50: processUpload ` +
        `${median(imaging).toFixed(0)} ms (what an upload waits for), the full-size encode ` +
        `${median(fullSize).toFixed(0)} ms (after the answer)`,
    );

    for (const target of servers) {
      const before = target.server.peakRss();
      await pool(
        4,
        Array.from({ length: UPLOADS }, (_, i) => async () => {
          await fullSizeAfter(target, await send(target, photoAt(i)));
        }),
      );
      say(
        `4 uploads in flight (${String(UPLOADS)} in all), ${target.label}: server peak RSS ` +
          `${mb(target.server.peakRss())} (before: ${mb(before)}; goal ≤ 400 MB)`,
      );
    }
  } finally {
    for (const target of servers) {
      await target.server.stop();
      await dropCatalogue(target.catalogue, '');
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
