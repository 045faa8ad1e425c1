import {
  Checkbox,
  FormControlLabel,
  FormGroup,
  FormHelperText,
  Stack,
  TextField,
} from '@mui/material';
import { PasswordField } from '../../../components/PasswordField.js';
import { useSession } from '../../../features/auth/useSession.js';
import type { UserFormValues } from './userForm.js';

export const KEEP_PASSWORD_HELP = 'Lascia vuoto per mantenere la password attuale';
/** The server refuses these two for the own account here (D3: they need the current password). */
export const OWN_EMAIL_HELP = 'Cambia la tua email dal tuo profilo.';
export const OWN_PASSWORD_HELP = 'Cambia la tua password dal tuo profilo.';
const OWN_FLAGS_HELP_ID = 'user-own-flags-help';
/** As the server's refusal for the own row says it (admin.service selfDemote). */
export const OWN_FLAGS_HELP =
  'Non puoi togliere a te stesso i permessi di amministratore o disattivarti.';

interface UserFieldsProps {
  values: UserFormValues;
  onChange: (values: UserFormValues) => void;
  /** The account being edited, or null for a new one. */
  editingId: number | null;
  /** 'Amministratore' in the dialog, 'Superuser' on the form page (SPEC §2 names them so). */
  superuserLabel: string;
  /** Whether the fields are marked required; the form decides whether the browser checks. */
  required: boolean;
  disabled?: boolean;
}

/** Username, e-mail, password and the two flags, shared by the dialog and the form page. */
export function UserFields({
  values,
  onChange,
  editingId,
  superuserLabel,
  required,
  disabled = false,
}: UserFieldsProps) {
  const editing = editingId !== null;
  // The administrator's own row: e-mail and password change on the profile, with the current
  // password, so they are shown here but not offered.
  const session = useSession();
  const own = editing && session?.id_utente === editingId;
  const set = <K extends keyof UserFormValues>(key: K, value: UserFormValues[K]) => {
    onChange({ ...values, [key]: value });
  };
  return (
    <Stack spacing={2.5}>
      <TextField
        label="Username"
        name="username"
        // Someone else's account: the browser must not offer the administrator's own login.
        autoComplete="off"
        value={values.username}
        onChange={(event) => {
          set('username', event.target.value);
        }}
        required={required}
        disabled={disabled}
        fullWidth
      />
      <TextField
        label="Email"
        name="email"
        type="email"
        autoComplete="off"
        value={values.email}
        onChange={(event) => {
          set('email', event.target.value);
        }}
        required={required}
        disabled={disabled || own}
        helperText={own ? OWN_EMAIL_HELP : undefined}
        fullWidth
      />
      <PasswordField
        label="Password"
        name="password"
        autoComplete="new-password"
        value={values.password}
        onChange={(event) => {
          set('password', event.target.value);
        }}
        helperText={own ? OWN_PASSWORD_HELP : editing ? KEEP_PASSWORD_HELP : undefined}
        required={required && !editing}
        disabled={disabled || own}
        fullWidth
      />
      <FormGroup>
        <FormControlLabel
          control={
            <Checkbox
              checked={values.is_active}
              onChange={(event) => {
                set('is_active', event.target.checked);
              }}
              disabled={disabled || own}
              slotProps={{ input: { 'aria-describedby': own ? OWN_FLAGS_HELP_ID : undefined } }}
            />
          }
          label="Utente Attivo"
        />
        <FormControlLabel
          control={
            <Checkbox
              checked={values.is_superuser}
              onChange={(event) => {
                set('is_superuser', event.target.checked);
              }}
              disabled={disabled || own}
              slotProps={{ input: { 'aria-describedby': own ? OWN_FLAGS_HELP_ID : undefined } }}
            />
          }
          label={superuserLabel}
        />
        {own && <FormHelperText id={OWN_FLAGS_HELP_ID}>{OWN_FLAGS_HELP}</FormHelperText>}
      </FormGroup>
    </Stack>
  );
}
