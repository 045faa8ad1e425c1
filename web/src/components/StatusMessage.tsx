import CloseIcon from '@mui/icons-material/Close';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  IconButton,
  Stack,
  Typography,
  type SxProps,
  type Theme,
} from '@mui/material';
import type { ReactNode } from 'react';

/** The three states every list has: loading, error, empty (SPEC §4, §8). */
export function Loading() {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
      <CircularProgress aria-label="Caricamento" color="secondary" />
    </Box>
  );
}

/**
 * A failure in place of what could not be loaded; with `onRetry`, a 'Riprova' button asks
 * again, for a failure that another try may mend (a network drop), so the page need not be
 * reloaded and scrolled down again; with `onClose`, a 'Chiudi' button puts it away, for a
 * failure told beside a page that is still there (the header's).
 */
export function ErrorMessage({
  message,
  onRetry,
  onClose,
  sx = { my: 3 },
}: {
  message: string;
  onRetry?: () => void;
  onClose?: () => void;
  sx?: SxProps<Theme>;
}) {
  const actions = (
    <>
      {onRetry !== undefined && (
        <Button color="inherit" size="small" onClick={onRetry}>
          Riprova
        </Button>
      )}
      {onClose !== undefined && (
        <IconButton aria-label="Chiudi" color="inherit" size="small" onClick={onClose}>
          <CloseIcon fontSize="small" />
        </IconButton>
      )}
    </>
  );
  return (
    <Alert
      severity="error"
      sx={sx}
      action={onRetry === undefined && onClose === undefined ? undefined : actions}
    >
      {message}
    </Alert>
  );
}

/**
 * A confirmation in a polite live region (role status) that is in the page before it: screen
 * readers announce the text that enters a region already there, and said nothing of an alert
 * drawn together with its role (the account deletion's notice, the e-mail sent for a new
 * password). Nothing shows while `message` is null; with `onClose`, 'Chiudi' puts it away.
 * `id` names the region, for the control that takes the focus after it to be described by it
 * (aria-describedby): a screen reader drops a polite announcement when the focus moves, and
 * reads the focused control's description instead.
 */
export function SuccessNotice({
  message,
  onClose,
  sx,
  id,
}: {
  message: string | null;
  onClose?: () => void;
  sx?: SxProps<Theme>;
  id?: string;
}) {
  return (
    <div role="status" id={id}>
      {message !== null && (
        // role none: the region around it is the one that speaks, once.
        <Alert
          severity="success"
          role="none"
          sx={sx}
          onClose={onClose}
          slotProps={{ closeButton: { 'aria-label': 'Chiudi' } }}
        >
          {message}
        </Alert>
      )}
    </div>
  );
}

/** The empty state, with a large faint icon above the text when one is given. */
export function EmptyMessage({ message, icon }: { message: string; icon?: ReactNode }) {
  if (icon === undefined) {
    return (
      <Typography color="text.secondary" sx={{ textAlign: 'center', py: 6 }}>
        {message}
      </Typography>
    );
  }
  return (
    <Stack spacing={1.5} sx={{ alignItems: 'center', py: 8, color: 'text.secondary' }}>
      <Box aria-hidden sx={{ fontSize: 56, lineHeight: 0, opacity: 0.5 }}>
        {icon}
      </Box>
      <Typography color="text.secondary">{message}</Typography>
    </Stack>
  );
}
