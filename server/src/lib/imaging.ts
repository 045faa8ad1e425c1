import sharp, { type Metadata, type OutputInfo, type Sharp } from 'sharp';
import { rgbaToThumbHash } from 'thumbhash';
import { createWorkBudget } from './work-budget.js';

/*
 * The one place that talks to sharp (libvips) for uploads (habit 8), so limits are set once:
 * - the libvips operation cache is off: every upload is a different image, caching them would
 *   only grow memory;
 * - concurrency 2: this server has two cores, and more threads per image only queue;
 * - every decode has a pixel limit and fails on real decoding errors, so a pixel flood or a
 *   truncated file is refused instead of eating memory or producing half-grey images (a JPEG
 *   also on libjpeg's warnings of lost data, decodeJpeg).
 */
sharp.cache(false);
sharp.concurrency(2);

export type UploadType = 'jpeg' | 'png' | 'webp';

export const UPLOAD_MIME_TYPES: Record<UploadType, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
};

/**
 * The long side of the stored full image, and the widths of the derivatives. 2048 px, as the
 * large sizes of the big photo sites: the full-size encode is single-threaded and the longest
 * step of an upload, and at 2048 px (3.1 MP) it takes two thirds of the time it took at 2560 px
 * (4.9 MP; 12 MP JPEG: 168 against 244 ms; docs/PERFORMANCE.md). Images stored before keep
 * their 2560 px.
 */
export const FULL_MAX_SIDE = 2048;
export const DISPLAY_WIDTH = 1280;
export const THUMB_WIDTH = 400;

/** D4: "a bound such as 40 MP". Phone cameras reach 48–50 MP only in special modes. */
export const MAX_INPUT_PIXELS = 40_000_000;

/**
 * The longest side an upload may have, the largest a JPEG can: a PNG is decoded row by row, at
 * a cost per row, so a 78 KB PNG of 1×40,000,000 px (within the pixel bound) held an image
 * slot for 17 s; at 65,500 rows that cost is 30 ms.
 */
export const MAX_INPUT_SIDE = 65_500;

/**
 * WebP effort 2 of 6: measured on a 1200×900 photo, three encodes take about a third of the
 * time of sharp's default (4) for files a few per cent larger — uploads stay fast on 2 cores.
 */
const WEBP_EFFORT = 2;

/** The type of an upload according to its first bytes (never its name or declared type). */
export function detectUploadType(bytes: Buffer): UploadType | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    return 'jpeg';
  }
  if (bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return 'png';
  if (
    bytes.length >= 12 &&
    bytes.toString('latin1', 0, 4) === 'RIFF' &&
    bytes.toString('latin1', 8, 12) === 'WEBP'
  ) {
    return 'webp';
  }
  return undefined;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * The number of frames an APNG declares (its `acTL` chunk, which must come before the first
 * `IDAT`), or 1 for any other PNG. libvips reads an APNG as a still PNG, its first frame, and
 * reports no pages: without this an animated PNG lost its animation without a word, while an
 * animated WebP is refused.
 */
export function pngFrameCount(bytes: Buffer): number {
  if (!bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return 1;
  for (let at = 8; at + 8 <= bytes.length;) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    if (type === 'IDAT' || type === 'IEND') return 1;
    if (type === 'acTL')
      return length >= 8 && at + 16 <= bytes.length ? bytes.readUInt32BE(at + 8) : 1;
    at += 12 + length;
  }
  return 1;
}

export class ImageRejectedError extends Error {
  constructor(readonly reason: 'too-many-pixels' | 'too-long-side' | 'corrupt' | 'animated') {
    super(reason);
    this.name = 'ImageRejectedError';
  }
}

export interface ProcessedImage {
  /** WebP files to store, metadata stripped (EXIF, GPS, XMP, ICC beyond sRGB). */
  display: Buffer;
  thumb: Buffer;
  /**
   * The decoded pixels of the full size (sRGB, 3 bytes a pixel, `width`×`height`, upright, no
   * metadata of any kind): what encodeFullSize turns into the stored full-size WebP after the
   * upload is answered, so that file too comes from the one decode.
   */
  pixels: Buffer;
  width: number;
  height: number;
  /** ThumbHash of the image, base64: a blurred preview the client paints before the file. */
  placeholder: string;
}

/**
 * Image work at once (decodes and full-size encodes): two, as many as the cores, and together
 * within a memory budget. Most decodes stream (a baseline JPEG, a PNG, a lossy WebP: ~30–60 MB
 * whatever their size, the pixels at 2048 px and libvips' buffers), but some formats hold the
 * whole image while they decode: a progressive JPEG its DCT coefficients (2 bytes a sample,
 * 240 MB for 40 MP in 4:4:4), an interlaced PNG and a lossless WebP their pixels. Two such
 * decodes at once took the server to 684–722 MB with four uploads in flight (issue 8, goal 6:
 * ≤ 400 MB; docs/PERFORMANCE.md, "Large uploads"). Each task's memory is estimated from the
 * header (decodeMemory) and the budget admits them while they fit, the rest wait their turn:
 * the upload's request simply takes longer. Two ordinary decodes (12 MP JPEGs) fit together,
 * as before; one decode larger than the budget runs alone.
 */
export const IMAGE_WORK_BUDGET_BYTES = 224 * 1024 * 1024;
const imageWork = createWorkBudget({ slots: 2, bytes: IMAGE_WORK_BUDGET_BYTES });

/** What every decode or full-size encode takes besides a whole image held (measured 28–64 MB). */
const BASE_WORK_BYTES = 48 * 1024 * 1024;

/** The image work in flight now (decodes and full-size encodes), for tests and measurements. */
export const imageWorkState = () => imageWork.state();

/**
 * The memory a decode is expected to take, from the header alone: the base cost, plus the
 * whole image for the formats whose decoders hold it (measured, docs/PERFORMANCE.md). Erring
 * high only makes a decode wait for another; erring low lets two large ones overlap.
 */
export function decodeMemory(
  metadata: Metadata,
  type: UploadType | undefined,
  bytes: Buffer,
): number {
  const pixels = metadata.width * metadata.height;
  const bytesPerSample = metadata.depth === 'ushort' ? 2 : 1;
  let held = 0;
  if (type === 'jpeg' && metadata.isProgressive) {
    // libjpeg keeps every component's coefficients, 2 bytes each, for the whole image. libvips
    // says only whether the chroma is subsampled; subsampled chroma is at most half (4:2:2).
    const components = metadata.channels;
    const full =
      metadata.chromaSubsampling === undefined || metadata.chromaSubsampling.startsWith('4:4:4');
    const samples = full || components < 3 ? components : components - 1;
    held = pixels * samples * 2;
  } else if (type === 'png' && metadata.isProgressive) {
    // Adam7: libspng decodes the whole image before libvips reads a row.
    held = pixels * Math.max(metadata.channels, 3) * bytesPerSample;
  } else if (type === 'png' && bytesPerSample === 2) {
    // 16-bit rows are cast down in libvips' buffers: measured up to 2.3 bytes a pixel at 40 MP.
    held = pixels * metadata.channels;
  } else if (type === 'webp') {
    const kind = webpKind(bytes);
    // libwebp's lossless decoder holds the whole image as ARGB before it scales it.
    if (kind === 'lossless') held = pixels * 4;
    // A lossy picture's alpha plane is decoded whole too: measured +93 MB against +37 MB
    // without alpha for 40 MP, about 1.4 bytes a pixel more.
    else if (kind === 'lossy-alpha') held = Math.ceil(pixels * 1.5);
  } else if (type === undefined) {
    // Not an upload's type (processAllSizes of other files): assumed held whole, as RGBA.
    held = pixels * 4 * bytesPerSample;
  }
  return BASE_WORK_BYTES + held;
}

/**
 * A WebP's kind of picture, from its chunks: a VP8L bitstream (lossless, alpha inside it), or
 * VP8 (lossy), with an ALPH chunk before it when it has an alpha plane.
 */
function webpKind(bytes: Buffer): 'lossless' | 'lossy-alpha' | 'lossy' {
  let alpha = false;
  for (let at = 12; at + 8 <= bytes.length;) {
    const fourcc = bytes.toString('latin1', at, at + 4);
    if (fourcc === 'VP8L') return 'lossless';
    if (fourcc === 'ALPH') alpha = true;
    if (fourcc === 'VP8 ') return alpha ? 'lossy-alpha' : 'lossy';
    const size = bytes.readUInt32LE(at + 4);
    at += 8 + size + (size % 2);
  }
  return 'lossy';
}

/**
 * Decodes an upload once, applies its EXIF orientation and derives from that one decode what
 * the upload needs before it is answered: display size, thumbnail, placeholder, and the pixels
 * the full-size file is encoded from later (encodeFullSize). The full-size encode is left out
 * because it is the single-threaded long pole of an upload (issue 8, goal 6: ~170 ms of a
 * 12 MP JPEG's ~300). Throws ImageRejectedError for pixel floods, animations and files that do
 * not decode cleanly.
 */
export async function processUpload(bytes: Buffer): Promise<ProcessedImage> {
  const type = detectUploadType(bytes);
  // Read outside the budget: a refusal waits for no decode, and the cost comes from the header.
  const metadata = await checkedHeader(bytes);
  return imageWork.run(decodeMemory(metadata, type, bytes), () => decodeAndDerive(bytes, type));
}

/**
 * The stored full-size WebP from the pixels processUpload decoded (the same bytes whichever
 * process encodes them, so the analysis always reads a file of the same quality).
 */
export function encodeFullSize(pixels: Buffer, width: number, height: number): Promise<Buffer> {
  if (pixels.length !== width * height * 3) {
    return Promise.reject(new RangeError(`${pixels.length} bytes are not ${width}×${height}×3`));
  }
  // Effort 1 would encode it in 0.5–0.75× the time, but the analysis reads this file, and on
  // the reading evaluation (docs/READING.md) effort 1's artefacts cost 1.3 points of word
  // accuracy, 3.5 of search and 6 of 80 duplicate pairs.
  return imageWork.run(BASE_WORK_BYTES, () =>
    sharp(pixels, { raw: { width, height, channels: 3 } })
      .webp({ quality: 85, effort: WEBP_EFFORT })
      .toBuffer(),
  );
}

/**
 * Every stored file at once, the full size included: for what is made before anybody waits
 * for it (demo content, the reading evaluation).
 */
export async function processAllSizes(
  bytes: Buffer,
): Promise<ProcessedImage & { original: Buffer }> {
  const processed = await processUpload(bytes);
  const original = await encodeFullSize(processed.pixels, processed.width, processed.height);
  return { ...processed, original };
}

const DECODE_OPTIONS = { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' as const };

/** The header of an upload, refused before any pixel is decoded if it is not one to decode. */
async function checkedHeader(bytes: Buffer): Promise<Metadata> {
  let metadata: Metadata;
  try {
    // Reads the header only; the pixel limit is checked below so it gets its own message.
    metadata = await sharp(bytes, { ...DECODE_OPTIONS, limitInputPixels: false }).metadata();
  } catch {
    throw new ImageRejectedError('corrupt');
  }
  const { width, height } = metadata;
  if (width * height > MAX_INPUT_PIXELS) throw new ImageRejectedError('too-many-pixels');
  if (Math.max(width, height) > MAX_INPUT_SIDE) throw new ImageRejectedError('too-long-side');
  if ((metadata.pages ?? 1) > 1 || pngFrameCount(bytes) > 1) {
    throw new ImageRejectedError('animated');
  }
  return metadata;
}

async function decodeAndDerive(
  bytes: Buffer,
  type: UploadType | undefined,
): Promise<ProcessedImage> {
  const decode = (input: Buffer, failOn: 'error' | 'warning') =>
    sharp(input, { ...DECODE_OPTIONS, failOn })
      .rotate()
      // The stored files have no alpha. Dropping it bare kept the colour under the transparent
      // pixels, black for PNGs exported from a canvas: dark writing on a transparent
      // background came out as a black rectangle. White, as the analysis reads it (ocr.ts).
      .flatten({ background: '#ffffff' })
      .resize({
        width: FULL_MAX_SIDE,
        height: FULL_MAX_SIDE,
        fit: 'inside',
        withoutEnlargement: true,
      })
      .toColourspace('srgb')
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
  let decoded: { data: Buffer; info: OutputInfo };
  try {
    decoded = type === 'jpeg' ? await decodeJpeg(bytes, decode) : await decode(bytes, 'error');
  } catch {
    throw new ImageRejectedError('corrupt');
  }

  const raw = { width: decoded.info.width, height: decoded.info.height, channels: 3 as const };
  const fromRaw = () => sharp(decoded.data, { raw });
  const [display, thumb, placeholder] = await Promise.all([
    fromRaw()
      .resize({ width: DISPLAY_WIDTH, withoutEnlargement: true })
      .webp({ quality: 80, effort: WEBP_EFFORT })
      .toBuffer(),
    fromRaw()
      .resize({ width: THUMB_WIDTH, withoutEnlargement: true })
      .webp({ quality: 72, effort: WEBP_EFFORT })
      .toBuffer(),
    thumbHashOf(fromRaw()),
  ]);
  return {
    display,
    thumb,
    pixels: decoded.data,
    width: raw.width,
    height: raw.height,
    placeholder,
  };
}

/**
 * libjpeg reports lost picture data only as warnings, which `failOn: 'error'` lets through: a
 * JPEG cut short and then closed with an end marker, or damaged in its middle, decoded with its
 * lower part grey and was stored so. Other warnings are harmless (extraneous bytes between
 * segments, a bad ICC marker, an unknown Adobe transform are common in cameras' files).
 */
const JPEG_PIXELS_LOST =
  /premature end of data segment|bad Huffman code|bad arithmetic code|instead of RST|Inconsistent progression|premature end of JPEG/i;
const JPEG_END_MISSING = /premature end of JPEG/i;
const JPEG_EOI = Buffer.from([0xff, 0xd9]);

/**
 * A JPEG decoded strictly: any warning of lost pixels refuses it; a file that only lacks its
 * end marker (all its data there, as some cameras and apps write them, and as browsers show
 * them) is decoded with the marker added, strictly again, so a cut file still fails.
 */
async function decodeJpeg<T>(
  bytes: Buffer,
  decode: (input: Buffer, failOn: 'error' | 'warning') => Promise<T>,
): Promise<T> {
  try {
    return await decode(bytes, 'warning');
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (!JPEG_PIXELS_LOST.test(message)) return decode(bytes, 'error');
    if (JPEG_END_MISSING.test(message) && !bytes.subarray(-2).equals(JPEG_EOI)) {
      return decode(Buffer.concat([bytes, JPEG_EOI]), 'warning');
    }
    throw error;
  }
}

async function thumbHashOf(image: Sharp): Promise<string> {
  // ThumbHash encodes at most 100×100 pixels.
  const { data, info } = await image
    .resize({ width: 100, height: 100, fit: 'inside' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return Buffer.from(rgbaToThumbHash(info.width, info.height, data)).toString('base64');
}
