import { Box, Stack } from '@mui/material';
import { useState, type SubmitEvent } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { AuthCard, AuthCardLink, AuthProblem, AuthSubmit } from '../components/AuthCard.js';
import { PasswordField } from '../components/PasswordField.js';
import { TextInput } from '../components/TextInput.js';
import { usePageTitle } from '../components/usePageTitle.js';
import { useLogin } from '../features/auth/login.js';
import { useSession } from '../features/auth/useSession.js';
import { ApiError, errorMessage } from '../lib/api.js';
import { useSendOnce } from '../components/useSendOnce.js';

/**
 * Where to go after logging in: the page the guard remembered (SPEC §2), if it is a path of
 * this app and not one of the account pages themselves; else home.
 */
function returnPath(state: unknown): string {
  const from = (state as { from?: unknown } | null)?.from;
  if (typeof from !== 'string' || !from.startsWith('/') || from.startsWith('//')) return '/';
  if (/^\/(login|register|forgot-password|reset-password)(\/|\?|#|$)/.test(from)) return '/';
  return from;
}

function failureMessage(error: unknown): string {
  if (error instanceof ApiError) {
    // 'Account disattivato' and the rate limit say something the person can act upon.
    if (error.status === 403 || error.status === 429) {
      return errorMessage(error, 'Username o password non validi');
    }
    if (error.status === 0 || error.status >= 500) {
      return 'Errore durante il login. Riprova più tardi.';
    }
  }
  return 'Username o password non validi';
}

/** /login (SPEC §2): username and password; back to the requested page afterwards. */
export default function LoginPage() {
  usePageTitle('Accedi');
  const user = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const login = useLogin();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const sendOnce = useSendOnce();
  const target = returnPath(location.state);

  // Already logged in (or just now): nothing to do here.
  if (user !== null && !login.isPending) return <Navigate to={target} replace />;

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    // SPEC §5: both fields are required.
    if (username.trim() === '' || password === '') {
      setProblem('Inserisci username e password.');
      return;
    }
    sendOnce((settled) => {
      setProblem(null);
      login.mutate(
        { username: username.trim(), password },
        {
          onSettled: settled,
          onSuccess: () => void navigate(target, { replace: true }),
          onError: (error) => {
            setProblem(failureMessage(error));
          },
        },
      );
    });
  };

  return (
    <AuthCard title="Accedi" subtitle="Entra per reagire, scaricare e caricare le tue scritte.">
      <Box component="form" noValidate onSubmit={submit}>
        <Stack spacing={2.5}>
          <AuthProblem message={problem} />
          <TextInput
            label="Username"
            name="username"
            autoComplete="username"
            autoFocus
            required
            fullWidth
            value={username}
            onChange={(event) => {
              setUsername(event.target.value);
            }}
            error={problem !== null && username.trim() === ''}
            slotProps={{ htmlInput: { maxLength: 254, autoCapitalize: 'none', spellCheck: false } }}
          />
          <PasswordField
            label="Password"
            name="password"
            autoComplete="current-password"
            required
            fullWidth
            value={password}
            onChange={(event) => {
              setPassword(event.target.value);
            }}
            error={problem !== null && password === ''}
          />
          <AuthSubmit busy={login.isPending}>Accedi</AuthSubmit>
          <AuthCardLink to="/forgot-password">Password dimenticata?</AuthCardLink>
          <AuthCardLink to="/register">Non hai un account? Registrati</AuthCardLink>
        </Stack>
      </Box>
    </AuthCard>
  );
}
