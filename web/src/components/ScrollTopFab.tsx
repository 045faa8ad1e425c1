import KeyboardArrowUpIcon from '@mui/icons-material/KeyboardArrowUp';
import { Fab, Zoom } from '@mui/material';

/**
 * Back to the top, and the focus with it. The button hides once the page is up, and the focus
 * it held fell to the body: the next Tab then went on from the end of the page, or from the
 * page's very start. It goes to the page's main content instead, as a skip link would take it:
 * a screen reader reads on from the top of the content and Tab reaches its first link (the
 * header is a Shift+Tab away), with no link rung or activated by accident. preventScroll:
 * focusing would otherwise jump there at once and cut the smooth scroll short.
 */
function toTop() {
  document.querySelector<HTMLElement>('main')?.focus({ preventScroll: true });
  window.scrollTo({ top: 0, behavior: 'smooth' });
}

/** The button of ScrollTopButton.tsx, in a chunk of its own: see there. */
export default function ScrollTopFab({ visible }: { visible: boolean }) {
  return (
    <Zoom in={visible}>
      <Fab
        color="secondary"
        size="medium"
        aria-label="Torna su"
        onClick={toTop}
        sx={{ position: 'fixed', right: 24, bottom: 24 }}
      >
        <KeyboardArrowUpIcon />
      </Fab>
    </Zoom>
  );
}
