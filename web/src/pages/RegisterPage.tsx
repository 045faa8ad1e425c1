import { Alert, Box, Checkbox, FormControlLabel, FormHelperText, Link, Stack } from '@mui/material';
import { useState, type SubmitEvent } from 'react';
import { Link as RouterLink, Navigate, useNavigate } from 'react-router';
import { PRIVACY_POLICY_PATH } from '../app/privacyPolicy.js';
import {
  AuthCard,
  AuthCardLink,
  AuthProblem,
  AuthSubmit,
  NewPasswordFields,
} from '../components/AuthCard.js';
import { TextInput } from '../components/TextInput.js';
import { usePageTitle } from '../components/usePageTitle.js';
import {
  REGISTRATIONS_CLOSED,
  useRegister,
  useRegistrationsOpen,
} from '../features/auth/register.js';
import { BAD_EMAIL, looksLikeEmail, newPasswordProblem } from '../features/auth/accountRules.js';
import { useSession } from '../features/auth/useSession.js';
import { ApiError } from '../lib/api.js';
import { useSendOnce } from '../components/useSendOnce.js';

type Field = 'username' | 'email' | 'password' | 'confirm' | 'age';

interface Problem {
  message: string;
  fields: Field[];
}

/** The fields a server's refusal is about, so they are marked as the browser's own checks are. */
function fieldsOf(detail: string): Field[] {
  if (detail.startsWith('Username o email')) return ['username', 'email'];
  if (detail.startsWith('Lo username')) return ['username'];
  if (detail === BAD_EMAIL) return ['email'];
  if (detail.startsWith('La password')) return ['password', 'confirm'];
  return [];
}

function failureMessage(error: unknown): string {
  // SPEC §8: a 400 carries what is wrong ('Username o email già in uso', a bad e-mail...); a
  // closed registration (403) or the rate limit (429) say so too.
  if (
    error instanceof ApiError &&
    error.detail !== undefined &&
    [400, 403, 409, 429].includes(error.status)
  ) {
    return error.detail;
  }
  return 'Errore durante la registrazione. Riprova più tardi.';
}

/** /register (SPEC §2, D9): account, e-mail, password twice and the age of 16. */
export default function RegisterPage() {
  usePageTitle('Registrati');
  const user = useSession();
  const navigate = useNavigate();
  const register = useRegister();
  const open = useRegistrationsOpen();
  const [form, setForm] = useState({ username: '', email: '', password: '', confirm: '' });
  const [adult, setAdult] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const sendOnce = useSendOnce();

  if (user !== null && !register.isPending) return <Navigate to="/" replace />;

  const change = (field: keyof typeof form) => (event: { target: { value: string } }) => {
    setForm((current) => ({ ...current, [field]: event.target.value }));
  };

  const check = (): Problem | null => {
    const empty = (['username', 'email', 'password', 'confirm'] as const).filter(
      (field) => form[field].trim() === '',
    );
    if (empty.length > 0) {
      // The box left unticked is marked with the empty fields, not found only after them.
      return { message: 'Compila tutti i campi.', fields: adult ? empty : [...empty, 'age'] };
    }
    if (!looksLikeEmail(form.email)) return { message: BAD_EMAIL, fields: ['email'] };
    const passwordProblem = newPasswordProblem(form);
    if (passwordProblem !== null) return passwordProblem;
    if (!adult) {
      return {
        message: 'Devi dichiarare di avere almeno 16 anni per registrarti.',
        fields: ['age'],
      };
    }
    return null;
  };

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const found = check();
    setProblem(found);
    if (found !== null) return;
    sendOnce((settled) => {
      register.mutate(
        { username: form.username.trim(), email: form.email.trim(), password: form.password },
        {
          onSettled: settled,
          onSuccess: () => void navigate('/', { replace: true }),
          onError: (error) => {
            const message = failureMessage(error);
            setProblem({ message, fields: fieldsOf(message) });
          },
        },
      );
    });
  };

  const invalid = (field: Field) => problem?.fields.includes(field) ?? false;

  const toLogin = <AuthCardLink to="/login">Hai già un account? Accedi</AuthCardLink>;

  if (!open) {
    return (
      <AuthCard title="Registrati" subtitle="Crea un account per salvare, scaricare e condividere.">
        <Stack spacing={2.25}>
          <Alert severity="info">{REGISTRATIONS_CLOSED}</Alert>
          {toLogin}
        </Stack>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Registrati" subtitle="Crea un account per salvare, scaricare e condividere.">
      <Box component="form" noValidate onSubmit={submit}>
        <Stack spacing={2.25}>
          <AuthProblem message={problem?.message ?? null} />
          <TextInput
            label="Username"
            name="username"
            autoComplete="username"
            autoFocus
            required
            fullWidth
            value={form.username}
            onChange={change('username')}
            error={invalid('username')}
            slotProps={{ htmlInput: { maxLength: 30, autoCapitalize: 'none', spellCheck: false } }}
          />
          <TextInput
            label="Email"
            name="email"
            type="email"
            autoComplete="email"
            required
            fullWidth
            value={form.email}
            onChange={change('email')}
            error={invalid('email')}
            slotProps={{ htmlInput: { maxLength: 254 } }}
          />
          <NewPasswordFields
            label="Password"
            values={form}
            onChange={(field, value) => setForm((current) => ({ ...current, [field]: value }))}
            invalid={invalid}
          />
          <Box>
            <FormControlLabel
              required
              control={
                <Checkbox
                  checked={adult}
                  onChange={(event) => {
                    setAdult(event.target.checked);
                  }}
                  color="secondary"
                  name="age_confirmed"
                />
              }
              label="Dichiaro di avere almeno 16 anni"
              sx={{ color: invalid('age') ? 'error.main' : undefined }}
            />
            <FormHelperText sx={{ mx: 0 }}>
              Come trattiamo i tuoi dati:{' '}
              <Link component={RouterLink} to={PRIVACY_POLICY_PATH} color="inherit">
                informativa sulla privacy
              </Link>
            </FormHelperText>
          </Box>
          <AuthSubmit busy={register.isPending}>Registrati</AuthSubmit>
          {toLogin}
        </Stack>
      </Box>
    </AuthCard>
  );
}
