import { categoryDisplayName } from './format.js';

/** What of an image its words come from (every image shape of the API has these). */
export interface Describable {
  titolo_img: string | null;
  /** The text read on the wall (OCR), sent for approved images only; null until it is read. */
  extracted_text?: string | null;
  category?: { id_categoria: number; nome: string } | null;
}

/** The heading and caption of an image without a title. */
export const UNTITLED = 'Scritta sul muro';

/** Alt texts longer than this are cut: screen readers read them whole, in one breath. */
export const ALT_MAX_LENGTH = 125;

/** Category 1, 'Non categorizzata' (D6), says nothing about the picture. */
export const UNCATEGORISED_ID = 1;

/** Fewer letters than this read on a wall is OCR noise ('|', '~ ,'), not words. */
const MIN_LETTERS = 3;

/** Line breaks and runs of spaces (OCR keeps the wall's lines) become single spaces. */
function squeeze(text: string | null | undefined): string {
  return (text ?? '').replace(/\s+/gu, ' ').trim();
}

/** Cut at a word boundary when there is one close enough, with an ellipsis. */
export function truncate(text: string, max = ALT_MAX_LENGTH): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const head = chars.slice(0, max - 1).join('');
  const space = head.lastIndexOf(' ');
  const cut = space >= max * 0.6 ? head.slice(0, space) : head;
  return `${cut.replace(/[\s.,;:!?-]+$/u, '')}…`;
}

/** The image's title as headings and captions show it. */
export function imageTitle(image: Describable): string {
  const title = squeeze(image.titolo_img);
  return title === '' ? UNTITLED : title;
}

/**
 * The alt text of an image, one rule everywhere: its title; else the text read on the wall;
 * else 'Scritta sul muro' with the category's display name when it has a real one.
 */
export function imageAltText(image: Describable): string {
  const title = squeeze(image.titolo_img);
  if (title !== '') return truncate(title);
  const read = squeeze(image.extracted_text);
  if ((read.match(/\p{L}/gu) ?? []).length >= MIN_LETTERS) return truncate(read);
  const category = image.category;
  if (category === null || category === undefined || category.id_categoria === UNCATEGORISED_ID) {
    return UNTITLED;
  }
  return `${UNTITLED}, categoria ${categoryDisplayName(category.nome)}`;
}

/**
 * The name of a link made of the picture and its caption: it starts with the visible caption
 * (WCAG 2.5.3, label in name). A title is both; without one the caption is 'Scritta sul muro'
 * and what the wall says follows it.
 */
export function imageLinkLabel(image: Describable): string {
  const caption = imageTitle(image);
  if (squeeze(image.titolo_img) !== '') return caption;
  const description = imageAltText(image);
  return description.startsWith(caption) ? description : `${caption}: ${description}`;
}
