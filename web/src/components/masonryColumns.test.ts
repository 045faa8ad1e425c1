import { describe, expect, it } from 'vitest';
import {
  columnsFor,
  GALLERY_COLUMNS,
  cardRatio,
  isCardBounded,
  placeCards,
  TALLEST_CARD,
  WIDEST_CARD,
  PROFILE_COLUMNS,
  RELATED_COLUMNS,
  SEARCH_COLUMNS,
} from './masonryColumns.js';

describe('masonry columns (SPEC §9)', () => {
  it.each([
    [2560, 5],
    [1600, 5],
    [1599, 4],
    [1200, 4],
    [1199, 3],
    [900, 3],
    [899, 2],
    [600, 2],
    [599, 2],
    [390, 2],
    [0, 2],
  ])('galleries at %ipx: %i columns', (width, columns) => {
    expect(columnsFor(GALLERY_COLUMNS, width)).toBe(columns);
  });

  it.each([
    [1920, 4],
    [1600, 4],
    [1200, 4],
    [1199, 3],
    [900, 3],
    [899, 2],
    [390, 2],
  ])('profiles at %ipx: %i columns', (width, columns) => {
    expect(columnsFor(PROFILE_COLUMNS, width)).toBe(columns);
  });

  it.each([
    [1920, 4],
    [1201, 4],
    [1200, 3],
    [901, 3],
    [900, 2],
    [390, 2],
  ])('search at %ipx: %i columns', (width, columns) => {
    expect(columnsFor(SEARCH_COLUMNS, width)).toBe(columns);
  });

  it.each([2560, 1440, 900, 390, 0])('related images at %ipx: 2 columns', (width) => {
    expect(columnsFor(RELATED_COLUMNS, width)).toBe(2);
  });

  it('falls back to the narrowest entry below every range, and never to 0 columns', () => {
    expect(columnsFor([[500, 3]], 100)).toBe(3);
    expect(columnsFor([], 1000)).toBe(1);
    expect(columnsFor([[0, 0]], 1000)).toBe(1);
  });
});

describe('placeCards', () => {
  const square = (id: number) => ({ id, width: 100, height: 100 });
  const tall = (id: number) => ({ id, width: 100, height: 200 });
  /** The ids in each lane, top to bottom. */
  const lanes = (items: Array<{ id: number; width: number; height: number }>, count: number) => {
    const placed = placeCards(items, count);
    return placed.lanes.map((_, lane) =>
      placed.cards.filter((card) => card.lane === lane).map((card) => card.item.id),
    );
  };

  it('keeps the items’ order, each card saying what stands above it in its lane', () => {
    const placed = placeCards([tall(1), square(2), square(3), square(4)], 2);
    expect(
      placed.cards.map(({ item, lane, above, before }) => [item.id, lane, above, before]),
    ).toEqual([
      [1, 0, 0, 0],
      [2, 1, 0, 0],
      [3, 1, 1, 1],
      [4, 0, 2, 1],
    ]);
    expect(placed.lanes).toEqual([
      { height: 3, cards: 2 },
      { height: 2, cards: 2 },
    ]);
  });

  it('deals equal items left to right, row after row', () => {
    expect(lanes([1, 2, 3, 4, 5].map(square), 2)).toEqual([
      [1, 3, 5],
      [2, 4],
    ]);
  });

  it('puts each item in the shortest lane so far', () => {
    // 1 is two squares tall: 3 goes to the second lane, then 4 to the first on the tie.
    expect(lanes([tall(1), square(2), square(3), square(4), square(5)], 2)).toEqual([
      [1, 4],
      [2, 3, 5],
    ]);
  });

  it('counts a picture beyond the cards’ bounds as its card, at the bound', () => {
    // A scrolling screenshot ten squares tall takes a card two squares tall.
    const screenshot = { id: 1, width: 100, height: 1000 };
    expect(lanes([screenshot, square(2), square(3), square(4)], 2)).toEqual([
      [1, 4],
      [2, 3],
    ]);
  });

  it('measures height relative to width, and survives a zero width', () => {
    const wide = { id: 1, width: 400, height: 100 };
    expect(lanes([wide, square(2), square(3)], 2)).toEqual([[1, 3], [2]]);
    expect(lanes([{ id: 1, width: 0, height: 10 }, square(2)], 2)).toEqual([[1], [2]]);
  });

  it('has as many lanes as columns, empty ones included, and at least one', () => {
    expect(lanes([square(1)], 3)).toEqual([[1], [], []]);
    expect(lanes([square(1), square(2)], 0)).toEqual([[1, 2]]);
  });
});

describe('cardRatio', () => {
  it('is the picture’s own shape within the bounds', () => {
    expect(cardRatio({ width: 1200, height: 900 })).toBe(0.75);
    expect(isCardBounded({ width: 1200, height: 900 })).toBe(false);
    expect(cardRatio({ width: 900, height: 1800 })).toBe(TALLEST_CARD);
    expect(isCardBounded({ width: 900, height: 1800 })).toBe(false);
  });

  it('stops a very tall or very wide picture at the bound', () => {
    expect(cardRatio({ width: 1080, height: 10_000 })).toBe(TALLEST_CARD);
    expect(isCardBounded({ width: 1080, height: 10_000 })).toBe(true);
    expect(cardRatio({ width: 2048, height: 100 })).toBe(WIDEST_CARD);
    expect(isCardBounded({ width: 2048, height: 100 })).toBe(true);
    expect(cardRatio({ width: 0, height: 10 })).toBe(TALLEST_CARD);
  });
});
