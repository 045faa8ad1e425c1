/*
 * Renders sample pictures and a contact sheet, so a person can judge the demo walls by eye:
 *
 *   cd server && npx tsx src/demo/render-samples.ts /tmp/samples 24 [seed]
 *
 * Writes sample-01.jpg … and contact.png (a PNG, because image viewers and review tools that
 * refuse JPEG still show it) of the first 60, and prints how long the renders took (rendering
 * only, not writing files). With a large count it doubles as the speed check: 300 pictures are
 * meant to take well under 35 seconds on two cores.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp, { type OverlayOptions } from 'sharp';
import { PHRASES } from './phrases.js';
import { Random } from './random.js';
import { renderWallWriting, wallWritingSpec, type WallWritingSpec } from './render.js';

const THUMB_WIDTH = 400;
const THUMB_HEIGHT = 300;
const COLUMNS = 6;
/** More thumbnails make a sheet too large to look at. */
const SHEET_LIMIT = 60;
const PARALLEL = 3;

async function main(): Promise<void> {
  const [outDir = '/tmp/samples', countArg = '24', seedArg = 'muri-parlanti'] =
    process.argv.slice(2);
  const count = Math.max(1, Number.parseInt(countArg, 10) || 24);
  await mkdir(outDir, { recursive: true });

  const random = new Random(seedArg);
  const specs: WallWritingSpec[] = [];
  for (let k = 0; k < count; k++) specs.push(wallWritingSpec(random, random.pick(PHRASES)));

  const started = performance.now();
  const images: Buffer[] = new Array<Buffer>(count);
  let next = 0;
  // Three at a time: one picture's JavaScript runs while libvips works on the others' text and
  // encoding, which keeps both cores busy; more would only queue.
  const worker = async () => {
    while (next < count) {
      const k = next++;
      const spec = specs[k];
      if (spec === undefined) continue;
      images[k] = await renderWallWriting(spec);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, count) }, worker));
  const elapsed = performance.now() - started;

  const tiles: OverlayOptions[] = [];
  for (let k = 0; k < count; k++) {
    const image = images[k];
    const spec = specs[k];
    if (image === undefined || spec === undefined) continue;
    const name = `sample-${String(k + 1).padStart(count > 99 ? 3 : 2, '0')}.jpg`;
    await writeFile(path.join(outDir, name), image);
    console.log(
      `${name}  ${spec.width}x${spec.height}  ${spec.wall.kind}/${spec.writing.kind}/${spec.writing.font}` +
        `  ${spec.hard ? 'hard ' : ''}"${spec.text}"`,
    );
    if (k >= SHEET_LIMIT) continue;
    const thumb = await sharp(image)
      .resize(THUMB_WIDTH, THUMB_HEIGHT, { fit: 'contain', background: '#202020' })
      .png()
      .toBuffer();
    tiles.push({
      input: thumb,
      left: (k % COLUMNS) * THUMB_WIDTH,
      top: Math.floor(k / COLUMNS) * THUMB_HEIGHT,
    });
  }
  const onSheet = Math.min(count, SHEET_LIMIT);
  const rows = Math.ceil(onSheet / COLUMNS);
  await sharp({
    create: {
      width: Math.min(onSheet, COLUMNS) * THUMB_WIDTH,
      height: rows * THUMB_HEIGHT,
      channels: 3,
      background: '#202020',
    },
  })
    .composite(tiles)
    .png()
    .toFile(path.join(outDir, 'contact.png'));
  console.log(
    `${count} pictures in ${(elapsed / 1000).toFixed(2)} s (${(elapsed / count).toFixed(0)} ms each)`,
  );
}

await main();
