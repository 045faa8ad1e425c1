import { DISPLAY_WIDTH } from '../lib/imaging.js';
import {
  escapeHtml,
  imageAltText,
  imageTitle,
  wallReading,
  type ShellImage,
} from './first-screen-shell.js';

/*
 * What a link to a page shows where people share it: a chat, a social network, a search
 * result. Their readers do not run JavaScript, so the tab's title the web app sets (D11) and
 * the picture never reach them from the app; the server writes them into index.html. An image
 * page names its writing and shows its picture (Open Graph and Twitter's card); every other
 * page says it is Muri Parlanti. Whatever comes from the database goes through escapeHtml.
 */

export const SITE_NAME = 'Muri Parlanti';
/** Previews show two or three lines of description; longer is cut between words. */
const DESCRIPTION_MAX_LENGTH = 200;

/** D11, as web/src/lib/format.ts pageTitle writes it: 'Amore · Muri Parlanti'. */
export function pageTitle(name: string): string {
  return `${name} · ${SITE_NAME}`;
}

/** The display size the preview shows (lib/imaging.ts): the original, at most 1280 px wide. */
function displaySize(image: ShellImage): { width: number; height: number } {
  const scale = Math.min(1, DISPLAY_WIDTH / Math.max(image.width, 1));
  return {
    width: Math.max(1, Math.round(image.width * scale)),
    height: Math.max(1, Math.round(image.height * scale)),
  };
}

/**
 * Whether readers outside this machine can reach the site: with PUBLIC_URL unset (its default
 * is http://localhost:<PORT>) a chat's preview would fetch localhost, so no address is named.
 */
function reachableFromOutside(site: string): boolean {
  try {
    const host = new URL(site).hostname;
    return !(
      host === 'localhost' ||
      host.endsWith('.localhost') ||
      host === '[::1]' ||
      /^127\./.test(host)
    );
  } catch {
    return false;
  }
}

const tag = (attribute: 'property' | 'name', key: string, value: string) =>
  `<meta ${attribute}="${key}" content="${escapeHtml(value)}">`;

/**
 * The <meta> tags of a page at `pathname` (its query left out: one address per page), as
 * `siteUrl` (PUBLIC_URL) reaches it; with the image an image page shows, that image's.
 */
export function linkPreview(siteUrl: string, pathname: string, image?: ShellImage): string {
  const site = siteUrl.replace(/\/+$/, '');
  const whole = reachableFromOutside(site);
  const tags = [
    tag('property', 'og:site_name', SITE_NAME),
    tag('property', 'og:locale', 'it_IT'),
    tag('property', 'og:type', 'website'),
  ];
  if (whole) tags.push(tag('property', 'og:url', `${site}${pathname}`));
  if (image === undefined) {
    tags.push(tag('property', 'og:title', SITE_NAME));
    return tags.join('\n    ');
  }
  const { width, height } = displaySize(image);
  tags.push(tag('property', 'og:title', imageTitle(image)));
  // An untitled writing is described by what was read on the wall, as its alt text is. A titled
  // one is not: the title names it, and the machine's reading often has a slip the title lacks
  // ('Milano non donne mai' under 'Milano non dorme mai').
  const reading = image.titolo_img?.trim() ? '' : wallReading(image, DESCRIPTION_MAX_LENGTH);
  if (reading !== '') tags.push(tag('property', 'og:description', reading));
  if (!whole) return tags.join('\n    ');
  tags.push(
    tag('property', 'og:image', `${site}${image.display_url}`),
    tag('property', 'og:image:type', 'image/webp'),
    tag('property', 'og:image:width', String(width)),
    tag('property', 'og:image:height', String(height)),
    tag('property', 'og:image:alt', imageAltText(image)),
    tag('name', 'twitter:card', 'summary_large_image'),
  );
  return tags.join('\n    ');
}
