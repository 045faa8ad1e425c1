import { Alert, Box, Button, Paper, Stack } from '@mui/material';
import { useState, type SyntheticEvent } from 'react';
import { Link as RouterLink, useLocation, useNavigate, useParams } from 'react-router';
import { AdminPage } from '../components/AdminPage.js';
import { useCreateUser } from '../features/users/createUser.js';
import { useUpdateUser } from '../features/users/updateUser.js';
import { useUser } from '../features/users/user.js';
import { UserFields } from '../features/users/UserFields.js';
import {
  draftFromState,
  EMPTY_USER_FORM,
  parseUserId,
  userBody,
  userFormOf,
  type UserDraft,
  type UserFormValues,
} from '../features/users/userForm.js';
import { adminErrorMessage, InvalidShapeError } from '../shape.js';
import { ApiError } from '../../lib/api.js';

const LOAD_ERROR = "Errore nel caricamento dell'utente";
const SAVE_ERROR = "Errore durante il salvataggio dell'utente";
const LIST = '/admin/users';

/** A draft's form values, without the revision it carries along. */
function withoutRevision(draft: UserDraft | null): Partial<UserFormValues> {
  if (draft === null) return {};
  const { revision: _revision, ...values } = draft;
  return values;
}

/** The load failure: SPEC's message, with the server's reason (e.g. 'Utente non trovato'). */
function loadErrorMessage(error: unknown): string {
  if (error instanceof InvalidShapeError) return `${LOAD_ERROR}: ${error.message}`;
  if (error instanceof ApiError && error.detail !== undefined) {
    return `${LOAD_ERROR}: ${error.detail}`;
  }
  return LOAD_ERROR;
}

interface UserFormProps {
  /** The account being edited, or null on /admin/users/new. */
  id: number | null;
  initial: UserFormValues;
  /** The account's revision the values were filled from (edits only). */
  revision?: number | undefined;
}

/**
 * The form itself, mounted once its starting values are known. The browser checks the
 * required fields and the e-mail format here (SPEC §2 says required); the server still decides.
 */
function UserForm({ id, initial, revision: initialRevision }: UserFormProps) {
  const editing = id !== null;
  const [values, setValues] = useState(initial);
  // Kept with the values it goes with: after a 409 the account is loaded again, and taking the
  // new revision while the fields still hold the old values would let the next Salva undo the
  // other change after all.
  const [revision] = useState(initialRevision);
  const create = useCreateUser();
  const update = useUpdateUser();
  const mutation = editing ? update : create;
  const navigate = useNavigate();

  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    const input = userBody(values, editing, revision);
    const back = (notice: string) => () => void navigate(LIST, { state: { notice } });
    if (id === null) create.mutate(input, { onSuccess: back('Utente creato') });
    else update.mutate({ id, input }, { onSuccess: back('Utente aggiornato') });
  };

  return (
    <Paper sx={{ p: { xs: 2.5, sm: 4 }, maxWidth: 560 }}>
      <Box
        component="form"
        onSubmit={submit}
        aria-label={editing ? 'Modifica Utente' : 'Nuovo Utente'}
      >
        <Stack spacing={3}>
          {mutation.isError && (
            <Alert severity="error">{adminErrorMessage(mutation.error, SAVE_ERROR)}</Alert>
          )}
          <UserFields
            values={values}
            onChange={setValues}
            editingId={id}
            superuserLabel="Superuser"
            required
            disabled={mutation.isPending}
          />
          <Stack direction="row" spacing={1.5} sx={{ justifyContent: 'flex-end' }}>
            <Button component={RouterLink} to={LIST} color="inherit" disabled={mutation.isPending}>
              Annulla
            </Button>
            <Button
              type="submit"
              variant="contained"
              color="secondary"
              loading={mutation.isPending}
            >
              Salva
            </Button>
          </Stack>
        </Stack>
      </Box>
    </Paper>
  );
}

/** /admin/users/new and /admin/users/:id/edit (SPEC §2): one page, the route param decides. */
export default function UserFormPage() {
  const params = useParams();
  const location = useLocation();
  const creating = params['id'] === undefined;
  const id = creating ? null : parseUserId(params['id']);
  const user = useUser(id);
  // What the dialog had typed when the administrator switched to this page.
  const draft = draftFromState(location.state);

  const title = creating ? 'Nuovo Utente' : 'Modifica Utente';
  let error: string | null = null;
  if (!creating && id === null) error = LOAD_ERROR;
  else if (user.isError) error = loadErrorMessage(user.error);

  let initial: UserFormValues | null = null;
  let revision: number | undefined;
  if (creating) initial = { ...EMPTY_USER_FORM, ...withoutRevision(draft) };
  // The account as the server has it now (useUser asks again on mount), not a kept copy.
  else if (user.data !== undefined && user.isFetchedAfterMount) {
    initial = { ...userFormOf(user.data), ...withoutRevision(draft) };
    // A draft typed over an older state is saved against that state: changed since, a 409.
    revision = draft?.revision ?? user.data.revision;
  }

  return (
    <AdminPage title={title} loading={initial === null} error={error}>
      {initial !== null && (
        // A new key for another account, so its values replace the previous one's.
        <UserForm key={id ?? 'new'} id={id} initial={initial} revision={revision} />
      )}
    </AdminPage>
  );
}
