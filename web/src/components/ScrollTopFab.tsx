import KeyboardArrowUpIcon from '@mui/icons-material/KeyboardArrowUp';
import { Fab, Zoom } from '@mui/material';

/** The button of ScrollTopButton.tsx, in a chunk of its own: see there. */
export default function ScrollTopFab({ visible }: { visible: boolean }) {
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
