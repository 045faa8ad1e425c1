/*
 * Exploration of duplicate-grouping rules on stored readings (issue 9, step 5): reads the
 * per-picture analyses written by `npm run eval -- --dump FILE` and scores each rule over
 * every pair of pictures, groups made as the product makes them (connected components of the
 * accepted pairs), without reading or indexing again.
 *
 *   npx tsx eval/duplicates-explore.ts FILE [--misses]
 *
 * Candidate generation (LSH buckets, hash probes) is left out: every pair is checked, so a
 * figure here is what the rule could give at best; the product's figure comes from the eval.
 */
import fs from 'node:fs/promises';
import {
  boundedLevenshtein,
  connectedComponents,
  signatureOf,
  verifyPair,
  type Signature,
} from '../src/modules/duplicates/duplicates.signature.js';

interface Dumped {
  id_image: number;
  extracted_text: string | null;
  text_folded: string | null;
  ocr_confidence: number | null;
  phash: string | null;
  writing: number;
  wall: number;
  role: string;
  truth: string;
}

interface PairFeatures {
  a: Dumped;
  b: Dumped;
  sa: Signature;
  sb: Signature;
  same: boolean;
  sameWall: boolean;
  hash: number | null;
  text: number | null;
}

function hashDistance(a: Signature, b: Signature): number | null {
  if (a.phash === null || b.phash === null) return null;
  let bits = 0;
  for (const k of [0, 1] as const) {
    let v = (a.phash[k] ?? 0) ^ (b.phash[k] ?? 0);
    while (v !== 0) {
      v &= v - 1;
      bits += 1;
    }
  }
  return bits;
}

function similarity(a: string | null, b: string | null): number | null {
  if (a === null || b === null) return null;
  const longer = Math.max(a.length, b.length);
  const d = boundedLevenshtein(a, b, longer) ?? longer;
  return 1 - d / longer;
}

type Rule = (p: PairFeatures) => boolean;

function score(pairs: PairFeatures[], ids: number[], rule: Rule) {
  const accepted = pairs.filter(rule).map((p) => [p.a.id_image, p.b.id_image] as const);
  const groups = connectedComponents(accepted);
  const groupOf = new Map<number, number>();
  groups.forEach((g, i) => {
    for (const id of g) groupOf.set(id, i);
  });
  let truePairs = 0;
  let predicted = 0;
  let hits = 0;
  let wallMerges = 0;
  for (const p of pairs) {
    const ga = groupOf.get(p.a.id_image);
    const grouped = ga !== undefined && ga === groupOf.get(p.b.id_image);
    if (p.same) truePairs += 1;
    if (grouped) predicted += 1;
    if (grouped && p.same) hits += 1;
    if (grouped && !p.same && p.sameWall) wallMerges += 1;
  }
  void ids;
  return {
    precision: predicted === 0 ? 1 : hits / predicted,
    recall: truePairs === 0 ? 1 : hits / truePairs,
    hits,
    truePairs,
    predicted,
    wallMerges,
  };
}

async function main(): Promise<void> {
  const file = process.argv[2];
  if (file === undefined) throw new Error('usage: duplicates-explore.ts FILE [--misses]');
  const rows = JSON.parse(await fs.readFile(file, 'utf8')) as Dumped[];
  const signatures = new Map(rows.map((row) => [row.id_image, signatureOf(row)]));
  const pairs: PairFeatures[] = [];
  for (let i = 0; i < rows.length; i += 1) {
    for (let j = i + 1; j < rows.length; j += 1) {
      const a = rows[i] as Dumped;
      const b = rows[j] as Dumped;
      const sa = signatures.get(a.id_image) as Signature;
      const sb = signatures.get(b.id_image) as Signature;
      pairs.push({
        a,
        b,
        sa,
        sb,
        same: a.writing === b.writing,
        sameWall: a.wall === b.wall,
        hash: hashDistance(sa, sb),
        text: similarity(sa.text, sb.text),
      });
    }
  }
  const rules: Record<string, Rule> = {
    'current (verifyPair)': (p) => verifyPair(p.sa, p.sb) !== null,
  };
  for (const [name, rule] of Object.entries(rules)) {
    const r = score(pairs, [], rule);
    console.log(
      `${name.padEnd(48)} P ${r.precision.toFixed(3)} R ${r.recall.toFixed(3)} (${r.hits}/${r.truePairs}, ${r.predicted} grouped, ${r.wallMerges} shared-wall)`,
    );
  }
  if (process.argv.includes('--misses')) {
    const current = rules['current (verifyPair)'] as Rule;
    for (const p of pairs) {
      if (!p.same || current(p)) continue;
      console.log(
        `miss hash ${String(p.hash).padStart(4)} text ${p.text === null ? ' n/a' : p.text.toFixed(2)} conf ${String(p.a.ocr_confidence).padStart(3)}/${String(p.b.ocr_confidence).padStart(3)}  '${p.a.text_folded ?? ''}' | '${p.b.text_folded ?? ''}'  [${p.a.truth}]`,
      );
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
