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

/**
 * br or gzip when the client accepts it, br first. A coding with q=0 (any spelling of zero,
 * among any of its parameters) is refused; `*` is not taken for either.
 */
export function acceptedEncoding(header: string | undefined): ContentEncoding | undefined {
  const accepted = new Set<string>();
  for (const part of (header ?? '').split(',')) {
    const [name = '', ...parameters] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const refused = parameters.some((parameter) => /^q\s*=\s*0(\.0{0,3})?$/.test(parameter));
    if (name !== '' && !refused) accepted.add(name);
  }
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

/** Compressed on libuv's threads: the event loop serves other requests meanwhile. */
export function compressed(body: Buffer, encoding: ContentEncoding): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const done = (error: Error | null, result: Buffer) => {
      if (error === null) resolve(result);
      else reject(error);
    };
    if (encoding === 'br') zlib.brotliCompress(body, brotliOptions(body.length), done);
    else zlib.gzip(body, GZIP_OPTIONS, done);
  });
}
