/*
 * Exploration tool for issue 9: reads every candidate of every picture (the grey picture and
 * each paint mask, as made and scaled to a given letter height) and writes what each mask
 * looked like and every word Tesseract returned, with its confidence, to a JSON file. Choices
 * (which masks to read, in which order, when to stop, how to pick a reading) can then be
 * compared on the same readings without reading again: `tsx eval/candidates.ts --size 80
 * --seed other --out file.json`. Not part of the product; the figures that count come from
 * `npm run eval`.
 */
import fs from 'node:fs/promises';
import Tesseract from 'tesseract.js';
import { processAllSizes } from '../src/lib/imaging.js';
import { ITA_LANG_PATH } from '../src/jobs/image-analysis/ocr.js';
import {
  candidateImage,
  greyImage,
  paintCandidates,
  rawRgb,
} from '../src/jobs/image-analysis/paint.js';
import { buildEvalSet, renderEvalItem } from './dataset.js';

interface Word {
  text: string;
  confidence: number;
  line: number;
}

export interface CandidateReading {
  kind: 'grey' | 'mask' | 'mask-scaled';
  /** For --variants: letter height and closing radius, as 'h32c0'. */
  variant?: string;
  mask: number | null;
  scale: number;
  seconds: number;
  words: Word[];
}

export interface PictureRecord {
  index: number;
  truth: string;
  writing: string;
  size: string;
  masks: Array<Record<string, number>>;
  readings: CandidateReading[];
}

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? (args[at + 1] ?? fallback) : fallback;
};
const size = Number.parseInt(option('--size', '80'), 10);
const seed = option('--seed', 'other');
const out = option('--out', 'candidates.json');
const parallel = Number.parseInt(option('--parallel', '2'), 10);
const first = Number.parseInt(option('--first', String(size)), 10);
const letterTarget = Number.parseInt(option('--letter', '32'), 10);
/** --variants h32c0,h24c0,h32c1 --top 3: read the best `top` masks each way instead. */
const variants = option('--variants', '')
  .split(',')
  .filter((v) => v !== '')
  .map((v) => {
    const match = /^h(\d+)c(\d+)$/.exec(v);
    if (match === null) throw new Error(`bad variant ${v}`);
    return { name: v, height: Number(match[1]), closing: Number(match[2]) };
  });
const top = Number.parseInt(option('--top', '3'), 10);

async function startWorker(): Promise<Tesseract.Worker> {
  const worker = await Tesseract.createWorker('ita', Tesseract.OEM.LSTM_ONLY, {
    langPath: ITA_LANG_PATH,
    gzip: true,
    cacheMethod: 'none',
  });
  await worker.setParameters({
    tessedit_pageseg_mode: Tesseract.PSM.SPARSE_TEXT,
    user_defined_dpi: '300',
  });
  return worker;
}

async function read(worker: Tesseract.Worker, png: Buffer): Promise<{ words: Word[]; s: number }> {
  const started = performance.now();
  const result = await worker.recognize(png, {}, { text: true, blocks: true });
  const words: Word[] = [];
  let line = 0;
  for (const block of result.data.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const l of paragraph.lines) {
        for (const word of l.words) {
          words.push({ text: word.text.trim(), confidence: word.confidence, line });
        }
        line += 1;
      }
    }
  }
  return { words, s: (performance.now() - started) / 1000 };
}

async function main() {
  const items = buildEvalSet(size, seed).slice(0, first);
  const records: PictureRecord[] = [];
  let next = 0;
  const work = async () => {
    const worker = await startWorker();
    while (next < items.length) {
      const item = items[next++];
      if (item === undefined) break;
      const original = (await processAllSizes(await renderEvalItem(item))).original;
      const rgb = await rawRgb(original, 800);
      const candidates = paintCandidates(rgb);
      const readings: CandidateReading[] = [];
      const grey = await read(worker, await greyImage(rgb, 450));
      readings.push({ kind: 'grey', mask: null, scale: 1, seconds: grey.s, words: grey.words });
      if (variants.length > 0) {
        for (const [m, candidate] of candidates.slice(0, top).entries()) {
          for (const variant of variants) {
            const scale = Math.min(
              3,
              Math.max(0.4, variant.height / Math.max(1, candidate.letterHeight)),
            );
            const reading = await read(
              worker,
              await candidateImage(candidate, scale, variant.closing),
            );
            readings.push({
              kind: 'mask',
              variant: variant.name,
              mask: m,
              scale,
              seconds: reading.s,
              words: reading.words,
            });
          }
        }
      }
      for (const [m, candidate] of (variants.length > 0 ? [] : candidates).entries()) {
        const plain = await read(worker, await candidateImage(candidate, 1));
        readings.push({ kind: 'mask', mask: m, scale: 1, seconds: plain.s, words: plain.words });
        const scale = Math.min(
          3,
          Math.max(0.4, letterTarget / Math.max(1, candidate.letterHeight)),
        );
        if (scale < 0.8 || scale > 1.25) {
          const scaled = await read(worker, await candidateImage(candidate, scale));
          readings.push({
            kind: 'mask-scaled',
            mask: m,
            scale,
            seconds: scaled.s,
            words: scaled.words,
          });
        }
      }
      records.push({
        index: item.index,
        truth: item.text,
        writing: item.spec.writing.kind,
        size: item.size,
        masks: candidates.map((c) => ({
          components: c.components,
          letterHeight: c.letterHeight,
          heightAgreement: c.heightAgreement,
          keptShare: c.keptShare,
          coverage: c.coverage,
          contrast: c.contrast,
          angle: c.angle,
          alignment: c.alignment,
          boxWidth: c.box.right - c.box.left + 1,
          boxHeight: c.box.bottom - c.box.top + 1,
          score: c.score,
        })),
        readings,
      });
      process.stderr.write(`  ${records.length}/${items.length}\r`);
    }
    await worker.terminate();
  };
  await Promise.all(Array.from({ length: parallel }, work));
  records.sort((a, b) => a.index - b.index);
  await fs.writeFile(out, JSON.stringify(records));
  process.stderr.write(`\nwrote ${out}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
