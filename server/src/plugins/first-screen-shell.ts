import { thumbHashToDataURL } from 'thumbhash';
import { categoryDisplayName } from '../lib/text.js';

/*
 * The first screen of a page as static HTML and CSS, sent inside index.html's #root so a phone
 * paints the header and the page's largest picture as soon as the HTML and the picture are
 * there, instead of after React, MUI and emotion have run (goal 8: an empty #root kept the
 * mobile FCP at 2.1–2.4 s and the LCP at 3.2–4.2 s, all of it "render delay").
 *
 * React does not hydrate it: the web app's first render replaces the whole of #root in one
 * commit (web/src/main.tsx waits for the page's chunk and data first), with the same elements
 * at the same places and sizes, so nothing moves. Hence the CSS below copies the measurements
 * of the MUI components it stands for (theme: web/src/app/theme.ts); a change of those layouts
 * must be made here too (the browser test e2e/test/first-screen.test.ts compares them).
 *
 * Everything that comes from the database (titles, text read on the walls, URLs) goes through
 * `escapeHtml`; nothing else is interpolated.
 */

/** The fields of an image (GalleryImage and ImageDetail both have them) the shell draws. */
export interface ShellImage {
  id_image: number;
  filename?: string | null;
  image_url: string;
  display_url: string;
  thumbnail_url: string;
  width: number;
  height: number;
  placeholder: string | null;
  titolo_img: string | null;
  extracted_text?: string | null;
  category?: { id_categoria: number; nome: string } | null;
  likes_count: number;
  views_count: number;
  shares_count: number;
}

/** Text and attribute values alike: the five characters that can end or start markup. */
export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/**
 * JSON inside <script type="application/json">: `<` only ever appears inside JSON strings,
 * where `\u003c` means the same, so no `</script>` or `<!--` can end or change the element.
 * U+2028 and U+2029 are escaped too, for any reader that treats the text as JavaScript.
 */
export function jsonForScript(json: string): string {
  return json
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

// ---- Words, as the web app writes them (web/src/lib/imageText.ts and lib/format.ts). ----

const UNTITLED = 'Scritta sul muro';
const ALT_MAX_LENGTH = 125;
const UNCATEGORISED_ID = 1;
const MIN_LETTERS = 3;

const squeeze = (text: string | null | undefined) => (text ?? '').replace(/\s+/gu, ' ').trim();

function truncate(text: string, max = ALT_MAX_LENGTH): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const head = chars.slice(0, max - 1).join('');
  const space = head.lastIndexOf(' ');
  const cut = space >= max * 0.6 ? head.slice(0, space) : head;
  return `${cut.replace(/[\s.,;:!?-]+$/u, '')}…`;
}

/** The caption of a picture and the name of its page (the tab's title, D11). */
export function imageTitle(image: ShellImage): string {
  const title = squeeze(image.titolo_img);
  return title === '' ? UNTITLED : title;
}

/** The text read on the wall, cut to `max` characters; '' when it has too few letters to say. */
export function wallReading(image: ShellImage, max = ALT_MAX_LENGTH): string {
  const read = squeeze(image.extracted_text);
  return (read.match(/\p{L}/gu) ?? []).length >= MIN_LETTERS ? truncate(read, max) : '';
}

/** SPEC §2 alt texts: the title; else the text read on the wall; else the category's. */
export function imageAltText(image: ShellImage): string {
  const title = squeeze(image.titolo_img);
  if (title !== '') return truncate(title);
  const read = wallReading(image);
  if (read !== '') return read;
  const category = image.category;
  if (category === null || category === undefined || category.id_categoria === UNCATEGORISED_ID) {
    return UNTITLED;
  }
  return `${UNTITLED}, categoria ${categoryDisplayName(category.nome)}`;
}

/** A picture link's name: the visible caption first (WCAG 2.5.3), then what the wall says. */
export function imageLinkLabel(image: ShellImage): string {
  const caption = imageTitle(image);
  if (squeeze(image.titolo_img) !== '') return caption;
  const description = imageAltText(image);
  return description.startsWith(caption) ? description : `${caption}: ${description}`;
}

function blurUrl(placeholder: string | null): string | undefined {
  if (placeholder === null) return undefined;
  try {
    return thumbHashToDataURL(Buffer.from(placeholder, 'base64'));
  } catch {
    return undefined;
  }
}

// ---- Pictures, as the web app lays them out. ----

/** SPEC §7, as the web app ranks trending (web/src/features/images/trending.ts). */
function trendingScore(image: ShellImage): number {
  return image.likes_count + 0.1 * image.views_count + 2 * image.shares_count;
}

/** SPEC §7: images with a file, best score first; equal scores keep the server's order. */
export function rankTrending(images: readonly ShellImage[], size: number): ShellImage[] {
  return images
    .filter((image) => typeof image.filename === 'string' && image.filename.trim() !== '')
    .map((image, index) => ({ image, index, score: trendingScore(image) }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, size)
    .map(({ image }) => image);
}

/** The candidates of the image page's <img srcset> (web/src/pages/ImagePage.tsx, LargeImage). */
export function largeImageSources(image: ShellImage): string {
  const sources = [
    `${image.thumbnail_url} 400w`,
    `${image.display_url} ${Math.min(image.width, 1280)}w`,
  ];
  if (image.width > 1280) sources.push(`${image.image_url} ${image.width}w`);
  return sources.join(', ');
}
/** The same <img>'s sizes: the browser must pick the same candidate for the preload to count. */
export const LARGE_IMAGE_SIZES = '(min-width: 1200px) 65vw, 100vw';

/** The slides of the home carousel the widest screen shows (components/ImageCarousel.tsx). */
export const SLIDES_IN_VIEW = 5;

const WEEK_TITLE = 'Le scritte della settimana';

const icon = (paths: string) =>
  `<svg class="fs-icon" focusable="false" aria-hidden="true" viewBox="0 0 24 24">${paths}</svg>`;
const SEARCH_ICON = icon(
  '<path d="M15.5 14h-.79l-.28-.27C15.41 12.59 16 11.11 16 9.5 16 5.91 13.09 3 9.5 3S3 5.91 3 9.5 5.91 16 9.5 16c1.61 0 3.09-.59 4.23-1.57l.27.28v.79l5 4.99L20.49 19zm-6 0C7.01 14 5 11.99 5 9.5S7.01 5 9.5 5 14 7.01 14 9.5 11.99 14 9.5 14"/>',
);
const CATEGORY_ICON = icon(
  '<path d="m12 2-5.5 9h11z"/><circle cx="17.5" cy="17.5" r="4.5"/><path d="M3 13.5h8v8H3z"/>',
);
const ACCOUNT_ICON = icon(
  '<path d="M12 2C6.48 2 2 6.48 2 12s4.48 10 10 10 10-4.48 10-10S17.52 2 12 2m0 4c1.93 0 3.5 1.57 3.5 3.5S13.93 13 12 13s-3.5-1.57-3.5-3.5S10.07 6 12 6m0 14c-2.03 0-4.43-.82-6.14-2.88C7.55 15.8 9.68 15 12 15s4.45.8 6.14 2.12C16.43 19.18 14.03 20 12 20"/>',
);

/**
 * app/Header.tsx before its script runs: the logo and the account links work (plain links);
 * search and categories need the script, so they wait, disabled, for it.
 */
const HEADER =
  '<header class="fs-appbar"><div class="fs-toolbar">' +
  '<a class="fs-logo" href="/" aria-label="Muri Parlanti"><span>Muri <span class="fs-pink">Parlanti</span></span></a>' +
  `<button class="fs-iconbutton" type="button" aria-label="Cerca" disabled>${SEARCH_ICON}</button>` +
  `<button class="fs-iconbutton" type="button" aria-label="Categorie" disabled>${CATEGORY_ICON}</button>` +
  `<a class="fs-iconbutton" href="/login" aria-label="Account">${ACCOUNT_ICON}</a>` +
  '</div></header>';

/** app/CategoryStrip.tsx while the categories are on their way: its height, nothing else. */
const STRIP = '<div class="fs-strip" aria-hidden="true"></div>';

function slide(image: ShellImage, index: number): string {
  const blur = blurUrl(image.placeholder);
  const style = `aspect-ratio:4 / 3${blur === undefined ? '' : `;background-image:url(${blur})`}`;
  // components/ImageCard.tsx, variant 'slide': the first one is the page's LCP.
  return (
    `<div class="fs-slide"><a class="fs-card" href="/image/${String(image.id_image)}" aria-label="${escapeHtml(imageLinkLabel(image))}" style="${escapeHtml(style)}">` +
    `<img class="fs-contain" src="${escapeHtml(image.thumbnail_url)}" alt="" width="${String(image.width)}" height="${String(image.height)}"${index === 0 ? ' fetchpriority="high"' : ''}>` +
    '</a></div>'
  );
}

/** pages/HomePage.tsx, inside <main>: the hidden h1 and the week's carousel (the slides a screen can show). */
export function homeShell(trending: readonly ShellImage[]): string {
  const slides = rankTrending(trending, SLIDES_IN_VIEW);
  if (slides.length === 0) return '';
  return (
    '<h1 class="fs-hidden">Muri Parlanti</h1>' +
    `<section class="fs-section" aria-labelledby="fs-trending"><h2 class="fs-h2" id="fs-trending">${WEEK_TITLE}</h2>` +
    `<div class="fs-track">${slides.map(slide).join('')}</div></section>`
  );
}

/** pages/ImagePage.tsx, inside <main>: the picture at its place in the page's grid (LargeImage). */
export function imageShell(image: ShellImage): string {
  const blur = blurUrl(image.placeholder);
  const ratio = image.width / Math.max(image.height, 1);
  const frame =
    `width:min(100%, calc((100vh - 200px) * ${String(ratio)}));aspect-ratio:${String(image.width)} / ${String(image.height)}` +
    (blur === undefined ? '' : `;background-image:url(${blur})`);
  return (
    '<div class="fs-detail"><div class="fs-grid"><div class="fs-sticky"><div class="fs-paper">' +
    `<div class="fs-frame" style="${escapeHtml(frame)}">` +
    `<img class="fs-contain" src="${escapeHtml(image.display_url)}" srcset="${escapeHtml(largeImageSources(image))}" sizes="${LARGE_IMAGE_SIZES}" width="${String(image.width)}" height="${String(image.height)}" alt="${escapeHtml(imageAltText(image))}" fetchpriority="high" decoding="async">` +
    '</div></div></div></div></div>'
  );
}

/** app/PublicLayout.tsx: the header, the category strip (not on profiles) and <main>. */
export function shell(main: string, strip = true): string {
  return `${HEADER}${strip ? STRIP : ''}<main class="fs-main">${main}</main>`;
}

/**
 * The CSS of the elements above, from MUI's measurements as the theme sets them: Toolbar 56 px
 * (48 px on a landscape phone, 64 px from 600 px), Container gutters 16/24 px, Typography h5 and
 * h6, IconButton 40 px, the carousel's 50 %/20 % slides with 12 px gaps, the image page's grid.
 * What CssBaseline sets on <body> is here too, so the page has its colours before any script.
 */
export const SHELL_CSS = `
html{-webkit-font-smoothing:antialiased;box-sizing:border-box;-webkit-text-size-adjust:100%;color-scheme:dark}
*,*::before,*::after{box-sizing:inherit}
body{margin:0;color:#fff;background-color:#121212;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;font-size:1rem;line-height:1.5;letter-spacing:0.00938em}
.fs-appbar{position:sticky;top:0;z-index:1100;background:#121212;color:#fff}
.fs-toolbar{position:relative;display:flex;align-items:center;gap:8px;min-height:56px;padding:0 16px}
@media (orientation:landscape){.fs-toolbar{min-height:48px}}
@media (min-width:600px){.fs-toolbar{min-height:64px;padding:0 24px}}
.fs-logo{flex:1;color:inherit;text-decoration:none}
.fs-logo>span{font-size:1.25rem;font-weight:800;line-height:1.6;letter-spacing:0.5px}
.fs-pink{color:#f48fb1}
.fs-iconbutton{display:inline-flex;align-items:center;justify-content:center;flex:0 0 auto;padding:8px;border:0;border-radius:50%;background:transparent;color:#fff;font-size:1.5rem;margin:0;font-family:inherit}
.fs-icon{width:1em;height:1em;fill:currentColor;flex-shrink:0;user-select:none}
.fs-strip{height:56px}
.fs-main{display:block;width:100%;max-width:1800px;margin:0 auto;padding:24px 16px}
@media (min-width:600px){.fs-main{padding:24px}}
.fs-hidden{position:absolute;width:1px;height:1px;margin:-1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.fs-section{margin-bottom:32px}
@media (min-width:900px){.fs-section{margin-bottom:40px}}
.fs-h2{margin:0 0 12px;font-size:1.5rem;font-weight:800;line-height:1.334;letter-spacing:0em}
.fs-track{display:flex;margin-left:-12px;overflow:hidden}
.fs-slide{flex:0 0 auto;width:50%;min-width:0;padding-left:12px}
@media (min-width:600px){.fs-slide{width:20%}}
.fs-card{display:block;position:relative;border-radius:20px;overflow:hidden;background-color:#1e1e1e;background-size:cover;background-position:center}
.fs-contain{display:block;width:100%;height:100%;object-fit:contain}
.fs-detail{max-width:1600px;margin:0 auto}
.fs-grid{display:grid;grid-template-columns:minmax(0,1fr);gap:16px;align-items:start}
@media (min-width:900px){.fs-grid{gap:24px}}
@media (min-width:1200px){.fs-grid{grid-template-columns:minmax(0,1fr) 420px}.fs-sticky{position:sticky;top:88px}}
.fs-paper{display:flex;justify-content:center;background-color:#0b0b0b;border-radius:30px;overflow:hidden;padding:0}
@media (min-width:600px){.fs-paper{padding:16px}}
.fs-frame{position:relative;overflow:hidden;background-size:cover}
@media (min-width:600px){.fs-frame{border-radius:20px}}
`
  .trim()
  .replace(/\n/g, '');
