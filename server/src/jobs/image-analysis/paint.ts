import sharp from 'sharp';

/*
 * Separating paint from wall before OCR (issue 9, docs/READING.md step 2).
 *
 * Tesseract reads a grey photo of a wall badly: brick courses, tile joints, shutter slats and
 * the wall's texture read as letters, or make the page layout give up. But the paint of a
 * writing is one colour, chosen to stand out from the wall, while the wall is a few colours
 * repeated everywhere. So the colours of a thumbnail are clustered (k-means in CIE Lab, where
 * distances follow what the eye sees), each cluster of plausible size becomes a black-on-white
 * mask, and of each mask only the letter-like connected components are kept: components that
 * touch the frame (the floor, a pole, the joints of a wall all run out of the picture), that
 * are taller or wider than writing gets, or that are thin lines (joints, slats, cracks) are
 * dropped. The caller reads every mask and keeps the most confident reading.
 *
 * Everything is plain arithmetic on raw pixels (sharp only decodes and encodes), deterministic
 * (a fixed-seed k-means++); it costs about 0.16 s of a busy 2-core machine per picture at
 * 800 px, a fraction of the readings it feeds.
 */

/** Colour clusters: the wall's two or three tones, the paint, and room for a doodle or shadow. */
const CLUSTERS = 5;
const KMEANS_ITERATIONS = 12;
/** Pixels sampled for the clustering itself; every pixel is then assigned to a centre. */
const KMEANS_SAMPLE = 20_000;
/** Clusters outside these shares of the picture are neither paint nor a writing's worth. */
const MIN_CLUSTER_SHARE = 0.003;
const MAX_CLUSTER_SHARE = 0.35;
/** A mask keeping less than this share after cleaning holds no writing. */
const MIN_MASK_SHARE = 0.001;
/** Components taller or wider than these shares of the picture are not letters. */
const MAX_COMPONENT_HEIGHT = 0.35;
const MAX_COMPONENT_WIDTH = 0.7;
/** Area over the longer bounding-box side: below this a component is a line, not a stroke. */
const MIN_STROKE_THICKNESS = 1.8;
/** Fewer pixels than this is a speck. */
const MIN_COMPONENT_AREA = 6;
/** White margin around a mask: Tesseract finds lines touching the border less reliably. */
const MASK_MARGIN = 20;

export interface RawImage {
  /** RGB, 3 bytes per pixel, rows top to bottom. */
  data: Buffer;
  width: number;
  height: number;
}

/** The photo upright, flattened on white, as raw RGB with `longSide` px on its longer side. */
export async function rawRgb(image: Buffer, longSide: number): Promise<RawImage> {
  const { data, info } = await sharp(image)
    .rotate()
    .flatten({ background: '#ffffff' })
    .resize({ width: longSide, height: longSide, fit: 'inside' })
    .toColourspace('srgb')
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/**
 * The candidate paint masks of a photo, as PNGs (black writing on white) ready for Tesseract,
 * at `longSide` px on the longer side plus a white margin, each turned level when its writing
 * leans (skewAngle). Empty when no colour cluster looks like writing.
 */
export async function paintMasks(image: Buffer, longSide: number): Promise<Buffer[]> {
  const rgb = await rawRgb(image, longSide);
  const masks = paintMaskPixels(rgb);
  return Promise.all(
    masks.map(async (mask) => {
      const png = await maskToPng(mask, rgb.width, rgb.height);
      const angle = skewAngle(mask, rgb.width, rgb.height);
      if (Math.abs(angle) < MIN_DESKEW_DEGREES) return png;
      return sharp(png)
        .rotate(-angle, { background: '#ffffff' })
        .png({ compressionLevel: 1 })
        .toBuffer();
    }),
  );
}

/** The cleaned masks (1 = paint) of every plausible colour cluster, in cluster order. */
export function paintMaskPixels(rgb: RawImage): Uint8Array[] {
  const count = rgb.width * rgb.height;
  const lab = toLab(rgb);
  const labels = kmeans(lab, count, CLUSTERS);
  const sizes = new Uint32Array(CLUSTERS);
  for (let i = 0; i < count; i += 1) sizes[labels[i] ?? 0] = (sizes[labels[i] ?? 0] ?? 0) + 1;
  const masks: Uint8Array[] = [];
  for (let cluster = 0; cluster < CLUSTERS; cluster += 1) {
    const share = (sizes[cluster] ?? 0) / count;
    if (share < MIN_CLUSTER_SHARE || share > MAX_CLUSTER_SHARE) continue;
    const raw = new Uint8Array(count);
    for (let i = 0; i < count; i += 1) raw[i] = labels[i] === cluster ? 1 : 0;
    const mask = keepLetterComponents(raw, rgb.width, rgb.height);
    let on = 0;
    for (let i = 0; i < count; i += 1) on += mask[i] ?? 0;
    if (on >= count * MIN_MASK_SHARE) masks.push(mask);
  }
  return masks;
}

async function maskToPng(mask: Uint8Array, width: number, height: number): Promise<Buffer> {
  const outWidth = width + MASK_MARGIN * 2;
  const outHeight = height + MASK_MARGIN * 2;
  const grey = Buffer.alloc(outWidth * outHeight, 255);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      if (mask[y * width + x] === 1) grey[(y + MASK_MARGIN) * outWidth + x + MASK_MARGIN] = 0;
    }
  }
  return sharp(grey, { raw: { width: outWidth, height: outHeight, channels: 1 } })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

/** sRGB byte → linear light, tabulated once. */
const LINEAR = Float32Array.from({ length: 256 }, (_, value) => {
  const c = value / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
});

function labF(t: number): number {
  return t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116;
}

/** CIE Lab (D65) of every pixel, three floats per pixel. */
export function toLab(rgb: RawImage): Float32Array {
  const count = rgb.width * rgb.height;
  const out = new Float32Array(count * 3);
  for (let i = 0; i < count; i += 1) {
    const r = LINEAR[rgb.data[i * 3] ?? 0] ?? 0;
    const g = LINEAR[rgb.data[i * 3 + 1] ?? 0] ?? 0;
    const b = LINEAR[rgb.data[i * 3 + 2] ?? 0] ?? 0;
    const fx = labF((0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047);
    const fy = labF(0.2126 * r + 0.7152 * g + 0.0722 * b);
    const fz = labF((0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883);
    out[i * 3] = 116 * fy - 16;
    out[i * 3 + 1] = 500 * (fx - fy);
    out[i * 3 + 2] = 200 * (fy - fz);
  }
  return out;
}

/**
 * k-means of the Lab pixels: k-means++ seeding and Lloyd iterations on an even sample, then
 * every pixel labelled with its nearest centre. The seeding uses a fixed linear congruential
 * generator, so a picture always gives the same clusters (and the same reading).
 */
export function kmeans(lab: Float32Array, count: number, k: number): Uint8Array {
  const step = Math.max(1, Math.floor(count / KMEANS_SAMPLE));
  const sample: number[] = [];
  for (let i = 0; i < count; i += step) sample.push(i);
  let state = 12345;
  const random = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 4294967296;
  };
  const centres = new Float32Array(k * 3);
  const nearestSquared = new Float64Array(sample.length).fill(Infinity);
  let pick = sample[Math.floor(random() * sample.length)] ?? 0;
  for (let c = 0; c < k; c += 1) {
    centres.set(lab.subarray(pick * 3, pick * 3 + 3), c * 3);
    let total = 0;
    for (let s = 0; s < sample.length; s += 1) {
      const d = squaredDistance(lab, sample[s] ?? 0, centres, c);
      if (d < (nearestSquared[s] ?? 0)) nearestSquared[s] = d;
      total += nearestSquared[s] ?? 0;
    }
    // The next seed is drawn with probability proportional to the squared distance.
    let threshold = random() * total;
    for (let s = 0; s < sample.length; s += 1) {
      threshold -= nearestSquared[s] ?? 0;
      if (threshold <= 0) {
        pick = sample[s] ?? 0;
        break;
      }
    }
  }
  const sums = new Float64Array(k * 4);
  for (let iteration = 0; iteration < KMEANS_ITERATIONS; iteration += 1) {
    sums.fill(0);
    for (const i of sample) {
      const c = nearestCentre(lab, i, centres, k);
      sums[c * 4] = (sums[c * 4] ?? 0) + (lab[i * 3] ?? 0);
      sums[c * 4 + 1] = (sums[c * 4 + 1] ?? 0) + (lab[i * 3 + 1] ?? 0);
      sums[c * 4 + 2] = (sums[c * 4 + 2] ?? 0) + (lab[i * 3 + 2] ?? 0);
      sums[c * 4 + 3] = (sums[c * 4 + 3] ?? 0) + 1;
    }
    for (let c = 0; c < k; c += 1) {
      const members = sums[c * 4 + 3] ?? 0;
      if (members === 0) continue;
      centres[c * 3] = (sums[c * 4] ?? 0) / members;
      centres[c * 3 + 1] = (sums[c * 4 + 1] ?? 0) / members;
      centres[c * 3 + 2] = (sums[c * 4 + 2] ?? 0) / members;
    }
  }
  const labels = new Uint8Array(count);
  for (let i = 0; i < count; i += 1) labels[i] = nearestCentre(lab, i, centres, k);
  return labels;
}

function squaredDistance(lab: Float32Array, i: number, centres: Float32Array, c: number): number {
  const dl = (lab[i * 3] ?? 0) - (centres[c * 3] ?? 0);
  const da = (lab[i * 3 + 1] ?? 0) - (centres[c * 3 + 1] ?? 0);
  const db = (lab[i * 3 + 2] ?? 0) - (centres[c * 3 + 2] ?? 0);
  return dl * dl + da * da + db * db;
}

function nearestCentre(lab: Float32Array, i: number, centres: Float32Array, k: number): number {
  let best = 0;
  let bestDistance = Infinity;
  for (let c = 0; c < k; c += 1) {
    const d = squaredDistance(lab, i, centres, c);
    if (d < bestDistance) {
      bestDistance = d;
      best = c;
    }
  }
  return best;
}

/**
 * The mask with only its letter-like 8-connected components (see the file comment): a stack
 * flood fill, each component judged on its bounding box and area.
 */
export function keepLetterComponents(mask: Uint8Array, width: number, height: number): Uint8Array {
  const seen = new Uint8Array(width * height);
  const out = new Uint8Array(width * height);
  const stack: number[] = [];
  const pixels: number[] = [];
  for (let start = 0; start < width * height; start += 1) {
    if (mask[start] !== 1 || seen[start] === 1) continue;
    seen[start] = 1;
    stack.push(start);
    pixels.length = 0;
    let left = width;
    let right = 0;
    let top = height;
    let bottom = 0;
    while (stack.length > 0) {
      const p = stack.pop() ?? 0;
      pixels.push(p);
      const x = p % width;
      const y = (p - x) / width;
      if (x < left) left = x;
      if (x > right) right = x;
      if (y < top) top = y;
      if (y > bottom) bottom = y;
      for (let dy = -1; dy <= 1; dy += 1) {
        for (let dx = -1; dx <= 1; dx += 1) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
          const q = ny * width + nx;
          if (mask[q] === 1 && seen[q] !== 1) {
            seen[q] = 1;
            stack.push(q);
          }
        }
      }
    }
    const boxWidth = right - left + 1;
    const boxHeight = bottom - top + 1;
    const area = pixels.length;
    if (area < MIN_COMPONENT_AREA) continue;
    if (left === 0 || top === 0 || right === width - 1 || bottom === height - 1) continue;
    if (boxHeight > MAX_COMPONENT_HEIGHT * height || boxWidth > MAX_COMPONENT_WIDTH * width) {
      continue;
    }
    if (area / Math.max(boxWidth, boxHeight) < MIN_STROKE_THICKNESS) continue;
    for (const p of pixels) out[p] = 1;
  }
  return out;
}

/**
 * Leans below this are left alone: Tesseract copes with a few degrees, and turning a binary
 * mask blurs its edges. Above it, turning level matters: on the exploration subset's writings
 * leaning more than 8°, words read went from 12 % to 65 % (docs/READING.md, step 2).
 */
const MIN_DESKEW_DEGREES = 3;
/** Rotations tried when straightening a mask, in degrees either way (writing leans up to ±15°). */
const MAX_SKEW_DEGREES = 20;
/** Rows of the projection profile, in pixels: coarse enough to ignore the strokes' wobble. */
const PROFILE_BIN = 4;

/**
 * The angle in degrees (positive: the lines fall to the right, as sharp's rotate() turns
 * clockwise) at which the writing's lines lean: the rotation whose horizontal projection of
 * the paint is the most peaked (sum of squared row counts), the classic projection-profile
 * method: lines of text give sharp peaks only when level. Every pixel counts; subsampling
 * rows and columns favoured 0° by aliasing.
 */
export function skewAngle(mask: Uint8Array, width: number, height: number): number {
  const xs: number[] = [];
  const ys: number[] = [];
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      if (mask[y * width + x] === 1) {
        xs.push(x);
        ys.push(y);
      }
    }
  }
  if (xs.length < 50) return 0;
  const diagonal = Math.ceil(Math.hypot(width, height));
  const bins = new Float64Array(Math.ceil((diagonal * 2 + 2) / PROFILE_BIN));
  let bestAngle = 0;
  let bestPeak = -1;
  for (let degrees = -MAX_SKEW_DEGREES; degrees <= MAX_SKEW_DEGREES; degrees += 1) {
    const radians = (degrees * Math.PI) / 180;
    const sin = Math.sin(radians);
    const cos = Math.cos(radians);
    bins.fill(0);
    for (let i = 0; i < xs.length; i += 1) {
      const row = Math.floor(((ys[i] ?? 0) * cos - (xs[i] ?? 0) * sin + diagonal) / PROFILE_BIN);
      bins[row] = (bins[row] ?? 0) + 1;
    }
    let peak = 0;
    for (const count of bins) peak += count * count;
    if (peak > bestPeak) {
      bestPeak = peak;
      bestAngle = degrees;
    }
  }
  return bestAngle;
}
