import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  TextField,
} from '@mui/material';
import { useState, type SyntheticEvent } from 'react';
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
 * Italian message is shown as it is (§8). Mounted only while open, so it starts fresh.
 */
export function EditProfileDialog({ user, onClose, onSaved }: EditProfileDialogProps) {
  const [email, setEmail] = useState(user.email);
  const [username, setUsername] = useState(user.username);
  const [password, setPassword] = useState('');
  const [currentPassword, setCurrentPassword] = useState('');
  const update = useUpdateProfile();

  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
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
    <Dialog
      open
      onClose={update.isPending ? undefined : onClose}
      fullWidth
      maxWidth="xs"
      aria-labelledby="edit-profile-title"
    >
      <Box component="form" onSubmit={submit} noValidate>
        <DialogTitle id="edit-profile-title">Modifica Profilo</DialogTitle>
        <DialogContent>
          <Stack spacing={2.5} sx={{ pt: 1 }}>
            {update.isError && (
              <Alert severity="error">
                {errorMessage(update.error, "Errore durante l'aggiornamento del profilo")}
              </Alert>
            )}
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
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2.5 }}>
          <Button onClick={onClose} disabled={update.isPending} color="inherit">
            Annulla
          </Button>
          <Button type="submit" variant="contained" color="secondary" loading={update.isPending}>
            Salva
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
