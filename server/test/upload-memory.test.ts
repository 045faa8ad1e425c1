import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeMemory, imageWorkState, MAX_INPUT_PIXELS } from '../src/lib/imaging.js';
import { buildTestApp, type TestApp } from './helpers/app.js';
import { bearer, createUser, type TestUser } from './helpers/factories.js';
import { postUpload } from './helpers/images.js';

/*
 * Issue 8, goal 6: server peak RSS ≤ 400 MB with four uploads in flight. A progressive JPEG
 * holds its whole image's coefficients while it decodes (240 MB at 40 MP in 4:4:4), so the
 * image work is admitted within a memory budget (lib/imaging.ts): such decodes run one at a
 * time, their uploads wait, and none fails. A baseline JPEG of the same size streams and still
 * decodes two at a time. What runs is watched through imageWorkState while the requests go.
 */

let t: TestApp;
let user: TestUser;
beforeAll(async () => {
  t = await buildTestApp();
  user = await createUser(t.app);
});
afterAll(() => t.close());

/** 7296×5472, just under MAX_INPUT_PIXELS (40 MP). A flat colour: small, yet as costly to decode. */
function largeJpeg(progressive: boolean): Promise<Buffer> {
  return sharp({ create: { width: 7296, height: 5472, channels: 3, background: '#b08050' } })
    .jpeg({ quality: 85, progressive, chromaSubsampling: '4:4:4' })
    .toBuffer();
}

/** Four uploads of `bytes` at once, while the image work in flight is sampled. */
async function fourAtOnce(bytes: Buffer) {
  let mostRunning = 0;
  let mostQueued = 0;
  const sampler = setInterval(() => {
    const state = imageWorkState();
    mostRunning = Math.max(mostRunning, state.running);
    mostQueued = Math.max(mostQueued, state.queued);
  }, 1);
  try {
    const responses = await Promise.all(
      [1, 2, 3, 4].map((n) =>
        postUpload(t.app, user.token, [
          {
            name: 'file',
            value: bytes,
            filename: `muro-${String(n)}.jpg`,
            contentType: 'image/jpeg',
          },
          { name: 'title', value: `Muro ${String(n)}` },
        ]),
      ),
    );
    return { responses, mostRunning, mostQueued };
  } finally {
    clearInterval(sampler);
  }
}

describe('uploads of 40 megapixels, four at once', () => {
  it('decodes progressive JPEGs one at a time, the others waiting, and stores all four as pending', async () => {
    const bytes = await largeJpeg(true);
    expect((await sharp(bytes).metadata()).isProgressive).toBe(true);
    expect(7296 * 5472).toBeLessThanOrEqual(MAX_INPUT_PIXELS);

    const { responses, mostRunning, mostQueued } = await fourAtOnce(bytes);
    expect(responses.map((response) => response.statusCode)).toEqual([201, 201, 201, 201]);
    const ids = responses.map((response) => {
      expect(response.json()).toMatchObject({ status: 'pending' });
      return response.json<{ id_image: number }>().id_image;
    });
    // Two at once would have held ~500 MB of coefficients: never more than one ran.
    expect(mostRunning).toBe(1);
    expect(mostQueued).toBeGreaterThan(0);
    expect(imageWorkState()).toEqual({ running: 0, usedBytes: 0, queued: 0 });

    const own = await t.app.inject({
      method: 'GET',
      url: '/api/users/me/images',
      headers: bearer(user.token),
    });
    const mine = own
      .json<{ images: Array<{ id_image: number }> }>()
      .images.filter((image) => ids.includes(image.id_image));
    expect(mine).toHaveLength(4);
    for (const image of mine) {
      expect(image).toMatchObject({ status: 'pending', width: 2048, height: 1536 });
    }
  });

  it('still decodes baseline JPEGs of the same size two at a time: they stream', async () => {
    const { responses, mostRunning } = await fourAtOnce(await largeJpeg(false));
    expect(responses.map((response) => response.statusCode)).toEqual([201, 201, 201, 201]);
    expect(mostRunning).toBe(2);
  });
});

describe('the memory a decode is expected to take', () => {
  const picture = (alpha: boolean) =>
    sharp({
      create: { width: 400, height: 300, channels: alpha ? 4 : 3, background: '#b0805080' },
    });
  const estimate = async (bytes: Buffer) =>
    decodeMemory(await sharp(bytes).metadata(), 'webp', bytes);

  it("counts a lossy WebP's alpha plane, which libwebp decodes whole (1.5 bytes a pixel)", async () => {
    const plain = await estimate(await picture(false).webp({ quality: 80 }).toBuffer());
    const alpha = await estimate(await picture(true).webp({ quality: 80 }).toBuffer());
    const lossless = await estimate(await picture(true).webp({ lossless: true }).toBuffer());
    expect(alpha - plain).toBe(400 * 300 * 1.5);
    expect(lossless - plain).toBe(400 * 300 * 4);
  });
});
