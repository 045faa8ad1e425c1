import { createHmac, timingSafeEqual } from 'node:crypto';

/*
 * URLs of image files. Approved images have plain, public, forever-cacheable URLs. Pending and
 * rejected images are private (D4), yet an <img> tag cannot send a bearer token: their URLs
 * carry an expiry and an HMAC signature instead, handed out only to the uploader and to
 * administrators by the API.
 */
export type FileKind = 'original' | 'display' | 'thumb';

const PRIVATE_URL_LIFETIME_SECONDS = 60 * 60;

export interface FileUrls {
  image_url: string;
  display_url: string;
  thumbnail_url: string;
}

export interface FileUrlSigner {
  urls(image: { id_image: number; filename: string; status: string }, nowMs: number): FileUrls;
  /** Whether a signed query is valid for this file, now. */
  verify(filename: string, kind: FileKind, exp: string, sig: string, nowMs: number): boolean;
}

export function publicPath(kind: FileKind, image: { id_image: number; filename: string }): string {
  switch (kind) {
    case 'original':
      return `/static/images/${image.filename}`;
    case 'display':
      return `/static/images/display/${image.filename}`;
    case 'thumb':
      return `/api/images/${image.id_image}/thumbnail`;
  }
}

export function createFileUrlSigner(secret: string): FileUrlSigner {
  // A key of its own, so a file signature can never be mistaken for anything else signed.
  const key = createHmac('sha256', secret).update('muri-parlanti:file-urls').digest();
  const signature = (filename: string, kind: FileKind, exp: number) =>
    createHmac('sha256', key).update(`${filename}|${kind}|${exp}`).digest('base64url');

  return {
    urls(image, nowMs) {
      if (image.status === 'approved') {
        return {
          image_url: publicPath('original', image),
          display_url: publicPath('display', image),
          thumbnail_url: publicPath('thumb', image),
        };
      }
      // Rounded to the hour, so the same image keeps one URL for a while and browsers cache it.
      const exp =
        Math.ceil(nowMs / 1000 / PRIVATE_URL_LIFETIME_SECONDS) * PRIVATE_URL_LIFETIME_SECONDS +
        PRIVATE_URL_LIFETIME_SECONDS;
      const signed = (kind: FileKind) =>
        `${publicPath(kind, image)}?exp=${exp}&sig=${signature(image.filename, kind, exp)}`;
      return {
        image_url: signed('original'),
        display_url: signed('display'),
        thumbnail_url: signed('thumb'),
      };
    },
    verify(filename, kind, exp, sig, nowMs) {
      if (!/^\d{1,12}$/.test(exp) || Number(exp) * 1000 < nowMs) return false;
      const expected = Buffer.from(signature(filename, kind, Number(exp)));
      const given = Buffer.from(sig);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}
