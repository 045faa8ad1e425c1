import { useEffect, useLayoutEffect } from 'react';
import { NavigationType, useLocation, useNavigationType } from 'react-router';

/*
 * What React Router's <ScrollRestoration> did, for the declarative <BrowserRouter>: that one
 * needs the data router, a quarter of the JavaScript every page loaded first (goal 8), and
 * nothing else here used it. Back and forward land where the reader left the page (also after
 * a reload, through sessionStorage); any other navigation starts at the top, or at its #hash.
 */

const STORAGE_KEY = 'muri-scroll-positions';

/** Where each history entry (location.key) was left. */
const positions: Record<string, number> = readSaved();
/** The entry on screen: scrolling records its position under this key. */
let currentKey: string | undefined;

function readSaved(): Record<string, number> {
  try {
    const saved: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '{}');
    return typeof saved === 'object' && saved !== null ? (saved as Record<string, number>) : {};
  } catch {
    return {};
  }
}

function recordPosition() {
  if (currentKey !== undefined) positions[currentKey] = window.scrollY;
}

function savePositions() {
  recordPosition();
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(positions));
  } catch {
    // Storage full or refused: back and forward still work within this page's life.
  }
}

export function ScrollRestoration() {
  const location = useLocation();
  const navigationType = useNavigationType();

  useEffect(() => {
    // The browser would restore too, before the page has drawn the content it scrolls to.
    window.history.scrollRestoration = 'manual';
    // The position is recorded as the reader scrolls: when a navigation commits, the page
    // being left is already replaced, and its position could no longer be read.
    window.addEventListener('scroll', recordPosition, { passive: true });
    window.addEventListener('pagehide', savePositions);
    return () => {
      window.history.scrollRestoration = 'auto';
      window.removeEventListener('scroll', recordPosition);
      window.removeEventListener('pagehide', savePositions);
    };
  }, []);

  // Before the paint of the new page, so it never shows at the old one's position.
  useLayoutEffect(() => {
    currentKey = location.key;
    const saved = positions[location.key];
    if (navigationType === NavigationType.Pop && saved !== undefined) {
      window.scrollTo(0, saved);
      return;
    }
    if (location.hash !== '') {
      const target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
      if (target !== null) {
        target.scrollIntoView();
        return;
      }
    }
    window.scrollTo(0, 0);
  }, [location.key, location.hash, navigationType]);

  return null;
}
