import { createHmac, timingSafeEqual } from 'node:crypto';
import type { UserRow } from '../../db/tables.js';

/*
 * URLs of image files. Approved images have plain, public, forever-cacheable URLs. Pending and
 * rejected images are private (D4), yet an <img> tag cannot send a bearer token: their URLs
 * carry an expiry and an HMAC signature instead, handed out only to the uploader and to
 * administrators by the API.
 * A signed URL names the account it was handed to, and its signature covers that account's
 * token_version: the file route serves it only while that account could still see the image
 * with its bearer token (files.routes.ts). Otherwise a URL outlived what it stood for: an
 * administrator demoted, deactivated or given a new password kept every pending picture they
 * had listed for up to two hours, as did anyone the URL reached.
 */
export type FileKind = 'original' | 'display' | 'thumb';

const PRIVATE_URL_LIFETIME_SECONDS = 60 * 60;

export interface FileUrls {
  image_url: string;
  display_url: string;
  thumbnail_url: string;
}

/** The account a private file's URL is handed to (its session's version signed with it). */
export type UrlHolder = Pick<UserRow, 'id_utente' | 'token_version'>;

export interface FileUrlSigner {
  /**
   * The image's file URLs; a private image's are signed for `holder`. Without one (no account
   * asked, as in the benchmarks) a private image gets its plain paths, which only a bearer
   * token opens.
   */
  urls(
    image: { id_image: number; filename: string; status: string },
    nowMs: number,
    holder: UrlHolder | null,
  ): FileUrls;
  /** Whether a signed query is valid for this file, now, as signed for `holder` as it is now. */
  verify(
    filename: string,
    kind: FileKind,
    query: { exp: string; sig: string },
    holder: UrlHolder,
    nowMs: number,
  ): boolean;
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
  const signature = (filename: string, kind: FileKind, exp: number, holder: UrlHolder) =>
    createHmac('sha256', key)
      .update(`${filename}|${kind}|${exp}|${holder.id_utente}|${holder.token_version}`)
      .digest('base64url');

  return {
    urls(image, nowMs, holder) {
      if (image.status === 'approved' || holder === null) {
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
        `${publicPath(kind, image)}?exp=${exp}&u=${holder.id_utente}&sig=${signature(image.filename, kind, exp, holder)}`;
      return {
        image_url: signed('original'),
        display_url: signed('display'),
        thumbnail_url: signed('thumb'),
      };
    },
    verify(filename, kind, { exp, sig }, holder, nowMs) {
      if (!/^\d{1,12}$/.test(exp) || Number(exp) * 1000 < nowMs) return false;
      const expected = Buffer.from(signature(filename, kind, Number(exp), holder));
      const given = Buffer.from(sig);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}
