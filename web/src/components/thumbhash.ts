import { thumbHashToDataURL } from 'thumbhash';

/**
 * The blurred preview of an image from its base64 ThumbHash (the API's `placeholder`), shown
 * while the real file loads; undefined when there is none or it cannot be read.
 */
export function thumbHashDataUrl(placeholder: string | null): string | undefined {
  if (placeholder === null) return undefined;
  try {
    const bytes = Uint8Array.from(atob(placeholder), (c) => c.charCodeAt(0));
    return thumbHashToDataURL(bytes);
  } catch {
    return undefined;
  }
}
