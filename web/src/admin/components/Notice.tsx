import { Alert, Snackbar } from '@mui/material';
import { useCallback, useState } from 'react';

export interface NoticeState {
  message: string;
  severity: 'success' | 'error' | 'info' | 'warning';
}

/** Feedback after an action: a snackbar at the bottom centre that closes after 6 s (SPEC §9). */
export function useNotice() {
  const [notice, setNotice] = useState<NoticeState | null>(null);
  // Counts the notices shown. The snackbar's timer starts when it opens, not when its text
  // changes: a notice following another within 6 s closed when the first one's time was up
  // (an error after a success, gone in a second). A new key makes each one a snackbar of its own.
  const [shown, setShown] = useState(0);
  const show = useCallback((message: string, severity: NoticeState['severity'] = 'success') => {
    setNotice({ message, severity });
    setShown((count) => count + 1);
  }, []);
  const element = (
    <Snackbar
      key={shown}
      open={notice !== null}
      autoHideDuration={6000}
      onClose={(_event, reason) => {
        if (reason !== 'clickaway') setNotice(null);
      }}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
    >
      {notice === null ? undefined : (
        <Alert
          severity={notice.severity}
          variant="filled"
          onClose={() => setNotice(null)}
          sx={{ width: '100%' }}
        >
          {notice.message}
        </Alert>
      )}
    </Snackbar>
  );
  return { show, element };
}
