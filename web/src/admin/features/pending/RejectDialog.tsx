import {
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  TextField,
} from '@mui/material';
import { useState } from 'react';
import { countPhrase } from '../../../lib/format.js';
import { REJECTION_REASON_MAX_LENGTH, REJECTION_REASONS } from './rejectImage.js';

interface RejectDialogProps {
  open: boolean;
  /** How many images the reason is for: one, or the selected rows of a bulk rejection. */
  count: number;
  busy: boolean;
  onConfirm: (reason: string) => void;
  onCancel: () => void;
}

/**
 * 'Conferma rifiuto' (SPEC §2): the reason is required, the confirm button stays disabled
 * while it is blank; the common reasons fill the field in one click and it stays editable.
 */
export function RejectDialog({ open, count, busy, onConfirm, onCancel }: RejectDialogProps) {
  const [reason, setReason] = useState('');
  const blank = reason.trim() === '';
  const close = () => {
    if (!busy) onCancel();
  };
  return (
    <Dialog
      open={open}
      onClose={close}
      aria-labelledby="reject-title"
      fullWidth
      maxWidth="sm"
      slotProps={{ transition: { onExited: () => setReason('') } }}
    >
      <DialogTitle id="reject-title">Conferma rifiuto</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          {count === 1
            ? 'Sei sicuro di voler rifiutare questa immagine?'
            : `Sei sicuro di voler rifiutare ${countPhrase(count, 'immagine selezionata', 'immagini selezionate')}? Il motivo vale per tutte.`}
        </DialogContentText>
        <Box
          role="group"
          aria-label="Motivi frequenti"
          sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mb: 2 }}
        >
          {REJECTION_REASONS.map((text) => (
            <Chip
              key={text}
              label={text}
              variant={reason === text ? 'filled' : 'outlined'}
              color={reason === text ? 'secondary' : 'default'}
              onClick={() => setReason(text)}
              disabled={busy}
            />
          ))}
        </Box>
        <TextField
          label="Motivo del rifiuto"
          placeholder="Inserisci il motivo del rifiuto..."
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          required
          multiline
          minRows={3}
          fullWidth
          autoFocus
          disabled={busy}
          slotProps={{ htmlInput: { maxLength: REJECTION_REASON_MAX_LENGTH } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={busy}>
          Annulla
        </Button>
        <Button
          variant="contained"
          color="error"
          disabled={blank || busy}
          onClick={() => onConfirm(reason.trim())}
        >
          Rifiuta
        </Button>
      </DialogActions>
    </Dialog>
  );
}
