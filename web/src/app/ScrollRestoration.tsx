import { useEffect, useLayoutEffect } from 'react';
import { NavigationType, useLocation, useNavigationType } from 'react-router';

/*
 * What React Router's <ScrollRestoration> did, for the declarative <BrowserRouter>: that one
 * needs the data router, a quarter of the JavaScript every page loaded first (goal 8), and
 * nothing else here used it. Back and forward land where the reader left the page (also after
 * a reload, through sessionStorage); any other navigation starts at the top, or at its #hash.
 *
 * A page coming back is often shorter at first than it was: the home page's gallery is drawn
 * once its place nears the screen, a profile's lists once their answer is in. So a position
 * the page cannot reach yet is kept as the goal and tried again each time the page grows,
 * until it is reached, the reader scrolls on their own, or RESTORE_PATIENCE_MS pass.
 */

const STORAGE_KEY = 'muri-scroll-positions';

/** Where each history entry (location.key) was left. */
const positions: Record<string, number> = readSaved();
/** The entry on screen: scrolling records its position under this key. */
let currentKey: string | undefined;
/** Long enough for a gallery's answer on a slow phone network, short of surprising anyone. */
const RESTORE_PATIENCE_MS = 5000;
/** What a reader does to move the page themselves: the restoring stops at once. */
const READER_MOVES = ['wheel', 'touchstart', 'pointerdown', 'keydown'] as const;
/** Stops the restoring under way, if any. */
let stopRestoring: (() => void) | undefined;
/** The location the page loaded at, and whether the reader has moved on from it since. */
let loadedKey: string | undefined;
let movedOn = false;

/**
 * Whether the page was loaded by a reload or by Back or Forward from another site. React
 * Router calls every first location a POP, and an address typed or followed anew gets the same
 * key ('default') as the last one did in this tab: without this it was placed where that
 * other page had been left.
 */
function loadCameBack(): boolean {
  const [entry] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
  return entry?.type === 'reload' || entry?.type === 'back_forward';
}

function readSaved(): Record<string, number> {
  try {
    const saved: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '{}');
    return typeof saved === 'object' && saved !== null ? (saved as Record<string, number>) : {};
  } catch {
    return {};
  }
}

function recordPosition() {
  // While a position is being restored, the scrolls are ours, short of the goal: the goal
  // stays recorded, so a reload or another Back still aims at it.
  if (currentKey !== undefined && stopRestoring === undefined) {
    positions[currentKey] = window.scrollY;
  }
}

/** Scrolls to `y`, now if the page is tall enough, else as soon as it has grown enough. */
function restore(y: number) {
  const reached = () => {
    window.scrollTo(0, y);
    return Math.abs(window.scrollY - y) <= 1;
  };
  if (reached()) return;
  const observer = new ResizeObserver(() => {
    if (reached()) stop();
  });
  const timer = setTimeout(() => {
    stop();
  }, RESTORE_PATIENCE_MS);
  function stop() {
    observer.disconnect();
    clearTimeout(timer);
    for (const move of READER_MOVES) window.removeEventListener(move, stop);
    stopRestoring = undefined;
  }
  observer.observe(document.body);
  for (const move of READER_MOVES) window.addEventListener(move, stop, { passive: true });
  stopRestoring = stop;
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
    stopRestoring?.();
    currentKey = location.key;
    const saved = positions[location.key];
    loadedKey ??= location.key;
    if (location.key !== loadedKey) movedOn = true;
    const cameBack = navigationType === NavigationType.Pop && (movedOn || loadCameBack());
    if (cameBack && saved !== undefined) {
      restore(saved);
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
