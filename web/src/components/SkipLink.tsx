import { Box } from '@mui/material';
import type { MouseEvent } from 'react';
import { focusContent } from './focusContent.js';

/**
 * 'Vai al contenuto': the page's first Tab stop, out of sight until it has the focus. Without
 * it a keyboard reached a page's content only after the header and each chip of the category
 * strip (up to 50 of them, SPEC §2), again on every page; the back-office's side navigation
 * came before its content the same way.
 * A click of its own rather than the #fragment's: the router would take the new address for a
 * navigation of its own.
 */
export function SkipLink() {
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    focusContent();
    document.querySelector('main')?.scrollIntoView();
  };
  return (
    <Box
      component="a"
      href="#contenuto"
      onClick={skip}
      sx={{
        position: 'fixed',
        top: 8,
        left: 8,
        zIndex: 'tooltip',
        px: 2,
        py: 1,
        borderRadius: 1,
        bgcolor: 'secondary.main',
        color: 'secondary.contrastText',
        fontWeight: 700,
        textDecoration: 'none',
        // Out of sight, yet in the tab order and read by screen readers, until focused.
        // In px: in `sx` a bare 1 is 100 %, a box as large as the screen that only `clip` hid.
        '&:not(:focus)': {
          width: '1px',
          height: '1px',
          p: 0,
          m: '-1px',
          overflow: 'hidden',
          clip: 'rect(0 0 0 0)',
          clipPath: 'inset(50%)',
          whiteSpace: 'nowrap',
        },
        '&:focus-visible': { outline: '2px solid', outlineColor: 'common.white', outlineOffset: 2 },
      }}
    >
      Vai al contenuto
    </Box>
  );
}
