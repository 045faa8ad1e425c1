import { Alert, Snackbar } from '@mui/material';

/**
 * A failure told at the bottom of the screen; it goes away by itself after 6 s. Its own chunk
 * (pages load it when there is a first message to tell): the Snackbar's transition and
 * click-away code are not needed to show a page (goal 8).
 */
export default function ErrorSnackbar({
  message,
  onClose,
}: {
  message: string | null;
  onClose: () => void;
}) {
  return (
    <Snackbar
      open={message !== null}
      autoHideDuration={6000}
      onClose={onClose}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
    >
      <Alert severity="error" variant="filled" onClose={onClose}>
        {message}
      </Alert>
    </Snackbar>
  );
}
