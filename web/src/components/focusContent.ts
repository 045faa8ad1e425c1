/**
 * Gives the focus to the page's main content (PublicLayout's `main`, focusable by script
 * only), as a skip link would: a screen reader reads on from the top of the content and Tab
 * reaches its first link, the header a Shift+Tab away. For a control that goes away with the
 * focus in it, which would otherwise fall to the body, where the next Tab starts from the page's
 * very start or end. preventScroll: a scroll of the caller's own is not cut short.
 */
export function focusContent(): void {
  document.querySelector<HTMLElement>('main')?.focus({ preventScroll: true });
}
