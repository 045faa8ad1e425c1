import { describe, expect, it } from 'vitest';
import { chunkLoader } from './chunkLoader.js';

/** An import that fails while `offline` is set, counting the requests it makes. */
function fakeImport() {
  const state = { offline: true, requests: 0 };
  const importChunk = () => {
    state.requests += 1;
    return state.offline
      ? Promise.reject(new TypeError('Failed to fetch dynamically imported module'))
      : Promise.resolve({ Overlay: 'overlay' });
  };
  return { state, importChunk };
}

describe('chunkLoader', () => {
  it('asks once for loads made while an attempt is under way', async () => {
    const { state, importChunk } = fakeImport();
    state.offline = false;
    const chunk = chunkLoader(importChunk);
    expect(chunk.loaded()).toBeUndefined();
    const [first, second] = await Promise.all([chunk.load(), chunk.load()]);
    expect(first).toBe(second);
    expect(state.requests).toBe(1);
    expect(chunk.loaded()).toEqual({ Overlay: 'overlay' });
    // Loaded, a render gets it at once, and nobody asks again.
    expect(chunk.read()).toBe(first);
    await chunk.load();
    expect(state.requests).toBe(1);
  });

  it('keeps a failure for renders, and asks again only when loaded anew', async () => {
    const { state, importChunk } = fakeImport();
    const chunk = chunkLoader(importChunk);
    await expect(chunk.load()).rejects.toThrow('Failed to fetch');
    // Renders after the failure throw it, however many there are, without a request each.
    for (let render = 0; render < 5; render += 1) {
      expect(() => chunk.read()).toThrow('Failed to fetch');
    }
    expect(state.requests).toBe(1);
    // Still offline: a click asks once more, and fails once more.
    await expect(chunk.load()).rejects.toThrow('Failed to fetch');
    expect(state.requests).toBe(2);
    // The network is back: the next click brings the chunk.
    state.offline = false;
    await expect(chunk.load()).resolves.toEqual({ Overlay: 'overlay' });
    expect(chunk.read()).toEqual({ Overlay: 'overlay' });
    expect(state.requests).toBe(3);
  });

  it('lets a failed preload nobody waits for pass without an unhandled rejection', async () => {
    const { importChunk } = fakeImport();
    const chunk = chunkLoader(importChunk);
    void chunk.load();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(() => chunk.read()).toThrow('Failed to fetch');
  });
});
