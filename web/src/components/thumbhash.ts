import { thumbHashToDataURL } from 'thumbhash';

/** Decoded previews kept by ThumbHash: the same picture is on several carousels and pages. */
const decoded = new Map<string, string | undefined>();
const KEEP = 1000;

/**
 * The blurred preview of an image from its base64 ThumbHash (the API's `placeholder`), shown
 * while the real file loads; undefined when there is none or it cannot be read. Decoding one
 * (a PNG drawn and encoded in JavaScript) cost about a millisecond of a phone's CPU per card.
 */
export function thumbHashDataUrl(placeholder: string | null): string | undefined {
  if (placeholder === null) return undefined;
  if (decoded.has(placeholder)) return decoded.get(placeholder);
  let url: string | undefined;
  try {
    const bytes = Uint8Array.from(atob(placeholder), (c) => c.charCodeAt(0));
    url = thumbHashToDataURL(bytes);
  } catch {
    url = undefined;
  }
  if (decoded.size >= KEEP) decoded.clear();
  decoded.set(placeholder, url);
  return url;
}
