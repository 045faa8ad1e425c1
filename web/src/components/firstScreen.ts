/**
 * Whether the server's first screen (server/src/plugins/first-screen-shell.ts), still in #root
 * while React renders its first commit, shows a picture whose `attribute` is `value`, already
 * loaded. boot.ts waits for the first screen's picture before it starts the app, so a component
 * drawing the same picture can start shown: made visible by its ref instead, inside React's
 * first commit, it was a second render in that commit, which also ran the page's effects (React
 * Query's subscriptions and fetches) in the same task (goal 8: total blocking time).
 */
export function loadedOnFirstScreen(attribute: 'src' | 'srcset', value: string): boolean {
  // React's own <main> has no fs-main class: only the server's pictures are looked at.
  const pictures = document.querySelectorAll<HTMLImageElement>('#root > main.fs-main img');
  for (const picture of pictures) {
    if (picture.getAttribute(attribute) === value) {
      return picture.complete && picture.naturalWidth > 0;
    }
  }
  return false;
}
