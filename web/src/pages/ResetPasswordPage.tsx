import { Alert, Box, Button, CircularProgress, Stack } from '@mui/material';
import { useEffect, useState, type ReactNode, type SubmitEvent } from 'react';
import { Link as RouterLink, useLocation } from 'react-router';
import { AuthCard, AuthCardLink } from '../components/AuthCard.js';
import { PasswordField } from '../components/PasswordField.js';
import { usePageTitle } from '../components/usePageTitle.js';
import {
  isPasswordTooShort,
  PASSWORD_TOO_SHORT,
  PASSWORDS_DIFFER,
} from '../features/auth/accountRules.js';
import {
  INVALID_RESET_LINK,
  resetSecretOf,
  useConfirmPasswordReset,
} from '../features/auth/passwordReset.js';
import { ApiError, errorMessage } from '../lib/api.js';
import { clearSession } from '../lib/session.js';

const SAVE_ERROR = 'Errore durante il salvataggio della password. Riprova più tardi.';

type Field = 'password' | 'confirm';

interface Problem {
  message: string;
  fields: Field[];
}

function failureMessage(error: unknown): string {
  if (error instanceof ApiError && (error.status === 400 || error.status === 429)) {
    return errorMessage(error, SAVE_ERROR);
  }
  return SAVE_ERROR;
}

/**
 * /reset-password#<secret>: the page the e-mail's link opens, where the new password is chosen
 * twice. The secret is read from the fragment, which the browser never sends to the server.
 */
export default function ResetPasswordPage() {
  usePageTitle('Nuova password');
  const location = useLocation();
  const [secret] = useState(() => resetSecretOf(location.hash));
  const save = useConfirmPasswordReset();
  const [form, setForm] = useState({ password: '', confirm: '' });
  const [problem, setProblem] = useState<Problem | null>(null);
  const [done, setDone] = useState<string | null>(null);

  // Every session of the account has ended on the server: this browser's one goes too.
  useEffect(() => {
    if (done !== null) clearSession();
  }, [done]);

  const newLink = <AuthCardLink to="/forgot-password">Chiedi un nuovo link</AuthCardLink>;
  const card = (children: ReactNode) => (
    <AuthCard title="Nuova password" subtitle="Scegli la nuova password del tuo account.">
      {children}
    </AuthCard>
  );

  if (secret === null) {
    return card(
      <Stack spacing={2.5}>
        <Alert severity="error" role="alert">
          {INVALID_RESET_LINK}
        </Alert>
        {newLink}
      </Stack>,
    );
  }

  if (done !== null) {
    return card(
      <Stack spacing={2.5}>
        <Alert severity="success" role="status">
          {done}
        </Alert>
        <Button
          component={RouterLink}
          to="/login"
          variant="contained"
          color="secondary"
          size="large"
        >
          Accedi
        </Button>
      </Stack>,
    );
  }

  const change = (field: Field) => (event: { target: { value: string } }) => {
    setForm((current) => ({ ...current, [field]: event.target.value }));
  };

  const check = (): Problem | null => {
    if (form.password === '' || form.confirm === '') {
      return {
        message: 'Compila tutti i campi.',
        fields: (['password', 'confirm'] as const).filter((field) => form[field] === ''),
      };
    }
    if (form.password !== form.confirm) return { message: PASSWORDS_DIFFER, fields: ['confirm'] };
    if (isPasswordTooShort(form.password)) {
      return { message: PASSWORD_TOO_SHORT, fields: ['password', 'confirm'] };
    }
    return null;
  };

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const found = check();
    setProblem(found);
    if (found !== null) return;
    save.mutate(
      { token: secret, password: form.password },
      {
        onSuccess: ({ detail }) => setDone(detail),
        onError: (error) => {
          const message = failureMessage(error);
          setProblem({
            message,
            fields: message === PASSWORD_TOO_SHORT ? ['password', 'confirm'] : [],
          });
        },
      },
    );
  };

  const invalid = (field: Field) => problem?.fields.includes(field) ?? false;

  return card(
    <Box component="form" noValidate onSubmit={submit}>
      <Stack spacing={2.5}>
        {problem !== null && (
          <Alert severity="error" role="alert">
            {problem.message}
          </Alert>
        )}
        <PasswordField
          label="Nuova password"
          name="password"
          autoComplete="new-password"
          autoFocus
          required
          fullWidth
          value={form.password}
          onChange={change('password')}
          error={invalid('password')}
          helperText="Almeno 8 caratteri"
        />
        <PasswordField
          label="Conferma Password"
          name="confirm"
          autoComplete="new-password"
          required
          fullWidth
          value={form.confirm}
          onChange={change('confirm')}
          error={invalid('confirm')}
        />
        <Button
          type="submit"
          variant="contained"
          color="secondary"
          size="large"
          fullWidth
          disabled={save.isPending}
          startIcon={save.isPending ? <CircularProgress size={18} color="inherit" /> : undefined}
        >
          Salva la nuova password
        </Button>
        {problem?.message === INVALID_RESET_LINK ? newLink : null}
      </Stack>
    </Box>,
  );
}
