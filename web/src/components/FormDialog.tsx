import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  type ButtonProps,
} from '@mui/material';
import { useId, type ReactNode, type SyntheticEvent } from 'react';

interface FormDialogProps {
  title: string;
  /** The submit button's text. */
  submitLabel: string;
  submitColor?: ButtonProps['color'];
  submitDisabled?: boolean;
  /** While the request runs: the dialog cannot be dismissed and its buttons wait. */
  busy: boolean;
  /** The failure to show above the fields, if the last attempt failed. */
  error: string | null;
  onSubmit: () => void;
  onClose: () => void;
  /** The element (by id) that says what the dialog is about, for screen readers. */
  describedBy?: string;
  children: ReactNode;
}

/**
 * A dialog that is one form: title, the error of the last attempt, the fields, then 'Annulla'
 * and the submit button. Mounted only while open, so each opening starts fresh.
 */
export function FormDialog({
  title,
  submitLabel,
  submitColor = 'secondary',
  submitDisabled = false,
  busy,
  error,
  onSubmit,
  onClose,
  describedBy,
  children,
}: FormDialogProps) {
  const titleId = useId();
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <Dialog
      open
      onClose={busy ? undefined : onClose}
      fullWidth
      maxWidth="xs"
      aria-labelledby={titleId}
      aria-describedby={describedBy}
    >
      <Box component="form" onSubmit={submit} noValidate>
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent>
          <Stack spacing={2.5} sx={{ pt: 1 }}>
            {error !== null && <Alert severity="error">{error}</Alert>}
            {children}
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2.5 }}>
          <Button onClick={onClose} disabled={busy} color="inherit">
            Annulla
          </Button>
          <Button
            type="submit"
            variant="contained"
            color={submitColor}
            disabled={submitDisabled}
            loading={busy}
          >
            {submitLabel}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
