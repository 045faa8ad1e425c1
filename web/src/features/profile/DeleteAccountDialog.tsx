import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Stack,
  TextField,
} from '@mui/material';
import { useState, type SyntheticEvent } from 'react';
import { errorMessage } from '../../lib/api.js';
import { useDeleteAccount } from './useDeleteAccount.js';

interface DeleteAccountDialogProps {
  onClose: () => void;
  onDeleted: () => void;
}

/** 'Elimina account' (D9): says what happens and when, then asks for the password. */
export function DeleteAccountDialog({ onClose, onDeleted }: DeleteAccountDialogProps) {
  const [password, setPassword] = useState('');
  const remove = useDeleteAccount();

  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    if (password === '') return;
    remove.mutate(password, { onSuccess: onDeleted });
  };

  return (
    <Dialog
      open
      onClose={remove.isPending ? undefined : onClose}
      fullWidth
      maxWidth="xs"
      aria-labelledby="delete-account-title"
      aria-describedby="delete-account-text"
    >
      <Box component="form" onSubmit={submit} noValidate>
        <DialogTitle id="delete-account-title">Elimina account</DialogTitle>
        <DialogContent>
          <Stack spacing={2}>
            <DialogContentText id="delete-account-text">
              Il tuo account verrà disattivato subito e non potrai più accedere. Entro 5 giorni
              cancelleremo definitivamente il profilo, le immagini che hai caricato e tutte le tue
              interazioni. L&apos;operazione non può essere annullata.
            </DialogContentText>
            <DialogContentText>
              Se vuoi conservarne una copia, usa prima &laquo;Scarica i miei dati&raquo;.
            </DialogContentText>
            {remove.isError && (
              <Alert severity="error">
                {errorMessage(remove.error, "Errore durante l'eliminazione dell'account")}
              </Alert>
            )}
            <TextField
              label="Password"
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(event) => {
                setPassword(event.target.value);
              }}
              helperText="Inserisci la tua password per confermare"
              autoFocus
              fullWidth
            />
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2.5 }}>
          <Button onClick={onClose} disabled={remove.isPending} color="inherit">
            Annulla
          </Button>
          <Button
            type="submit"
            variant="contained"
            color="error"
            disabled={password === ''}
            loading={remove.isPending}
          >
            Elimina account
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
