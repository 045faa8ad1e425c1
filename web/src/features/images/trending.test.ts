import { describe, expect, it } from 'vitest';
import { rankTrending, TRENDING_SIZE, trendingScore } from './trending.js';

interface Item {
  id: number;
  filename: string;
  likes_count: number;
  views_count: number;
  shares_count: number;
}

const item = (id: number, likes = 0, views = 0, shares = 0, filename = `${id}.webp`): Item => ({
  id,
  filename,
  likes_count: likes,
  views_count: views,
  shares_count: shares,
});

const ids = (items: Item[]) => items.map((image) => image.id);

describe('trendingScore (SPEC §7)', () => {
  it('is likes + 0.1 × views + 2 × shares', () => {
    expect(trendingScore(item(1, 3, 20, 4))).toBeCloseTo(3 + 2 + 8);
    expect(trendingScore(item(1))).toBe(0);
    expect(trendingScore(item(1, 0, 1))).toBeCloseTo(0.1);
  });
});

describe('rankTrending', () => {
  it('orders by score, highest first, weighing shares twice and views a tenth', () => {
    const ranked = rankTrending([
      item(1, 5), // 5
      item(2, 0, 0, 3), // 6
      item(3, 0, 55), // 5.5
      item(4, 1, 10, 1), // 4
    ]);
    expect(ids(ranked)).toEqual([2, 3, 1, 4]);
  });

  it('keeps the server order for equal scores', () => {
    expect(ids(rankTrending([item(7, 2), item(3, 0, 0, 1), item(9, 0, 20), item(1, 2)]))).toEqual([
      7, 3, 9, 1,
    ]);
  });

  it('drops images without a file name before keeping the first 20', () => {
    const ranked = rankTrending([
      item(1, 100, 0, 0, ''),
      item(2, 1),
      item(3, 50, 0, 0, '   '),
      item(4, 2),
    ]);
    expect(ids(ranked)).toEqual([4, 2]);
  });

  it('keeps only the first 20, the best ones', () => {
    const many = Array.from({ length: 30 }, (_, index) => item(index + 1, index));
    const ranked = rankTrending(many);
    expect(TRENDING_SIZE).toBe(20);
    expect(ranked).toHaveLength(20);
    expect(ids(ranked)).toEqual(Array.from({ length: 20 }, (_, index) => 30 - index));
  });

  it('fills the 20 with images that have a file when some have none', () => {
    const many = [
      ...Array.from({ length: 5 }, (_, index) => item(100 + index, 1000, 0, 0, '')),
      ...Array.from({ length: 25 }, (_, index) => item(index + 1, 1)),
    ];
    const ranked = rankTrending(many);
    expect(ranked).toHaveLength(20);
    expect(ranked.every((image) => image.filename !== '')).toBe(true);
  });

  it('leaves the input untouched and copes with an empty list', () => {
    const input = [item(1, 1), item(2, 5)];
    rankTrending(input);
    expect(ids(input)).toEqual([1, 2]);
    expect(rankTrending([])).toEqual([]);
  });
});
