/*
 * Exploration of duplicate-grouping rules on stored readings (issue 9, steps 5 and 7): reads the
 * per-picture analyses written by `npm run eval -- --dump FILE` and scores each rule over
 * every pair of pictures, groups made as the product makes them (connected components of the
 * accepted pairs), without reading or indexing again.
 *
 *   npx tsx eval/duplicates-explore.ts FILE [--misses] [--false] [--text-pairs]
 *
 * Candidate generation (LSH buckets, hash probes) is left out: every pair is checked, so a
 * figure here is what the rule could give at best; the product's figure comes from the eval.
 */
import fs from 'node:fs/promises';
import {
  boundedLevenshtein,
  connectedComponents,
  signatureOf,
  TEXT_SIMILARITY,
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

/** Words of three letters or more: shorter ones are mostly function words and OCR specks. */
function words(folded: string | null): string[] {
  return (folded ?? '').split(' ').filter((w) => Array.from(w).length >= 3);
}

function osa(a: string, b: string, limit: number): number {
  const d = boundedLevenshtein(a, b, limit);
  return d ?? limit + 1;
}

function wordsMatch(a: string, b: string): boolean {
  if (a === b) return true;
  const shorter = Math.min(a.length, b.length);
  if (shorter >= 8) return osa(a, b, 2) <= 2;
  if (shorter >= 4) return osa(a, b, 1) <= 1;
  return false;
}

/** Letters of the longest order-preserving run of matching words, and the letters of each side. */
function wordAlignment(
  a: string[],
  b: string[],
): { matched: number; lettersA: number; lettersB: number } {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const table = new Array<number>(rows * cols).fill(0);
  for (let i = 1; i < rows; i += 1) {
    for (let j = 1; j < cols; j += 1) {
      const wa = a[i - 1] ?? '';
      const wb = b[j - 1] ?? '';
      let best = Math.max(table[(i - 1) * cols + j] ?? 0, table[i * cols + j - 1] ?? 0);
      if (wordsMatch(wa, wb))
        best = Math.max(
          best,
          (table[(i - 1) * cols + j - 1] ?? 0) + Math.min(wa.length, wb.length),
        );
      table[i * cols + j] = best;
    }
  }
  const letters = (ws: string[]) => ws.reduce((n, w) => n + w.length, 0);
  return { matched: table[rows * cols - 1] ?? 0, lettersA: letters(a), lettersB: letters(b) };
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
  matched: number;
  containment: number;
  coverage: number;
}

function hashDistance(a: Signature, b: Signature): number | null {
  if (a.phash === null || b.phash === null) return null;
  let bits = 0;
  for (const k of [0, 1] as const) {
    let v = a.phash[k] ^ b.phash[k];
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

function score(pairs: PairFeatures[], rule: Rule) {
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
  if (file === undefined)
    throw new Error('usage: duplicates-explore.ts FILE [--misses] [--false] [--text-pairs]');
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
        ...(() => {
          const al = wordAlignment(words(a.text_folded), words(b.text_folded));
          const shorter = Math.min(al.lettersA, al.lettersB);
          const longer = Math.max(al.lettersA, al.lettersB);
          return {
            matched: al.matched,
            containment: shorter === 0 ? 0 : al.matched / shorter,
            coverage: longer === 0 ? 0 : al.matched / longer,
          };
        })(),
      });
    }
  }
  const current: Rule = (p) => verifyPair(p.sa, p.sb) !== null;
  const rules: Record<string, Rule> = {
    'current (verifyPair)': current,
  };
  for (const h of [10, 14, 16, 20]) {
    for (const c of [0.6, 0.8]) {
      for (const m of [8]) {
        rules[`current or words ${c} >=${m} letters, hash <=${h}`] = (p) =>
          current(p) || (p.containment >= c && p.matched >= m && p.hash !== null && p.hash <= h);
      }
    }
  }
  for (const h of [4, 6, 8, 10]) {
    for (const c of [55, 60, 65, 70]) {
      rules[`current, or hash <=${h} when either confidence < ${c}`] = (p) =>
        current(p) ||
        (p.hash !== null &&
          p.hash <= h &&
          Math.min(p.a.ocr_confidence ?? 100, p.b.ocr_confidence ?? 100) < c);
    }
  }
  for (const h of [14, 16, 18, 20]) {
    rules[`current, or words 0.8 >=8 with hash <=${h}`] = (p) =>
      current(p) || (p.containment >= 0.8 && p.matched >= 8 && p.hash !== null && p.hash <= h);
  }
  // Step 7: a Levenshtein match whose edits are mostly the difference in length is one text
  // read with letters missing (in part); like the words-in-part rule, it then also needs the
  // pictures to look alike. Variants of "mostly": a share of the shorter's length, or of the
  // edit distance.
  const lengthGap = (p: PairFeatures): number =>
    Math.abs((p.sa.text?.length ?? 0) - (p.sb.text?.length ?? 0));
  const shortRatio = (p: PairFeatures): number => {
    const la = p.sa.text?.length ?? 0;
    const lb = p.sb.text?.length ?? 0;
    return Math.max(la, lb) === 0 ? 1 : Math.min(la, lb) / Math.max(la, lb);
  };
  const editDistance = (p: PairFeatures): number => {
    const la = p.sa.text?.length ?? 0;
    const lb = p.sb.text?.length ?? 0;
    return Math.round((1 - (p.text ?? 0)) * Math.max(la, lb));
  };
  const closeHash = (p: PairFeatures, h: number) => p.hash !== null && p.hash <= h;
  // Step 6's rule: the product's, with every Levenshtein match accepted whatever the hashes.
  const levenshtein = (p: PairFeatures) =>
    p.sa.text !== null && p.sb.text !== null && (p.text ?? 0) >= TEXT_SIMILARITY;
  const step6: Rule = (p) => current(p) || levenshtein(p);
  rules['step 6 (Levenshtein matches unguarded)'] = step6;
  const textPair = (p: PairFeatures) => levenshtein(p) && verifyPair(p.sa, p.sb)?.kind !== 'visual';
  const guarded =
    (partial: (p: PairFeatures) => boolean, h: number): Rule =>
    (p) =>
      step6(p) && (!textPair(p) || !partial(p) || closeHash(p, h));
  for (const h of [14, 16, 18, 20, 22, 24]) {
    for (const r of [0.9, 0.85]) {
      rules[`text pair needs hash <=${h} when shorter/longer < ${r}`] = guarded(
        (p) => shortRatio(p) < r,
        h,
      );
    }
    for (const g of [1, 2]) {
      rules[`text pair needs hash <=${h} when lengths differ by >=${g}`] = guarded(
        (p) => lengthGap(p) >= g,
        h,
      );
    }
    rules[`text pair needs hash <=${h} when most edits are the length gap`] = guarded(
      (p) => lengthGap(p) > 0 && 2 * lengthGap(p) > editDistance(p),
      h,
    );
    rules[`text pair needs hash <=${h} when half the edits are the length gap`] = guarded(
      (p) => lengthGap(p) > 0 && 2 * lengthGap(p) >= editDistance(p),
      h,
    );
    rules[`every text pair needs hash <=${h}`] = guarded(() => true, h);
  }
  if (process.argv.includes('--text-pairs')) {
    for (const p of pairs) {
      if (!textPair(p)) continue;
      console.log(
        `text ${p.same ? 'same' : 'DIFF'} hash ${String(p.hash).padStart(4)} sim ${(p.text ?? 0).toFixed(2)} ` +
          `gap ${lengthGap(p)} edits ${editDistance(p)} '${p.a.text_folded ?? ''}' | '${p.b.text_folded ?? ''}'`,
      );
    }
  }
  const hist = (pred: (p: PairFeatures) => boolean) => {
    const hs = pairs
      .filter(pred)
      .map((p) => p.hash ?? 99)
      .sort((x, y) => x - y);
    const q = (f: number) => hs[Math.floor(f * (hs.length - 1))];
    return `n ${hs.length} min ${hs[0]} p1 ${q(0.01)} p5 ${q(0.05)} median ${q(0.5)} count<=16 ${hs.filter((x) => x <= 16).length}`;
  };
  console.log(
    'hash, same writing:          ',
    hist((p) => p.same),
  );
  console.log(
    'hash, other writing, same wall:',
    hist((p) => !p.same && p.sameWall),
  );
  console.log(
    'hash, other writing, other wall:',
    hist((p) => !p.same && !p.sameWall),
  );
  for (const [name, rule] of Object.entries(rules)) {
    const r = score(pairs, rule);
    console.log(
      `${name.padEnd(48)} P ${r.precision.toFixed(3)} R ${r.recall.toFixed(3)} (${r.hits}/${r.truePairs}, ${r.predicted} grouped, ${r.wallMerges} shared-wall)`,
    );
  }
  if (process.argv.includes('--false')) {
    // Different writings that look alike by words: what a looser rule would risk.
    for (const p of pairs) {
      if (p.same || p.containment < 0.5 || p.matched < 6) continue;
      console.log(
        `diff hash ${String(p.hash).padStart(4)} words ${p.containment.toFixed(2)}/${p.matched} wall ${p.sameWall ? 'same' : 'diff'} '${p.a.text_folded ?? ''}' | '${p.b.text_folded ?? ''}'`,
      );
    }
  }
  if (process.argv.includes('--misses')) {
    for (const p of pairs) {
      if (!p.same || current(p)) continue;
      console.log(
        `miss hash ${String(p.hash).padStart(4)} text ${p.text === null ? ' n/a' : p.text.toFixed(2)} words ${p.containment.toFixed(2)}/${p.matched} conf ${String(p.a.ocr_confidence).padStart(3)}/${String(p.b.ocr_confidence).padStart(3)}  '${p.a.text_folded ?? ''}' | '${p.b.text_folded ?? ''}'  [${p.a.truth}]`,
      );
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
