import sharp from 'sharp';

/*
 * Perceptual hash (DCT pHash, as phash.org's ph_dct_imagehash): the image shrunk to 32×32 grey,
 * its 2-D DCT, and the 8×8 lowest frequencies after the first row and column (which hold the
 * DC term and the coarsest gradients), each bit saying whether a coefficient is above their
 * median. Re-encoding, resizing or a change of brightness barely move those frequencies, so
 * copies of one photo land a few bits apart while different photos differ in about half of
 * the 64 bits. Used to find near-identical images (D7).
 */

const SIZE = 32;
const LOW = 8;

/** Cosines of the DCT-II basis, COS[u * SIZE + x] = cos((2x + 1) u π / 2N); computed once. */
const COS = Float64Array.from({ length: SIZE * SIZE }, (_, index) => {
  const u = Math.floor(index / SIZE);
  const x = index % SIZE;
  return Math.cos(((2 * x + 1) * u * Math.PI) / (2 * SIZE));
});

/** The 64-bit perceptual hash of an encoded image, as 16 lower-case hex digits. */
export async function perceptualHash(image: Buffer): Promise<string> {
  const { data, info } = await sharp(image)
    .rotate()
    .flatten({ background: '#ffffff' })
    // Shrinking the whole picture into 32×32 (aspect ignored, as pHash does) averages away
    // noise and compression artefacts: the low-pass filter pHash asks for.
    .resize(SIZE, SIZE, { fit: 'fill' })
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const pixels = new Float64Array(SIZE * SIZE);
  for (let i = 0; i < pixels.length; i += 1) pixels[i] = data[i * info.channels] ?? 0;

  const coefficients = lowFrequencies(pixels);
  const median = medianOf(coefficients);
  let hash = 0n;
  for (const value of coefficients) hash = (hash << 1n) | (value > median ? 1n : 0n);
  return hash.toString(16).padStart(16, '0');
}

/** Number of differing bits between two hashes from perceptualHash (0–64). */
export function hammingDistance(a: string, b: string): number {
  let diff = parseHash(a) ^ parseHash(b);
  let count = 0;
  while (diff !== 0n) {
    diff &= diff - 1n;
    count += 1;
  }
  return count;
}

const HASH = /^[0-9a-f]{16}$/i;

function parseHash(hash: string): bigint {
  if (!HASH.test(hash)) throw new Error(`not a perceptual hash: ${hash}`);
  return BigInt(`0x${hash}`);
}

/**
 * DCT-II coefficients (u, v) for u, v in 1..8 of the 32×32 pixels, row by row: the separable
 * transform done only as far as those 64 outputs need. Scale factors are left out, since only
 * the order of the coefficients against their median matters.
 */
function lowFrequencies(pixels: Float64Array): number[] {
  // First pass, along rows: rows[y][u] for the wanted u.
  const rows = new Float64Array(SIZE * LOW);
  for (let y = 0; y < SIZE; y += 1) {
    for (let u = 1; u <= LOW; u += 1) {
      let sum = 0;
      for (let x = 0; x < SIZE; x += 1)
        sum += (pixels[y * SIZE + x] ?? 0) * (COS[u * SIZE + x] ?? 0);
      rows[y * LOW + (u - 1)] = sum;
    }
  }
  // Second pass, down the columns.
  const out: number[] = [];
  for (let v = 1; v <= LOW; v += 1) {
    for (let u = 1; u <= LOW; u += 1) {
      let sum = 0;
      for (let y = 0; y < SIZE; y += 1)
        sum += (rows[y * LOW + (u - 1)] ?? 0) * (COS[v * SIZE + y] ?? 0);
      out.push(sum);
    }
  }
  return out;
}

function medianOf(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  return ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}
