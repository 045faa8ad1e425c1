/*
 * The recogniser's output kept, and the reading replayed on it (issue 9, docs/READING.md step
 * 13): a whole evaluation reads every picture again whenever the OCR code changes (four minutes
 * and more), while what follows the networks (decoding, the lexicon, choosing among readings
 * and looks, mending) can be tried on their kept output in seconds.
 *
 *   npx tsx eval/lines.ts dump FILE [--seed muri] [--size 320] [--part 0/2]
 *   npx tsx eval/lines.ts replay FILE... [--lexicon words|none] [--space-cost 3] [--show]
 *     [--errors]
 *
 * `dump` reads each picture of the set as the product stores it (processAllSizes' WebP), in
 * all three looks the reading may take (512 px, 960 px, evened), writes every line's box and
 * scores over the Italian characters, and prints the CPU time the three looks took a picture;
 * `--part k/n` takes every n-th picture from the k-th, so n processes share the set (`--part
 * 0/10` alone reads every tenth picture, enough to measure that time). `replay` decodes them
 * again with the product's own code
 * (scene-text.ts readingsOf, ocr.ts textOf, isSure, likeliestLook) and prints the word accuracy
 * and character error rate, and the words a perfect choice among the looks would read; the
 * options change the lexicon's beam only, `--show` lists the pictures where another look
 * would have read more words right, and `--errors` every picture read with a word wrong, with
 * what hides part of its writing if anything does (step 15). The figures match `npm run eval`
 * on the same code (step 13: 83.5 %, 83.7 % and 84.0 % for three versions of it, step 14:
 * 86.2 %, step 15: 86.7 %, each as the evaluation read it).
 */
import fs from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { processAllSizes } from '../src/lib/imaging.js';
import { buildLexicon, type LexiconNode } from '../src/jobs/image-analysis/ctc-beam.js';
import { ELIDED } from '../src/jobs/image-analysis/mending.js';
import {
  evenedRgb,
  isSure,
  likeliestLook,
  rawRgb,
  SECOND_LOOK_SIDE,
  textOf,
  type OcrResult,
} from '../src/jobs/image-analysis/ocr.js';
import {
  createSceneTextReader,
  LEXICON_BEAM,
  readingsOf,
  type RotatedBox,
  type TextLine,
} from '../src/jobs/image-analysis/scene-text.js';
import { segmentWords } from '../src/jobs/image-analysis/words.js';
import { buildEvalSet, renderEvalItem } from './dataset.js';
import {
  addScores,
  characterErrorRate,
  scoreReading,
  wordAccuracy,
  type TextScore,
} from './metrics.js';

interface KeptLine {
  box: RotatedBox;
  steps: number;
  /** Float32 scores, steps × characters, base64. */
  scores: string;
}

interface KeptPicture {
  index: number;
  truth: string;
  /** The lines of the first look (512 px), the second (960 px) and the evened one. */
  looks: KeptLine[][];
}

interface KeptFile {
  seed: string;
  characters: string[];
  pictures: KeptPicture[];
}

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    seed: { type: 'string', default: 'muri' },
    size: { type: 'string', default: '320' },
    part: { type: 'string', default: '0/1' },
    lexicon: { type: 'string', default: 'words' },
    'space-cost': { type: 'string' },
    show: { type: 'boolean', default: false },
    errors: { type: 'boolean', default: false },
  },
});
const [command, ...files] = positionals;

if (command === 'dump' && files.length === 1) await dump(files[0] ?? '');
else if (command === 'replay' && files.length > 0) await replay(files);
else {
  console.error('usage: lines.ts dump FILE [options] | lines.ts replay FILE... [options]');
  process.exit(2);
}

async function dump(file: string): Promise<void> {
  const [part = 0, parts = 1] = values.part.split('/').map(Number);
  const set = buildEvalSet(Number(values.size), values.seed);
  const reader = await createSceneTextReader({ threads: 1, keepScores: true });
  const kept: KeptFile = { seed: values.seed, characters: [], pictures: [] };
  // The networks' and decoding's time only (not rendering or storing the pictures).
  let readingCpu = 0;
  const keep = (lines: TextLine[]): KeptLine[] =>
    lines.flatMap(({ box, scores }) => {
      if (scores === undefined) return [];
      kept.characters = [...scores.characters];
      const { buffer, byteOffset, byteLength } = scores.data;
      const bytes = Buffer.from(buffer, byteOffset, byteLength);
      return [{ box, steps: scores.steps, scores: bytes.toString('base64') }];
    });
  try {
    for (let index = part; index < set.length; index += parts) {
      const item = set[index];
      if (item === undefined) continue;
      const { original } = await processAllSizes(await renderEvalItem(item));
      const rgb = await rawRgb(original, 2048);
      const evened = await evenedRgb(rgb);
      const start = process.cpuUsage();
      const looks = [
        await reader.read(rgb),
        await reader.read(rgb, SECOND_LOOK_SIDE),
        await reader.read(evened),
      ];
      const used = process.cpuUsage(start);
      readingCpu += used.user + used.system;
      kept.pictures.push({ index, truth: item.text, looks: looks.map(keep) });
      process.stderr.write(`\r  read ${kept.pictures.length}`);
    }
  } finally {
    await reader.close();
  }
  await fs.writeFile(file, JSON.stringify(kept));
  process.stderr.write(`\n  ${kept.pictures.length} pictures kept in ${file}\n`);
  const perPicture = readingCpu / Math.max(1, kept.pictures.length) / 1000;
  process.stderr.write(`  reading: ${perPicture.toFixed(0)} ms of CPU a picture, three looks\n`);
}

async function replay(paths: readonly string[]): Promise<void> {
  const kept = await Promise.all(
    paths.map(async (file) => JSON.parse(await fs.readFile(file, 'utf8')) as KeptFile),
  );
  const characters = kept[0]?.characters ?? [];
  const pictures = kept.flatMap((file) => file.pictures).sort((a, b) => a.index - b.index);
  const set = buildEvalSet(Number(values.size), kept[0]?.seed ?? values.seed);
  const lexicon: LexiconNode | undefined =
    values.lexicon === 'none' ? undefined : buildLexicon(segmentWords(), ELIDED);
  const beam = {
    ...LEXICON_BEAM,
    ...(values['space-cost'] === undefined ? {} : { spaceCost: Number(values['space-cost']) }),
  };
  const readLook = (lines: readonly KeptLine[]): OcrResult =>
    textOf(
      lines.flatMap(({ box, steps, scores }) => {
        const bytes = Buffer.from(scores, 'base64');
        const data = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
        const read = readingsOf({ data, steps, characters }, lexicon, beam);
        return read === null ? [] : [{ ...read, box }];
      }),
    );
  // What a perfect choice among the looks would read: the bound on choosing better.
  const best: TextScore[] = [];
  const scores = pictures.map(({ index, truth, looks }) => {
    const read = looks.map(readLook);
    const [first] = read;
    const each = read.map((look) => scoreReading(truth, look.text));
    best.push(
      each.reduce((a, b) => (b.wordErrors < a.wordErrors ? b : a), scoreReading(truth, '')),
    );
    if (first === undefined) return scoreReading(truth, '');
    const result = isSure(first) ? first : likeliestLook(read);
    const score = scoreReading(truth, result.text);
    if (values.errors && score.wordErrors > 0) {
      const cover = set[index]?.post.occlusion?.kind ?? '';
      console.log(
        `${String(index + 1)} ${cover} [${String(score.wordErrors)}] ` +
          `${JSON.stringify(truth)} → ${JSON.stringify(result.text)}`,
      );
    }
    if (values.show && !isSure(first)) {
      const errors = each.map((look) => look.wordErrors);
      if (score.wordErrors > Math.min(...errors)) {
        console.log(`${index + 1} ${JSON.stringify(truth)}`);
        read.forEach((look, i) => {
          console.log(`   [${errors[i]}] ${look.confidence} ${JSON.stringify(look.text)}`);
        });
      }
    }
    return score;
  });
  const total = addScores(scores);
  console.log(
    `${pictures.length} pictures: words ${(100 * wordAccuracy(total)).toFixed(1)} %, ` +
      `CER ${(100 * characterErrorRate(total)).toFixed(1)} %; ` +
      `the best look of each picture: words ${(100 * wordAccuracy(addScores(best))).toFixed(1)} %`,
  );
}
