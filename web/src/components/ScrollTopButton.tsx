import { useEffect, useState } from 'react';
import { chunkLoader, useChunk } from '../lib/chunkLoader.js';

// The button (MUI's Fab and Zoom) loads the first time it is wanted: nobody sees it before
// scrolling, and it was part of the first load of the home and profile pages (goal 8: first-load
// JavaScript under 150 KB). Offline it may not come: the page stays, without it, and the next
// time the reader scrolls down it is asked for again.
const fab = chunkLoader(() => import('./ScrollTopFab.js'));

/** SPEC §2: appears after `threshold` px of scroll (200 on home, 300 on profiles). */
export function ScrollTopButton({ threshold }: { threshold: number }) {
  const [visible, setVisible] = useState(false);
  // Mounted from the first time it is shown on, so that it still zooms out when it goes.
  const [wanted, setWanted] = useState(false);
  if (visible && !wanted) setWanted(true);
  useEffect(() => {
    const update = () => setVisible(window.scrollY > threshold);
    // The position a reload or a return restored is read once the page is idle: read right
    // after the first commit, scrollY forced a layout of the whole new page in that same task
    // (goal 8: 36 ms of a phone's CPU at a 4× slowdown).
    const first =
      typeof requestIdleCallback === 'function'
        ? requestIdleCallback(update, { timeout: 1000 })
        : window.setTimeout(update, 0);
    window.addEventListener('scroll', update, { passive: true });
    return () => {
      if (typeof cancelIdleCallback === 'function') cancelIdleCallback(first);
      else clearTimeout(first);
      window.removeEventListener('scroll', update);
    };
  }, [threshold]);
  const { module } = useChunk(fab, visible);
  if (!wanted || module === undefined) return null;
  return <module.default visible={visible} />;
}
