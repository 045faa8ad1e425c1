import { promisify } from 'node:util';
import zlib from 'node:zlib';

/*
 * Compressed answers: the page's HTML (plugins/web-app.ts) and the public lists kept as bytes
 * (plugins/public-cache.ts). A 120-image page is about 90 KB of JSON and 12 KB in brotli: on a
 * phone's connection that is most of the time it takes to show the next page of a gallery.
 * Brotli at quality 5 and gzip at level 6: a seventh of the bytes in about 2.5 and 1.1 ms for
 * such a page on this project's machine (quality 9 saves 3 % more in 18 ms;
 * docs/PERFORMANCE.md, "Public lists sent compressed").
 */

export type ContentEncoding = 'br' | 'gzip';

/** Smaller answers are sent as they are: their headers outweigh what compression saves. */
export const COMPRESS_FROM_BYTES = 1024;

/** br or gzip when the client accepts it (q=0 refuses), br first. */
export function acceptedEncoding(header: string | undefined): ContentEncoding | undefined {
  const accepted = new Set(
    (header ?? '')
      .split(',')
      .map((part) => part.trim().split(';'))
      .filter(([, q]) => q === undefined || !/^\s*q\s*=\s*0(\.0*)?\s*$/.test(q))
      .map(([name]) => name?.trim().toLowerCase()),
  );
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return undefined;
}

function brotliOptions(size: number): zlib.BrotliOptions {
  return {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size,
    },
  };
}

const GZIP_OPTIONS: zlib.ZlibOptions = { level: 6 };

/** Compressed on the event loop: for an answer made once and sent at once (the page's HTML). */
export function compressNow(body: string | Buffer, encoding: ContentEncoding): Buffer {
  return encoding === 'br'
    ? zlib.brotliCompressSync(body, brotliOptions(Buffer.byteLength(body)))
    : zlib.gzipSync(body, GZIP_OPTIONS);
}

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Compressed on libuv's threads: the event loop serves other requests meanwhile. */
export function compressed(body: Buffer, encoding: ContentEncoding): Promise<Buffer> {
  return encoding === 'br' ? brotli(body, brotliOptions(body.length)) : gzip(body, GZIP_OPTIONS);
}
