import { Alert, Snackbar } from '@mui/material';
import { useCallback, useState } from 'react';

export interface NoticeState {
  message: string;
  severity: 'success' | 'error' | 'info' | 'warning';
}

/**
 * Feedback after an action: a snackbar at the bottom centre that closes after 6 s (SPEC §9).
 *
 * Its text enters live regions that are in the page before it (a polite one for what went
 * well, an assertive one for what did not), as SuccessNotice's does: the snackbar's own alert,
 * drawn together with its text, was passed over by screen readers, and an administrator
 * approving, rejecting or deleting heard nothing of the outcome. Give `element` to AdminPage's
 * `notice`, which keeps it there while the page loads, so the regions are never new.
 */
export function useNotice() {
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const [open, setOpen] = useState(false);
  // Counts the notices shown. The snackbar's timer starts when it opens, not when its text
  // changes: a notice following another within 6 s closed when the first one's time was up
  // (an error after a success, gone in a second). A new key makes each one a snackbar of its own.
  const [shown, setShown] = useState(0);
  const show = useCallback((message: string, severity: NoticeState['severity'] = 'success') => {
    setNotice({ message, severity });
    setOpen(true);
    setShown((count) => count + 1);
  }, []);
  const close = () => setOpen(false);
  const snackbar =
    notice === null ? null : (
      <Snackbar
        key={shown}
        open={open}
        autoHideDuration={6000}
        onClose={(_event, reason) => {
          if (reason !== 'clickaway') close();
        }}
        // The text goes with the snackbar, so that a region holds only what is on show.
        slotProps={{ transition: { onExited: () => setNotice(null) } }}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      >
        <Alert
          severity={notice.severity}
          // role none: the region around it is the one that speaks, once.
          role="none"
          variant="filled"
          onClose={close}
          slotProps={{ closeButton: { 'aria-label': 'Chiudi' } }}
          sx={{ width: '100%' }}
        >
          {notice.message}
        </Alert>
      </Snackbar>
    );
  const urgent = notice !== null && (notice.severity === 'error' || notice.severity === 'warning');
  const element = (
    <>
      <div role="status">{urgent ? null : snackbar}</div>
      <div role="alert">{urgent ? snackbar : null}</div>
    </>
  );
  return { show, element };
}
