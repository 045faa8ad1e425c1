/*
 * SPEC §9 masonry columns, by viewport width. A rule lists [minimum width, columns], widest
 * first; the first entry the width reaches applies.
 */
export type ColumnRule = ReadonlyArray<readonly [minWidth: number, columns: number]>;

/** Galleries: 5 by default, 4 under 1600px, 3 under 1200, 2 under 900 (and under 600). */
export const GALLERY_COLUMNS: ColumnRule = [
  [1600, 5],
  [1200, 4],
  [900, 3],
  [0, 2],
];

/** Profiles: 4, 3 under 1200px, 2 under 900. */
export const PROFILE_COLUMNS: ColumnRule = [
  [1200, 4],
  [900, 3],
  [0, 2],
];

/** Search: 4 by default, 3 up to 1200px, 2 up to 900 (both included). */
export const SEARCH_COLUMNS: ColumnRule = [
  [1201, 4],
  [901, 3],
  [0, 2],
];

/** Related images: always 2. */
export const RELATED_COLUMNS: ColumnRule = [[0, 2]];

/** How many columns the rule gives at this width; the narrowest entry below its range. */
export function columnsFor(rule: ColumnRule, width: number): number {
  const match = rule.find(([min]) => width >= min) ?? rule.at(-1);
  return Math.max(1, match?.[1] ?? 1);
}

/** The items with a width and a height the lanes are balanced by. */
export interface Sized {
  width: number;
  height: number;
}

/**
 * The tallest and the widest shape a masonry card takes, height over width. A picture beyond
 * them (a scrolling screenshot of 1080×10000 px, a banner of 20:1) would make a card thousands
 * of pixels tall in a 300 px column, or a sliver a few pixels high: its card stops at the bound
 * and shows the picture whole inside it (ImageCard), as a carousel tile does.
 */
export const TALLEST_CARD = 2;
export const WIDEST_CARD = 1 / 3;

/** A card's height per unit of its width: the picture's own, within the bounds above. */
export function cardRatio(item: Sized): number {
  const ratio = item.height / Math.max(item.width, 1);
  return Math.min(TALLEST_CARD, Math.max(WIDEST_CARD, ratio));
}

/** Whether the picture is beyond the bounds, so its card is not its own shape. */
export function isCardBounded(item: Sized): boolean {
  return cardRatio(item) !== item.height / Math.max(item.width, 1);
}

/** A card's place in the lanes: which lane, and what stands above it there. */
export interface PlacedCard<T> {
  item: T;
  lane: number;
  /** The cards above it in its lane, as heights per unit of the lane's width. */
  above: number;
  /** How many cards are above it in its lane (each followed by a gap). */
  before: number;
}

/**
 * Deals the items into `count` lanes, each into the lane that is shortest so far (heights
 * relative to the lane's width), leftmost on a tie: reading order stays roughly left to right
 * and the lanes end close together. The cards keep the items' order; each says where it goes.
 */
export function placeCards<T extends Sized>(
  items: readonly T[],
  count: number,
): { cards: PlacedCard<T>[]; lanes: Array<{ height: number; cards: number }> } {
  const lanes = Array.from({ length: Math.max(1, count) }, () => ({ height: 0, cards: 0 }));
  const cards = items.map((item) => {
    const shortest = Math.min(...lanes.map((lane) => lane.height));
    const lane = lanes.findIndex((candidate) => candidate.height === shortest);
    const into = lanes[lane] ?? { height: 0, cards: 0 };
    const card = { item, lane, above: into.height, before: into.cards };
    into.height += cardRatio(item);
    into.cards += 1;
    return card;
  });
  return { cards, lanes };
}
