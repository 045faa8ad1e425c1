import { DialogContentText, TextField } from '@mui/material';
import { useState } from 'react';
import { FormDialog } from '../../components/FormDialog.js';
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

  const submit = () => {
    if (password === '') return;
    remove.mutate(password, { onSuccess: onDeleted });
  };

  return (
    <FormDialog
      title="Elimina account"
      submitLabel="Elimina account"
      submitColor="error"
      submitDisabled={password === ''}
      busy={remove.isPending}
      error={
        remove.isError
          ? errorMessage(remove.error, "Errore durante l'eliminazione dell'account")
          : null
      }
      onSubmit={submit}
      onClose={onClose}
      describedBy="delete-account-text"
    >
      <DialogContentText id="delete-account-text">
        Il tuo account verrà disattivato subito e non potrai più accedere. Entro 5 giorni
        cancelleremo definitivamente il profilo, le immagini che hai caricato e tutte le tue
        interazioni. L&apos;operazione non può essere annullata.
      </DialogContentText>
      <DialogContentText>
        Se vuoi conservarne una copia, usa prima &laquo;Scarica i miei dati&raquo;.
      </DialogContentText>
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
    </FormDialog>
  );
}
