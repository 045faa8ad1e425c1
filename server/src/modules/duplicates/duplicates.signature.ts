/*
 * The pure side of the duplicate finder (D7): what an image's signature is, which index keys
 * it gets, and the precise check of a candidate pair. No database here, so the same functions
 * serve the analysis job (one image against the index), the bulk re-index (everything in
 * memory) and the speed check.
 *
 * Text. The folded OCR text (lib/text.ts foldText) without spaces, since OCR splits and joins
 * words at will ('NONMOLLARE' / 'non mollare'). Texts with fewer than MIN_TEXT_LETTERS letters
 * are not usable (D7): 'ciao' on a thousand walls is not a duplicate.
 * - Check: normalised Levenshtein similarity 1 − d / max(length) ≥ TEXT_SIMILARITY. Measured on
 *   80 real OCR readings (20 phrases × 4 fonts, colours and backgrounds): every reading with
 *   letter slips ('amami adegso', 'attitti … getrada') scored ≥ 0.886 against the other
 *   readings of its phrase, while the 18,528 pairs of different demo phrases scored at most
 *   0.765 ('ciao dani ci manchi' / 'ciao nonna ci manchi'), median 0.185. 0.8 sits between;
 *   one wrong letter in the shortest usable text (8 letters) is 0.875. Readings that lost a
 *   whole word ('m illumino' / 'm illumino d immenso', 0.53) stay apart: that is a different
 *   text as far as anyone can tell.
 * - Index: MinHash over character trigrams of the text padded with '^' and '$', in
 *   TEXT_BANDS bands of TEXT_ROWS values; each band is a bucket. Two texts share a band with
 *   probability 1 − (1 − J²)^32 for trigram Jaccard J: one slip in an 8-letter text
 *   (J ≥ 5/11) is found with p ≈ 0.9994, in a 15-letter one with p > 0.9999999. Short texts
 *   (≤ DELETION_KEYS_MAX_LENGTH characters) also get their one-deletion variants as keys
 *   (SymSpell), which makes one slip (a wrong, missing or extra letter) in a text of up to 12
 *   characters certain to be found, not just likely.
 *
 * Words missed. The OCR often reads a writing only in part: one photo gives 'credi in te il
 * cielo e di tutti', another 'crei il cielo e di tutti' (0.79), or 'nonno con' against 'nonno
 * sempre con' (0.57), all confident. Two readings whose shorter one is nearly all found in the
 * other, word by word and in order (each word whole or with one slip, two from eight letters),
 * at least WORD_CONTAINMENT of its letters and MIN_MATCHED_LETTERS letters, are one writing
 * read in part, if the pictures also look alike (hash within WORDS_HASH_DISTANCE). A writing
 * with one word replaced ('forza roma sempre' / 'forza lazio sempre', 'ciao nonna ci manchi' /
 * 'ciao dani ci manchi') leaves a word unmatched on both sides, so its shorter reading stays
 * under WORD_CONTAINMENT (0.73 and 0.71), and such pairs still never group. The hash is needed
 * because a writing can also be another one plus words ('casa e dove siete voi' / 'grazie
 * mamma casa e dove siete voi' on another wall, 18 bits apart in the evaluation set). Measured
 * on the evaluation sets of seeds 'other' and 'muri' (docs/READING.md, step 5).
 *
 * Part or prefix. A writing can also begin or end another one: 'Votate con la testa' and
 * 'Votate con la testa La scuola siamo noi' read as 'votate con la testa la' are 0.89 alike,
 * and nothing in the two texts says whether the longer is a misreading of the shorter or
 * another writing. When two similar texts differ in length by more than a slip
 * (LENGTH_GAP_SLIPS), the pictures must not be clearly different either (PART_HASH_DISTANCE,
 * under the first percentile of different pictures): looser than the missed-words rule's
 * WORDS_HASH_DISTANCE, since the texts agree letter by letter, not just word by word.
 * Measured on every pair of both evaluation sets (docs/READING.md, step 7).
 *
 * Perceptual hash. The 64-bit DCT hash of jobs/image-analysis/phash.ts.
 * - Check: Hamming distance ≤ HASH_DISTANCE. Measured on demo wall pictures: re-encoding,
 *   resizing to 400 px, +15 % brightness and WebP gave 0–6 bits, a 3 % crop 6–12; 1,770 pairs
 *   of different pictures were 18 bits apart at least (1st percentile 22, median 32).
 * - But the same wall with another writing was only 4 bits away in 6 of 12 cases: pHash hardly
 *   sees the writing. So when both images have usable text, the text decides, unless either
 *   reading is unsure (OCR confidence below TRUSTED_CONFIDENCE): then a close hash counts too,
 *   provided the texts agree loosely (LOOSE_TEXT_SIMILARITY). Two unsure readings of one
 *   writing share much of their letters even when slips or a stray word keep them under
 *   TEXT_SIMILARITY, while different phrases rarely do (median 0.185, see above). Measured on
 *   the evaluation set (docs/READING.md, step 2): with text deciding alone, nearly every
 *   picture had a partly wrong reading and recall fell to 0.14. Two confident readings that
 *   differ ('ciao nonna ci manchi' / 'ciao dani ci manchi', 0.765) still never group.
 * - Index: multi-index hashing. The hash is cut into four bands of 16 bits; two hashes at
 *   distance ≤ 11 have a band at distance ≤ 2 (pigeonhole), so probing each band of an image
 *   with every value within two bits (137 per band) finds every hash within HASH_DISTANCE.
 *   16-bit bands keep a probe selective: about N / 65,536 images per value.
 */

/** D7: texts with fewer letters are ignored for text grouping. */
export const MIN_TEXT_LETTERS = 8;
/** Levenshtein similarity (0–1) from which two texts are duplicates; see above. */
export const TEXT_SIMILARITY = 0.8;
/**
 * Levenshtein similarity from which two usable texts count as the same writing misread, when
 * their hashes are also close; halfway between unrelated phrases (median 0.185) and a clean
 * match, chosen beforehand rather than fitted to the evaluation set.
 */
export const LOOSE_TEXT_SIMILARITY = 0.5;
/**
 * OCR confidence (0–100) from which a reading is trusted to tell two writings apart on its own.
 * With the scene-text reader (docs/READING.md, step 9), readings at 90 or more are nearly all
 * right (median character error 0 on the evaluation set), 80–90 mostly right with a slip or
 * two (median 12–15 %), and under 80 one in two is a misreading (median 23 % and up); with
 * Tesseract before it, clean readings were mostly 80–95 and misreadings 40–60 (step 2).
 */
export const TRUSTED_CONFIDENCE = 80;
/** Hamming distance (of 64 bits) up to which two images without text are duplicates. */
export const HASH_DISTANCE = 10;
/**
 * Share of the shorter reading's letters (in words of three letters or more) that must be
 * found, word by word and in order, in the other reading for a missed-words pair
 * (WORDS_HASH_DISTANCE); see the header.
 */
export const WORD_CONTAINMENT = 0.8;
/** Letters those matched words must hold at least: D7's shortest usable text. */
export const MIN_MATCHED_LETTERS = 8;
/** Hamming distance up to which a missed-words pair counts (see the header). */
export const WORDS_HASH_DISTANCE = 14;
/**
 * Letters by which two similar texts may differ in length before the text alone stops telling
 * a misreading from another writing: one letter dropped or added is a slip, two or more are
 * as much as a word ('la', 'di', 'un') read on one side only (see the header, Part or prefix).
 */
export const LENGTH_GAP_SLIPS = 1;
/**
 * Hamming distance up to which two pictures are not clearly different: under the first
 * percentile of different pictures (22 bits, both on the demo walls measured for
 * HASH_DISTANCE and on the evaluation sets of docs/READING.md, step 7). A text pair whose
 * lengths differ by more than LENGTH_GAP_SLIPS needs this too.
 */
export const PART_HASH_DISTANCE = 20;
/** Words compared per text: a wall covered in text would make the alignment quadratic. */
const MAX_COMPARED_WORDS = 64;
/** Shorter words are mostly function words and OCR specks ('e', 'di', 'pa'): not compared. */
const MIN_WORD_LETTERS = 3;
/** Only this much of a text is compared: walls covered in text would make checks quadratic. */
export const MAX_COMPARED_CHARACTERS = 1000;

const TEXT_BANDS = 32;
const TEXT_ROWS = 2;
const MINHASHES = TEXT_BANDS * TEXT_ROWS;
/** Texts up to this length also get one-deletion keys (one slip found with certainty). */
const DELETION_KEYS_MAX_LENGTH = 13;
const HASH_BAND_BITS = 16;
/** Bits a probe may flip per band: 4 bands × (radius + 1) − 1 ≥ HASH_DISTANCE. */
const HASH_PROBE_RADIUS = 2;

/** What the duplicate finder knows of an analysed image. */
export interface AnalysedImage {
  id_image: number;
  text_folded: string | null;
  /** The OCR's confidence in the text; null or absent when unknown (then the text is trusted). */
  ocr_confidence?: number | null;
  phash: string | null;
}

/** An image prepared for comparison: computed once per image, never per pair. */
export interface Signature {
  id_image: number;
  /** The folded text without spaces, cut to MAX_COMPARED_CHARACTERS; null when not usable. */
  text: string | null;
  /** How often each character occurs in `text` (LETTER_BUCKETS), for a quick lower bound. */
  counts: Uint16Array | null;
  /** False when the OCR was unsure of the text: a differing text then does not veto a hash pair. */
  trusted: boolean;
  /** The text's words of MIN_WORD_LETTERS letters or more, in order, at most MAX_COMPARED_WORDS. */
  words: readonly string[];
  /** The 64-bit hash as two unsigned 32-bit halves [high, low]: cheap to compare. */
  phash: readonly [number, number] | null;
}

export type PairKind = 'text' | 'visual';

export interface VerifiedPair {
  kind: PairKind;
  /** 0–1: the text similarity, or 1 − distance / 64 for visual pairs. */
  similarity: number;
}

const HEX_HASH = /^[0-9a-f]{16}$/i;

export function signatureOf(image: AnalysedImage): Signature {
  const folded = image.text_folded ?? '';
  const letters = folded.match(/\p{L}/gu)?.length ?? 0;
  const text =
    letters >= MIN_TEXT_LETTERS
      ? folded.replaceAll(' ', '').slice(0, MAX_COMPARED_CHARACTERS)
      : null;
  const phash =
    image.phash !== null && HEX_HASH.test(image.phash)
      ? ([
          Number.parseInt(image.phash.slice(0, 8), 16),
          Number.parseInt(image.phash.slice(8), 16),
        ] as const)
      : null;
  return {
    id_image: image.id_image,
    text,
    counts: text === null ? null : letterCounts(text),
    trusted: (image.ocr_confidence ?? TRUSTED_CONFIDENCE) >= TRUSTED_CONFIDENCE,
    words:
      text === null
        ? []
        : folded
            .split(' ')
            .filter((word) => word.length >= MIN_WORD_LETTERS)
            .slice(0, MAX_COMPARED_WORDS),
    phash,
  };
}

/** a–z, 0–9 and one bucket for every other character. */
const LETTER_BUCKETS = 37;

function letterCounts(text: string): Uint16Array {
  const counts = new Uint16Array(LETTER_BUCKETS);
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    const bucket =
      code >= 97 && code <= 122 ? code - 97 : code >= 48 && code <= 57 ? code - 22 : 36;
    counts[bucket] = (counts[bucket] ?? 0) + 1;
  }
  return counts;
}

/**
 * A lower bound of the edit distance from character counts: every edit changes the surplus
 * of one side by at most one, so max(surplus of a, surplus of b) edits are needed at least.
 * Costs 37 steps, and rules out most candidates before the distance table is filled.
 */
function countsBound(a: Uint16Array, b: Uint16Array): number {
  let surplusA = 0;
  let surplusB = 0;
  for (let k = 0; k < LETTER_BUCKETS; k += 1) {
    const difference = (a[k] ?? 0) - (b[k] ?? 0);
    if (difference > 0) surplusA += difference;
    else surplusB -= difference;
  }
  return surplusA > surplusB ? surplusA : surplusB;
}

/**
 * The precise check of a candidate pair: a text pair when both texts are usable and similar
 * enough (and, when their lengths differ by more than a slip, the pictures not clearly
 * different: Part or prefix in the header); a visual pair when the hashes are close and either one image has no usable text or
 * one reading is unsure and the two texts agree loosely; null otherwise (two confidently
 * different texts never group, however alike the walls look).
 */
export function verifyPair(a: Signature, b: Signature): VerifiedPair | null {
  const visual = visualSimilarity(a, b);
  if (a.text !== null && b.text !== null) {
    const longer = Math.max(a.text.length, b.text.length);
    // A cheap lower bound of the edit distance rules most candidates out before the table.
    const bound = a.counts !== null && b.counts !== null ? countsBound(a.counts, b.counts) : 0;
    const distance = hashDistance(a, b);
    if (bound <= Math.floor((1 - TEXT_SIMILARITY) * longer + 1e-9)) {
      const similarity = textSimilarity(a.text, b.text, TEXT_SIMILARITY);
      if (similarity !== null && (!partOrPrefix(a.text, b.text) || notClearlyDifferent(distance))) {
        return { kind: 'text', similarity };
      }
    }
    if (distance !== null && distance <= WORDS_HASH_DISTANCE && readInPart(a.words, b.words)) {
      return { kind: 'visual', similarity: 1 - distance / 64 };
    }
    if (visual === null || (a.trusted && b.trusted)) return null;
    if (bound > Math.floor((1 - LOOSE_TEXT_SIMILARITY) * longer + 1e-9)) return null;
    return textSimilarity(a.text, b.text, LOOSE_TEXT_SIMILARITY) === null
      ? null
      : { kind: 'visual', similarity: visual };
  }
  return visual === null ? null : { kind: 'visual', similarity: visual };
}

/**
 * Whether two texts differ in length by more than a slip: one may be the other read in part,
 * or another writing that begins or ends with it (see the header).
 */
function partOrPrefix(a: string, b: string): boolean {
  return Math.abs(a.length - b.length) > LENGTH_GAP_SLIPS;
}

/** Hashes within PART_HASH_DISTANCE; a missing hash proves nothing either way. */
function notClearlyDifferent(distance: number | null): boolean {
  return distance === null || distance <= PART_HASH_DISTANCE;
}

/**
 * Whether one reading is the other with words missed: the shorter one's words found in the
 * other, in order, each whole or with one slip (two from eight letters), for at least
 * WORD_CONTAINMENT of its letters and MIN_MATCHED_LETTERS letters (see the header).
 */
export function readInPart(a: readonly string[], b: readonly string[]): boolean {
  const lettersA = a.reduce((sum, word) => sum + word.length, 0);
  const lettersB = b.reduce((sum, word) => sum + word.length, 0);
  const shorter = Math.min(lettersA, lettersB);
  if (shorter < MIN_MATCHED_LETTERS) return false;
  return matchedLetters(a, b) >= Math.max(MIN_MATCHED_LETTERS, WORD_CONTAINMENT * shorter);
}

/**
 * Letters of the heaviest order-preserving alignment of matching words (a longest common
 * subsequence of words, each weighing the shorter word's letters).
 */
export function matchedLetters(a: readonly string[], b: readonly string[]): number {
  const width = b.length + 1;
  let previous = new Array<number>(width).fill(0);
  let current = new Array<number>(width).fill(0);
  for (const wordA of a) {
    current[0] = 0;
    for (let j = 1; j < width; j += 1) {
      const wordB = b[j - 1] ?? '';
      let best = Math.max(previous[j] ?? 0, current[j - 1] ?? 0);
      if (wordsMatch(wordA, wordB)) {
        best = Math.max(best, (previous[j - 1] ?? 0) + Math.min(wordA.length, wordB.length));
      }
      current[j] = best;
    }
    [previous, current] = [current, previous];
  }
  return previous[width - 1] ?? 0;
}

/** The same word read whole, or with one slip from four letters, two from eight. */
function wordsMatch(a: string, b: string): boolean {
  if (a === b) return true;
  const shorter = Math.min(a.length, b.length);
  const slips = shorter >= 8 ? 2 : shorter >= 4 ? 1 : 0;
  return slips > 0 && boundedLevenshtein(a, b, slips) !== null;
}

function hashDistance(a: Signature, b: Signature): number | null {
  if (a.phash === null || b.phash === null) return null;
  return bitCount(a.phash[0] ^ b.phash[0]) + bitCount(a.phash[1] ^ b.phash[1]);
}

/** 1 − distance / 64 when the hashes are within HASH_DISTANCE; null otherwise. */
function visualSimilarity(a: Signature, b: Signature): number | null {
  const distance = hashDistance(a, b);
  return distance !== null && distance <= HASH_DISTANCE ? 1 - distance / 64 : null;
}

/**
 * 1 − Levenshtein distance / longer length, or null when below `minimum`. Only the diagonal
 * band the minimum allows is computed, and the loop stops as soon as the band is exceeded, so
 * a hopeless candidate costs a few rows.
 */
export function textSimilarity(a: string, b: string, minimum: number): number | null {
  const longer = Math.max(a.length, b.length);
  if (longer === 0) return null;
  if (a === b) return 1;
  const limit = Math.floor((1 - minimum) * longer + 1e-9);
  const distance = boundedLevenshtein(a, b, limit);
  if (distance === null) return null;
  const similarity = 1 - distance / longer;
  return similarity >= minimum ? similarity : null;
}

/** Rows of the distance table, reused by every call (the process is single-threaded). */
let previousRow = new Uint32Array(64);
let currentRow = new Uint32Array(64);

/**
 * Levenshtein distance when it is ≤ limit, null otherwise (Ukkonen's band): only cells within
 * `limit` of the diagonal are computed, and the first row whose band exceeds the limit ends it.
 */
export function boundedLevenshtein(a: string, b: string, limit: number): number | null {
  if (Math.abs(a.length - b.length) > limit) return null;
  const width = b.length;
  const big = limit + 1;
  if (previousRow.length < width + 2) {
    previousRow = new Uint32Array(width + 2);
    currentRow = new Uint32Array(width + 2);
  }
  let previous = previousRow;
  let current = currentRow;
  const first = Math.min(width, limit);
  for (let j = 0; j <= first; j += 1) previous[j] = j;
  // The cell just right of the band: read by the next row, never computed.
  if (first + 1 <= width) previous[first + 1] = big;
  for (let i = 1; i <= a.length; i += 1) {
    const from = Math.max(1, i - limit);
    const to = Math.min(width, i + limit);
    current[from - 1] = from === 1 && i <= limit ? i : big;
    let rowMinimum = current[from - 1] ?? big;
    const letter = a.charCodeAt(i - 1);
    for (let j = from; j <= to; j += 1) {
      const substitution = (previous[j - 1] ?? big) + (letter === b.charCodeAt(j - 1) ? 0 : 1);
      const deletion = (previous[j] ?? big) + 1;
      const insertion = (current[j - 1] ?? big) + 1;
      let value = substitution < deletion ? substitution : deletion;
      if (insertion < value) value = insertion;
      if (value > big) value = big;
      current[j] = value;
      if (value < rowMinimum) rowMinimum = value;
    }
    if (to + 1 <= width) current[to + 1] = big;
    if (rowMinimum > limit) return null;
    [previous, current] = [current, previous];
  }
  const distance = previous[width] ?? big;
  return distance <= limit ? distance : null;
}

/** The LSH buckets of a usable text (32-bit integers); empty without usable text. */
export function textKeys(signature: Signature): number[] {
  const text = signature.text;
  if (text === null) return [];
  const shingles = trigramHashes(text);
  const minimums = new Uint32Array(MINHASHES).fill(0xffffffff);
  for (const shingle of shingles) {
    for (let k = 0; k < MINHASHES; k += 1) {
      const value = fmix32(shingle ^ (MINHASH_SEEDS[k] ?? 0));
      if (value < (minimums[k] ?? 0)) minimums[k] = value;
    }
  }
  const keys = new Set<number>();
  for (let band = 0; band < TEXT_BANDS; band += 1) {
    let key = fmix32(Math.imul(band + 1, 0x9e3779b1));
    for (let row = 0; row < TEXT_ROWS; row += 1) {
      key = fmix32(key ^ (minimums[band * TEXT_ROWS + row] ?? 0));
    }
    keys.add(key | 0);
  }
  if (text.length <= DELETION_KEYS_MAX_LENGTH) {
    // The text itself and each one-letter deletion: a substitution leaves both texts with a
    // common deletion, an insertion makes one text a deletion of the other.
    keys.add(stringHash(`\u0001${text}`) | 0);
    for (let i = 0; i < text.length; i += 1) {
      keys.add(stringHash(`\u0001${text.slice(0, i)}${text.slice(i + 1)}`) | 0);
    }
  }
  return [...keys];
}

/** The keys an image is stored under in the hash index: one per band. */
export function hashKeys(signature: Signature): number[] {
  if (signature.phash === null) return [];
  return hashBands(signature.phash).map((value, band) => band * 2 ** HASH_BAND_BITS + value);
}

/** The keys to look up to find every hash within HASH_DISTANCE (548 for four bands). */
export function hashProbeKeys(signature: Signature): number[] {
  if (signature.phash === null) return [];
  const keys: number[] = [];
  hashBands(signature.phash).forEach((value, band) => {
    const base = band * 2 ** HASH_BAND_BITS;
    for (const variant of withinBits(value, HASH_PROBE_RADIUS)) keys.push(base + variant);
  });
  return keys;
}

/** The four 16-bit bands, lowest first. */
function hashBands([high, low]: readonly [number, number]): number[] {
  return [low & 0xffff, low >>> 16, high & 0xffff, high >>> 16];
}

/** Every 16-bit value within `radius` flipped bits of `value`, itself included. */
function withinBits(value: number, radius: number): number[] {
  const out = [value];
  if (radius >= 1) {
    for (let a = 0; a < HASH_BAND_BITS; a += 1) {
      out.push(value ^ (1 << a));
      if (radius >= 2) {
        for (let b = a + 1; b < HASH_BAND_BITS; b += 1) out.push(value ^ (1 << a) ^ (1 << b));
      }
    }
  }
  return out;
}

/** Set bits of a 32-bit integer (the classic SWAR count). */
function bitCount(value: number): number {
  let v = value - ((value >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/** Distinct 32-bit hashes of the trigrams of '^text$' (a text of one letter still has one). */
function trigramHashes(text: string): Set<number> {
  const padded = `^${text}$`;
  const out = new Set<number>();
  for (let i = 0; i + 3 <= padded.length; i += 1) out.add(stringHash(padded.slice(i, i + 3)));
  return out;
}

/** FNV-1a over UTF-16 code units, finished with fmix32 for well-spread bits. */
function stringHash(value: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < value.length; i += 1) {
    hash ^= value.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return fmix32(hash);
}

/** MurmurHash3's finaliser: a bijection on 32 bits that mixes every input bit into the output. */
function fmix32(input: number): number {
  let h = input >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * The MinHash family: h_k(x) = fmix32(x XOR seed_k), seeds from a fixed splitmix32 sequence.
 * Fixed forever: changing them changes every bucket, which needs a full re-index.
 */
const MINHASH_SEEDS = (() => {
  const seeds = new Uint32Array(MINHASHES);
  let state = 0x4d757269; // 'Muri'
  for (let k = 0; k < MINHASHES; k += 1) {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    seeds[k] = (z ^ (z >>> 16)) >>> 0;
  }
  return seeds;
})();

/** Connected components of the pairs (union-find with path halving and union by size). */
export function connectedComponents(pairs: Iterable<readonly [number, number]>): number[][] {
  const parent = new Map<number, number>();
  const size = new Map<number, number>();
  const find = (x: number): number => {
    let node = x;
    if (!parent.has(node)) {
      parent.set(node, node);
      size.set(node, 1);
      return node;
    }
    for (;;) {
      const up = parent.get(node) ?? node;
      if (up === node) return node;
      const grand = parent.get(up) ?? up;
      parent.set(node, grand);
      node = grand;
    }
  };
  for (const [a, b] of pairs) {
    let rootA = find(a);
    let rootB = find(b);
    if (rootA === rootB) continue;
    if ((size.get(rootA) ?? 1) < (size.get(rootB) ?? 1)) [rootA, rootB] = [rootB, rootA];
    parent.set(rootB, rootA);
    size.set(rootA, (size.get(rootA) ?? 1) + (size.get(rootB) ?? 1));
  }
  const groups = new Map<number, number[]>();
  for (const node of parent.keys()) {
    const root = find(node);
    const group = groups.get(root);
    if (group === undefined) groups.set(root, [node]);
    else group.push(node);
  }
  return [...groups.values()];
}
