/*
 * What reading a photo costs (docs/READING.md, step 14): the CPU time of reading pictures of
 * the evaluation set (every tenth) in the three looks the product may take, one thread, as the
 * reading process does. Rendering and storing the pictures are not counted.
 *
 *   npx tsx eval/reading-cost.ts [pictures, default 30]
 */
import { processAllSizes } from '../src/lib/imaging.js';
import { evenedRgb, rawRgb, SECOND_LOOK_SIDE } from '../src/jobs/image-analysis/ocr.js';
import { createSceneTextReader } from '../src/jobs/image-analysis/scene-text.js';
import { buildEvalSet, renderEvalItem } from './dataset.js';

const count = Number(process.argv[2] ?? 30);
const set = buildEvalSet(320, 'muri');
const reader = await createSceneTextReader({ threads: 1 });
let cpu = 0;
let lines = 0;
for (let index = 0; index < count; index += 1) {
  const item = set[index * 10];
  if (item === undefined) continue;
  const { original } = await processAllSizes(await renderEvalItem(item));
  const rgb = await rawRgb(original, 2048);
  const evened = await evenedRgb(rgb);
  const start = process.cpuUsage();
  lines += (await reader.read(rgb)).length;
  lines += (await reader.read(rgb, SECOND_LOOK_SIDE)).length;
  lines += (await reader.read(evened)).length;
  const used = process.cpuUsage(start);
  cpu += used.user + used.system;
}
await reader.close();
console.log(
  `${count} pictures, ${lines} lines: ${(cpu / count / 1000).toFixed(0)} ms CPU a picture (three looks)`,
);
