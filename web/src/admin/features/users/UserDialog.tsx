import OpenInFullIcon from '@mui/icons-material/OpenInFull';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  Tooltip,
} from '@mui/material';
import { useState, type SyntheticEvent } from 'react';
import { useNavigate } from 'react-router';
import { adminErrorMessage } from '../../shape.js';
import type { AdminUser } from '../../types.js';
import { useCreateUser } from './createUser.js';
import { UserFields } from './UserFields.js';
import { draftOf, EMPTY_USER_FORM, userBody, userFormOf } from './userForm.js';
import { useUpdateUser } from './updateUser.js';

export const SAVE_ERROR = "Errore nel salvataggio dell'utente";

interface UserDialogProps {
  /** The row being edited, or null for 'Nuovo Utente'. */
  user: AdminUser | null;
  onClose: () => void;
  /** After a successful save, with the feedback to show. */
  onSaved: (message: string) => void;
}

/**
 * 'Nuovo Utente' / 'Modifica Utente' (SPEC §2). No checks in the browser: the server decides
 * and its Italian detail is shown as it is (§5, §8). Mounted only while open, so it starts
 * fresh. The corner button carries what was typed (not the password) to the full-page form,
 * for those who prefer a page or need the room.
 */
export function UserDialog({ user, onClose, onSaved }: UserDialogProps) {
  const editing = user !== null;
  const [values, setValues] = useState(() => (user === null ? EMPTY_USER_FORM : userFormOf(user)));
  const create = useCreateUser();
  const update = useUpdateUser();
  const mutation = editing ? update : create;
  const navigate = useNavigate();

  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    const input = userBody(values, editing, user?.revision);
    if (user === null) {
      create.mutate(input, { onSuccess: () => onSaved('Utente creato') });
    } else {
      update.mutate(
        { id: user.id_utente, input },
        { onSuccess: () => onSaved('Utente aggiornato') },
      );
    }
  };

  const openPage = () => {
    const path = user === null ? '/admin/users/new' : `/admin/users/${user.id_utente}/edit`;
    void navigate(path, { state: { draft: draftOf(values, user?.revision) } });
  };

  const title = editing ? 'Modifica Utente' : 'Nuovo Utente';
  return (
    <Dialog
      open
      onClose={mutation.isPending ? undefined : onClose}
      fullWidth
      maxWidth="xs"
      aria-labelledby="user-dialog-title"
    >
      <Box component="form" onSubmit={submit} noValidate>
        <DialogTitle
          id="user-dialog-title"
          sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1 }}
        >
          {title}
          <Tooltip title="Apri a pagina intera">
            <IconButton aria-label="Apri a pagina intera" onClick={openPage} size="small">
              <OpenInFullIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        </DialogTitle>
        <DialogContent>
          {mutation.isError && (
            <Alert severity="error" sx={{ mb: 2 }}>
              {adminErrorMessage(mutation.error, SAVE_ERROR)}
            </Alert>
          )}
          <Box sx={{ pt: 1 }}>
            <UserFields
              values={values}
              onChange={setValues}
              editingId={user?.id_utente ?? null}
              superuserLabel="Amministratore"
              required
              disabled={mutation.isPending}
            />
          </Box>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2.5 }}>
          <Button onClick={onClose} disabled={mutation.isPending} color="inherit">
            Annulla
          </Button>
          <Button type="submit" variant="contained" color="secondary" loading={mutation.isPending}>
            Salva
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
