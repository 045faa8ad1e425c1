import KeyboardArrowUpIcon from '@mui/icons-material/KeyboardArrowUp';
import { Fab, Zoom } from '@mui/material';
import { useEffect, useState } from 'react';

/** SPEC §2: appears after `threshold` px of scroll (200 on home, 300 on profiles). */
export function ScrollTopButton({ threshold }: { threshold: number }) {
  const [visible, setVisible] = useState(false);
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
  return (
    <Zoom in={visible}>
      <Fab
        color="secondary"
        size="medium"
        aria-label="Torna su"
        onClick={() => window.scrollTo({ top: 0, behavior: 'smooth' })}
        sx={{ position: 'fixed', right: 24, bottom: 24 }}
      >
        <KeyboardArrowUpIcon />
      </Fab>
    </Zoom>
  );
}
