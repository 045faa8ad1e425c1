import sharp from 'sharp';

/*
 * Separating paint from wall before OCR (issue 9, docs/READING.md steps 2 to 4).
 *
 * Tesseract reads a grey photo of a wall badly: brick courses, tile joints, shutter slats and
 * the wall's texture read as letters, or make the page layout give up. But the paint of a
 * writing is one colour, chosen to stand out from the wall, while the wall is a few colours
 * repeated everywhere. So the colours of a thumbnail are clustered (k-means in CIE Lab, where
 * distances follow what the eye sees), each cluster of plausible size becomes a black-on-white
 * mask, and of each mask only the letter-like connected components are kept: components that
 * touch the frame (the floor, a pole, the joints of a wall all run out of the picture), that
 * are taller or wider than writing gets, or that are thin lines (joints, slats, cracks) are
 * dropped. Each mask is described (letter height, how alike its letters are, contrast,
 * alignment) and ranked by how much it looks like writing, so the caller reads only the
 * likeliest ones (ocr.ts).
 *
 * The colours are clustered twice: as lit, and with the light evened out (lightGain), since
 * a shadow or a light gradient across a writing splits its paint into two colours; the masks
 * of both clusterings are ranked together, a mask nearly the same as a better-ranked one
 * dropped (docs/READING.md, step 6).
 *
 * Everything is plain arithmetic on raw pixels (sharp only decodes and encodes), deterministic
 * (a fixed-seed k-means++); it costs about 0.3 s of a busy 2-core machine per picture at
 * 800 px (both clusterings), a fraction of the readings it feeds.
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

/** One colour cluster's cleaned mask and what it looks like, before any reading. */
export interface PaintCandidate {
  /** 1 = paint, width × height of the picture it was made from. */
  mask: Uint8Array;
  width: number;
  height: number;
  /** Kept components and their bounding box (inclusive pixel coordinates). */
  components: number;
  box: { left: number; top: number; right: number; bottom: number };
  /** Median height of the kept components: about a letter's height, in pixels. */
  letterHeight: number;
  /** Share of the kept paint in components within a factor 2 of letterHeight. */
  heightAgreement: number;
  /** Share of the cluster's pixels that survived the cleaning (writing keeps most of them). */
  keptShare: number;
  /** Share of the picture covered by the kept paint. */
  coverage: number;
  /** CIE Lab distance of the cluster's colour from the largest cluster's (the wall, mostly). */
  contrast: number;
  /** The writing's lean in degrees (skewOf). */
  angle: number;
  /** How much more peaked the row profile is at `angle` than on average over all angles. */
  alignment: number;
  /** The ranking score (candidateScore): higher is likelier to be the writing. */
  score: number;
}

/**
 * The candidate paint masks of a decoded photo, the likeliest writing first (candidateScore),
 * from the colours as lit and with the light evened out. Where both clusterings make nearly
 * the same mask (the writing on an evenly lit wall), only the better-ranked one is kept, so
 * the few masks read are different ones. Empty when no colour cluster looks like writing.
 */
export function paintCandidates(rgb: RawImage): PaintCandidate[] {
  const count = rgb.width * rgb.height;
  const asLit = kmeans(toLab(rgb), count, CLUSTERS);
  const plain = clusterCandidates(rgb, asLit.labels, asLit.centres);
  const evened = kmeans(toLab(rgb, lightGain(rgb)), count, CLUSTERS);
  const flat = clusterCandidates(rgb, evened.labels, evened.centres);
  const pooled = [...plain, ...flat].sort((a, b) => b.score - a.score);
  const kept: PaintCandidate[] = [];
  for (const candidate of pooled) {
    if (!kept.some((other) => sharedShare(candidate.mask, other.mask) > SAME_MASK_SHARE)) {
      kept.push(candidate);
    }
  }
  return kept;
}

/**
 * A mask whose paint lies in a better-ranked mask for more than this share adds nothing worth
 * a reading. A share of the mask, not of the union: the whole of a writing half in shadow
 * still counts as new next to a better-ranked mask of its lit half (and the lit half, read
 * first, does not end the reading: ocr.ts mayEndReading).
 */
export const SAME_MASK_SHARE = 0.8;

/** The share of mask `a`'s paint that is also paint in mask `b` (same picture). */
export function sharedShare(a: Uint8Array, b: Uint8Array): number {
  let both = 0;
  let paint = 0;
  for (let i = 0; i < a.length; i += 1) {
    const x = a[i] ?? 0;
    both += x & (b[i] ?? 0);
    paint += x;
  }
  return paint === 0 ? 1 : both / paint;
}

/** One candidate per colour cluster of plausible size whose cleaned mask keeps some paint. */
function clusterCandidates(
  rgb: RawImage,
  labels: Uint8Array,
  centres: Float32Array,
): PaintCandidate[] {
  const count = rgb.width * rgb.height;
  const sizes = new Uint32Array(CLUSTERS);
  for (let i = 0; i < count; i += 1) sizes[labels[i] ?? 0] = (sizes[labels[i] ?? 0] ?? 0) + 1;
  let largest = 0;
  for (let c = 1; c < CLUSTERS; c += 1) if ((sizes[c] ?? 0) > (sizes[largest] ?? 0)) largest = c;
  const candidates: PaintCandidate[] = [];
  for (let cluster = 0; cluster < CLUSTERS; cluster += 1) {
    const clusterSize = sizes[cluster] ?? 0;
    const share = clusterSize / count;
    if (share < MIN_CLUSTER_SHARE || share > MAX_CLUSTER_SHARE) continue;
    const raw = new Uint8Array(count);
    for (let i = 0; i < count; i += 1) raw[i] = labels[i] === cluster ? 1 : 0;
    const cleaned = letterComponents(raw, rgb.width, rgb.height);
    if (cleaned.on < count * MIN_MASK_SHARE) continue;
    const { angle, alignment } = skewOf(cleaned.mask, rgb.width, rgb.height);
    const contrast = Math.sqrt(squaredCentreDistance(centres, cluster, largest));
    const candidate: PaintCandidate = {
      mask: cleaned.mask,
      width: rgb.width,
      height: rgb.height,
      components: cleaned.heights.length,
      box: cleaned.box,
      letterHeight: cleaned.letterHeight,
      heightAgreement: cleaned.heightAgreement,
      keptShare: cleaned.on / clusterSize,
      coverage: cleaned.on / count,
      contrast,
      angle,
      alignment,
      score: 0,
    };
    candidate.score = candidateScore(candidate);
    candidates.push(candidate);
  }
  return candidates.sort((a, b) => b.score - a.score);
}

/**
 * How likely a mask is to hold the writing, from what it looks like, before any reading:
 * - keptShare: paint survives the cleaning whole, while a cluster of wall texture loses most
 *   of its pixels to specks, joints and frame-touching runs;
 * - heightAgreement: the letters of one writing are alike in height, texture comes in every
 *   size;
 * - contrast (capped): paint is chosen to stand out from the wall;
 * - components: a single blob (a sticker, a pole's shadow) is not a writing;
 * - alignment − 1: letters stand in lines, texture does not.
 * Measured on 64 pictures of another seed than the evaluation set's (docs/READING.md, step 3):
 * the mask that read best was ranked first in 38 of 51 pictures with a legible mask, and in
 * the first two in 46, against 35 and 43 for the product of the first three terms alone.
 */
export function candidateScore(candidate: Omit<PaintCandidate, 'score'>): number {
  const blobs = Math.min(1, Math.max(0, (candidate.components - 1) / 4));
  return (
    candidate.keptShare *
    candidate.heightAgreement *
    Math.min(candidate.contrast, MAX_SCORED_CONTRAST) *
    blobs *
    Math.max(0, candidate.alignment - 1)
  );
}

/** Beyond this Lab distance, more contrast says nothing more about being paint. */
const MAX_SCORED_CONTRAST = 60;

/**
 * Letter height, in pixels, at which a mask is read. Tesseract's line recogniser works on
 * lines normalised to about 36 px; masks scaled so their letters are about 32 px high read
 * better than as made (on the exploration subset, the two best masks read this way: 40.4 %
 * of words against 34.5 %; docs/READING.md, step 3).
 */
export const TARGET_LETTER_HEIGHT = 32;

/** The factor that brings a candidate's letters to TARGET_LETTER_HEIGHT, or 1 when close. */
export function readingScale(candidate: PaintCandidate): number {
  const scale = TARGET_LETTER_HEIGHT / Math.max(1, candidate.letterHeight);
  if (scale >= 0.8 && scale <= 1.25) return 1;
  return Math.min(3, Math.max(0.4, scale));
}

/**
 * The candidate as a PNG ready for Tesseract: black paint on white, cut to the paint's box
 * with a white margin, turned level when it leans MIN_DESKEW_DEGREES or more, and scaled by
 * `scale` (1: as made).
 */
export async function candidateImage(
  candidate: PaintCandidate,
  scale = 1,
  closing = 0,
): Promise<Buffer> {
  const { box, width } = candidate;
  const mask =
    closing > 0 ? closeMask(candidate.mask, width, candidate.height, closing) : candidate.mask;
  const boxWidth = box.right - box.left + 1;
  const boxHeight = box.bottom - box.top + 1;
  const outWidth = boxWidth + MASK_MARGIN * 2;
  const outHeight = boxHeight + MASK_MARGIN * 2;
  const grey = Buffer.alloc(outWidth * outHeight, 255);
  for (let y = box.top; y <= box.bottom; y += 1) {
    for (let x = box.left; x <= box.right; x += 1) {
      if (mask[y * width + x] === 1) {
        grey[(y - box.top + MASK_MARGIN) * outWidth + x - box.left + MASK_MARGIN] = 0;
      }
    }
  }
  let image = sharp(grey, { raw: { width: outWidth, height: outHeight, channels: 1 } });
  if (Math.abs(candidate.angle) >= MIN_DESKEW_DEGREES) {
    image = sharp(await image.rotate(-candidate.angle, { background: '#ffffff' }).png().toBuffer());
  }
  if (Math.abs(scale - 1) > 0.05) {
    image = image.resize({
      width: Math.max(1, Math.round(outWidth * scale)),
      kernel: scale > 1 ? 'cubic' : 'lanczos3',
    });
  }
  return image.png({ compressionLevel: 1 }).toBuffer();
}

/**
 * Morphological closing of a mask with a square of side 2 × radius + 1: dilation, then
 * erosion. It fills the gaps that the wall's texture leaves in a stroke (chalk, dry brush)
 * without thickening it; done on a cleaned mask, it joins only what the cleaning kept.
 */
export function closeMask(
  mask: Uint8Array,
  width: number,
  height: number,
  radius: number,
): Uint8Array {
  const dilated = morph(
    morph(mask, width, height, radius, true, true),
    width,
    height,
    radius,
    true,
    false,
  );
  return morph(
    morph(dilated, width, height, radius, false, true),
    width,
    height,
    radius,
    false,
    false,
  );
}

/** One separable pass of a binary dilation (any) or erosion (all), along rows or columns. */
function morph(
  mask: Uint8Array,
  width: number,
  height: number,
  radius: number,
  dilate: boolean,
  alongRows: boolean,
): Uint8Array {
  const out = new Uint8Array(width * height);
  const lines = alongRows ? height : width;
  const length = alongRows ? width : height;
  const stride = alongRows ? 1 : width;
  for (let line = 0; line < lines; line += 1) {
    const base = alongRows ? line * width : line;
    // Running count of set pixels in the window [i - radius, i + radius]; outside the picture
    // counts as unset, so what the dilation grew into the border is eroded away again.
    let count = 0;
    const at = (i: number) => (i < 0 || i >= length ? 0 : (mask[base + i * stride] ?? 0));
    for (let i = -radius; i <= radius; i += 1) count += at(i);
    for (let i = 0; i < length; i += 1) {
      out[base + i * stride] = dilate ? (count > 0 ? 1 : 0) : count === radius * 2 + 1 ? 1 : 0;
      count += at(i + radius + 1) - at(i - radius);
    }
  }
  return out;
}

/**
 * The grey picture for Tesseract from the decoded photo: scaled to `longSide` on the longer
 * side and contrast stretched between the 1st and 99th percentiles, so a pale writing on a
 * pale wall becomes dark on light. The stretch is computed here rather than with sharp's
 * normalise(), which on mostly uniform upscaled images was seen to turn the whole background
 * black.
 */
export async function greyImage(rgb: RawImage, longSide: number): Promise<Buffer> {
  const { data, info } = await sharp(rgb.data, {
    raw: { width: rgb.width, height: rgb.height, channels: 3 },
  })
    .resize({ width: longSide, height: longSide, fit: 'inside' })
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  stretchContrast(data, info.channels);
  return sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

/** Below this spread the image is flat (a blank wall): stretching would only amplify noise. */
const MIN_SPREAD = 16;

function stretchContrast(pixels: Buffer, channels: number): void {
  const histogram = new Uint32Array(256);
  for (let i = 0; i < pixels.length; i += channels) {
    const level = pixels[i] ?? 0;
    histogram[level] = (histogram[level] ?? 0) + 1;
  }
  const count = pixels.length / channels;
  const low = percentile(histogram, count * 0.01, false);
  const high = percentile(histogram, count * 0.01, true);
  if (high - low < MIN_SPREAD) return;
  const scale = 255 / (high - low);
  for (let i = 0; i < pixels.length; i += channels) {
    const value = ((pixels[i] ?? 0) - low) * scale;
    pixels[i] = value < 0 ? 0 : value > 255 ? 255 : Math.round(value);
  }
}

/** The grey level below (or, fromTop, above) which `share` pixels lie. */
function percentile(histogram: Uint32Array, share: number, fromTop: boolean): number {
  let seen = 0;
  for (let step = 0; step < 256; step += 1) {
    const level = fromTop ? 255 - step : step;
    seen += histogram[level] ?? 0;
    if (seen >= share) return level;
  }
  return fromTop ? 255 : 0;
}

/** sRGB byte → linear light, tabulated once. */
const LINEAR = Float32Array.from({ length: 256 }, (_, value) => {
  const c = value / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
});

function labF(t: number): number {
  return t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116;
}

/**
 * Blocks of the light estimate per long side: at 800 px, blocks of 32 px, wider than a
 * stroke is thick, so a block's median is the wall's and not the paint's, and narrow enough to
 * follow a cast shadow's soft edge.
 */
const LIGHT_BLOCKS = 25;
/** Light is raised at most this much: beyond it, it is the camera's noise that is raised. */
const MAX_LIGHT_GAIN = 4;

/**
 * The factor, per pixel, that evens out the light falling on the wall (flat-field
 * correction): the renderer's and real photos' uneven light (gradients, vignettes, cast
 * shadows) makes one paint two colours, lit and in shadow, which then fall into two
 * clusters, or into the shadowed wall's. The wall's light is the median luminance of blocks
 * wider than a stroke, smoothed over the neighbouring blocks and interpolated between block
 * centres; each pixel's linear light is multiplied by the picture's median light over it.
 */
export function lightGain(rgb: RawImage): Float32Array {
  const { width, height, data } = rgb;
  const block = Math.max(8, Math.round(Math.max(width, height) / LIGHT_BLOCKS));
  const columns = Math.ceil(width / block);
  const rows = Math.ceil(height / block);
  const medians = new Float32Array(columns * rows);
  const histogram = new Uint32Array(256);
  for (let by = 0; by < rows; by += 1) {
    for (let bx = 0; bx < columns; bx += 1) {
      histogram.fill(0);
      let pixels = 0;
      for (let y = by * block; y < Math.min(height, (by + 1) * block); y += 1) {
        for (let x = bx * block; x < Math.min(width, (bx + 1) * block); x += 1) {
          const i = (y * width + x) * 3;
          const luma = Math.round(
            0.2126 * (data[i] ?? 0) + 0.7152 * (data[i + 1] ?? 0) + 0.0722 * (data[i + 2] ?? 0),
          );
          histogram[luma] = (histogram[luma] ?? 0) + 1;
          pixels += 1;
        }
      }
      medians[by * columns + bx] = LINEAR[percentile(histogram, pixels / 2, false)] ?? 0;
    }
  }
  // Each block's light as the median of its 3 × 3 neighbourhood: a block mostly of paint (a
  // huge letter's thick stroke, a dense line of bold letters) is outvoted by the wall around
  // it, while a shadow's edge, a step, stays where it is (a mean would smear it over three
  // blocks, and the paint over its neighbours).
  const smooth = new Float32Array(columns * rows);
  const neighbours: number[] = [];
  for (let by = 0; by < rows; by += 1) {
    for (let bx = 0; bx < columns; bx += 1) {
      neighbours.length = 0;
      for (let dy = -1; dy <= 1; dy += 1) {
        for (let dx = -1; dx <= 1; dx += 1) {
          const x = bx + dx;
          const y = by + dy;
          if (x < 0 || y < 0 || x >= columns || y >= rows) continue;
          neighbours.push(medians[y * columns + x] ?? 0);
        }
      }
      neighbours.sort((a, b) => a - b);
      smooth[by * columns + bx] = neighbours[Math.floor(neighbours.length / 2)] ?? 0;
    }
  }
  const target = [...smooth].sort((a, b) => a - b)[Math.floor(smooth.length / 2)] ?? 0;
  const gain = new Float32Array(width * height);
  for (let y = 0; y < height; y += 1) {
    // Bilinear between block centres; beyond the outer centres the edge value holds.
    const fy = Math.min(rows - 1, Math.max(0, (y + 0.5) / block - 0.5));
    const y0 = Math.floor(fy);
    const y1 = Math.min(rows - 1, y0 + 1);
    const wy = fy - y0;
    for (let x = 0; x < width; x += 1) {
      const fx = Math.min(columns - 1, Math.max(0, (x + 0.5) / block - 0.5));
      const x0 = Math.floor(fx);
      const x1 = Math.min(columns - 1, x0 + 1);
      const wx = fx - x0;
      const light =
        (1 - wy) *
          ((1 - wx) * (smooth[y0 * columns + x0] ?? 0) + wx * (smooth[y0 * columns + x1] ?? 0)) +
        wy * ((1 - wx) * (smooth[y1 * columns + x0] ?? 0) + wx * (smooth[y1 * columns + x1] ?? 0));
      const factor = light <= 0 ? MAX_LIGHT_GAIN : target / light;
      gain[y * width + x] = Math.min(MAX_LIGHT_GAIN, factor);
    }
  }
  return gain;
}

/** CIE Lab (D65) of every pixel, three floats per pixel, its light first multiplied by `gain`. */
export function toLab(rgb: RawImage, gain?: Float32Array): Float32Array {
  const count = rgb.width * rgb.height;
  const out = new Float32Array(count * 3);
  for (let i = 0; i < count; i += 1) {
    const g0 = gain?.[i] ?? 1;
    const r = (LINEAR[rgb.data[i * 3] ?? 0] ?? 0) * g0;
    const g = (LINEAR[rgb.data[i * 3 + 1] ?? 0] ?? 0) * g0;
    const b = (LINEAR[rgb.data[i * 3 + 2] ?? 0] ?? 0) * g0;
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
export function kmeans(
  lab: Float32Array,
  count: number,
  k: number,
): { labels: Uint8Array; centres: Float32Array } {
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
  return { labels, centres };
}

function squaredCentreDistance(centres: Float32Array, a: number, b: number): number {
  let sum = 0;
  for (let axis = 0; axis < 3; axis += 1) {
    const d = (centres[a * 3 + axis] ?? 0) - (centres[b * 3 + axis] ?? 0);
    sum += d * d;
  }
  return sum;
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

interface CleanedMask {
  mask: Uint8Array;
  /** Pixels kept. */
  on: number;
  /** Height of each kept component. */
  heights: number[];
  box: PaintCandidate['box'];
  letterHeight: number;
  heightAgreement: number;
}

/**
 * The mask with only its letter-like 8-connected components (see the file comment): a stack
 * flood fill, each component judged on its bounding box and area. Also measures what the
 * kept components look like, for ranking the masks before reading them.
 */
function letterComponents(mask: Uint8Array, width: number, height: number): CleanedMask {
  const seen = new Uint8Array(width * height);
  const out = new Uint8Array(width * height);
  const stack: number[] = [];
  const pixels: number[] = [];
  const heights: number[] = [];
  const areas: number[] = [];
  const box = { left: width, top: height, right: -1, bottom: -1 };
  let on = 0;
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
    on += area;
    heights.push(boxHeight);
    areas.push(area);
    if (left < box.left) box.left = left;
    if (top < box.top) box.top = top;
    if (right > box.right) box.right = right;
    if (bottom > box.bottom) box.bottom = bottom;
  }
  // The letter height is the median height of the paint (weighted by area, so specks of
  // texture do not drag it down), and the agreement the share of paint near that height:
  // letters of one writing are alike in height, texture comes in every size.
  const order = heights.map((_, i) => i).sort((a, b) => (heights[a] ?? 0) - (heights[b] ?? 0));
  let letterHeight = 0;
  let running = 0;
  for (const i of order) {
    running += areas[i] ?? 0;
    if (running >= on / 2) {
      letterHeight = heights[i] ?? 0;
      break;
    }
  }
  let agreeing = 0;
  for (let i = 0; i < heights.length; i += 1) {
    const h = heights[i] ?? 0;
    if (h >= letterHeight / 2 && h <= letterHeight * 2) agreeing += areas[i] ?? 0;
  }
  return {
    mask: out,
    on,
    heights,
    box: on === 0 ? { left: 0, top: 0, right: 0, bottom: 0 } : box,
    letterHeight,
    heightAgreement: on === 0 ? 0 : agreeing / on,
  };
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
 * rows and columns favoured 0° by aliasing. `alignment` is the peak at that angle over the
 * mean peak of all angles tried: lines of letters give a clear maximum, texture hardly any.
 */
export function skewOf(
  mask: Uint8Array,
  width: number,
  height: number,
): { angle: number; alignment: number } {
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
  if (xs.length < 50) return { angle: 0, alignment: 1 };
  const diagonal = Math.ceil(Math.hypot(width, height));
  const bins = new Float64Array(Math.ceil((diagonal * 2 + 2) / PROFILE_BIN));
  let bestAngle = 0;
  let bestPeak = -1;
  let peaks = 0;
  let tried = 0;
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
    peaks += peak;
    tried += 1;
    if (peak > bestPeak) {
      bestPeak = peak;
      bestAngle = degrees;
    }
  }
  return { angle: bestAngle, alignment: bestPeak / (peaks / tried) };
}
