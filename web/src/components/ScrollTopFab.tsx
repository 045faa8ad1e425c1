import KeyboardArrowUpIcon from '@mui/icons-material/KeyboardArrowUp';
import { Fab, Zoom } from '@mui/material';
import { focusContent } from './focusContent.js';

/**
 * Back to the top, and the focus with it (focusContent): the button hides once the page is
 * up, and the focus it held fell to the body, so the next Tab went on from the end of the page,
 * or from the page's very start.
 */
function toTop() {
  focusContent();
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
