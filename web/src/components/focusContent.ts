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

/**
 * Gives the focus to `element` when it has fallen to the body, as it does when the control
 * holding it goes (a form giving way to its confirmation): the next Tab then goes on from
 * there, not from the page's start. A focus the reader has moved elsewhere meanwhile is left.
 */
export function focusIfFallen(element: HTMLElement | null): void {
  const active = document.activeElement;
  if (element !== null && (active === null || active === document.body)) {
    element.focus({ preventScroll: true });
  }
}
