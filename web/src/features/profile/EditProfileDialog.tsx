import { TextField } from '@mui/material';
import { useState } from 'react';
import { FormDialog } from '../../components/FormDialog.js';
import { errorMessage } from '../../lib/api.js';
import type { SessionUser } from '../../lib/session.js';
import { useUpdateProfile } from './useUpdateProfile.js';

interface EditProfileDialogProps {
  user: SessionUser;
  onClose: () => void;
  onSaved: () => void;
}

/**
 * 'Modifica Profilo' (SPEC §2): e-mail, username, new password (empty: unchanged) and, by D3,
 * the current password whenever the e-mail or the password changes. The server decides; its
 * Italian message is shown as it is (§8).
 */
export function EditProfileDialog({ user, onClose, onSaved }: EditProfileDialogProps) {
  const [email, setEmail] = useState(user.email);
  const [username, setUsername] = useState(user.username);
  const [password, setPassword] = useState('');
  const [currentPassword, setCurrentPassword] = useState('');
  const update = useUpdateProfile();

  const submit = () => {
    update.mutate(
      {
        email: email.trim(),
        username: username.trim(),
        password,
        current_password: currentPassword,
      },
      { onSuccess: onSaved },
    );
  };

  return (
    <FormDialog
      title="Modifica Profilo"
      submitLabel="Salva"
      busy={update.isPending}
      error={
        update.isError
          ? errorMessage(update.error, "Errore durante l'aggiornamento del profilo")
          : null
      }
      onSubmit={submit}
      onClose={onClose}
    >
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        value={email}
        onChange={(event) => {
          setEmail(event.target.value);
        }}
        required
        fullWidth
      />
      <TextField
        label="Username"
        autoComplete="username"
        value={username}
        onChange={(event) => {
          setUsername(event.target.value);
        }}
        required
        fullWidth
      />
      <TextField
        label="Nuova Password"
        type="password"
        autoComplete="new-password"
        value={password}
        onChange={(event) => {
          setPassword(event.target.value);
        }}
        helperText="Lascia vuoto per mantenere la password attuale"
        fullWidth
      />
      <TextField
        label="Password attuale"
        type="password"
        autoComplete="current-password"
        value={currentPassword}
        onChange={(event) => {
          setCurrentPassword(event.target.value);
        }}
        helperText="Necessaria per cambiare email o password"
        fullWidth
      />
    </FormDialog>
  );
}
