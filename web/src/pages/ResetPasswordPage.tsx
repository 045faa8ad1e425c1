import { Alert, Box, Button, Stack } from '@mui/material';
import { useEffect, useId, useRef, useState, type ReactNode, type SubmitEvent } from 'react';
import { Link as RouterLink, useLocation } from 'react-router';
import {
  AuthCard,
  AuthCardLink,
  AuthProblem,
  AuthSubmit,
  NewPasswordFields,
} from '../components/AuthCard.js';
import { focusIfFallen } from '../components/focusContent.js';
import { SuccessNotice } from '../components/StatusMessage.js';
import { usePageTitle } from '../components/usePageTitle.js';
import { newPasswordProblem, PASSWORD_TOO_SHORT } from '../features/auth/accountRules.js';
import {
  INVALID_RESET_LINK,
  resetFailureMessage,
  resetSecretOf,
  useConfirmPasswordReset,
} from '../features/auth/passwordReset.js';
import { clearSession } from '../lib/session.js';
import { useSendOnce } from '../components/useSendOnce.js';

const SAVE_ERROR = 'Errore durante il salvataggio della password. Riprova più tardi.';

type Field = 'password' | 'confirm';

interface Problem {
  message: string;
  fields: Field[];
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
  const sendOnce = useSendOnce();
  const [done, setDone] = useState<string | null>(null);
  // The form goes with the focus in it: 'Accedi', the next step, takes it, described by the
  // confirmation, which is read with it (SuccessNotice's id).
  const toLogin = useRef<HTMLAnchorElement>(null);
  const confirmation = useId();
  useEffect(() => {
    if (done !== null) focusIfFallen(toLogin.current);
  }, [done]);

  const newLink = <AuthCardLink to="/forgot-password">Chiedi un nuovo link</AuthCardLink>;
  const card = (children: ReactNode) => (
    <AuthCard title="Nuova password" subtitle="Scegli la nuova password del tuo account.">
      {/* In every state of the page, so that the confirmation enters a region already there. */}
      <SuccessNotice message={done} sx={{ mb: 2.5 }} id={confirmation} />
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
        <Button
          component={RouterLink}
          to="/login"
          ref={toLogin}
          aria-describedby={confirmation}
          variant="contained"
          color="secondary"
          size="large"
        >
          Accedi
        </Button>
      </Stack>,
    );
  }

  const check = (): Problem | null => {
    if (form.password === '' || form.confirm === '') {
      return {
        message: 'Compila tutti i campi.',
        fields: (['password', 'confirm'] as const).filter((field) => form[field] === ''),
      };
    }
    return newPasswordProblem(form);
  };

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const found = check();
    setProblem(found);
    if (found !== null) return;
    sendOnce((settled) => {
      save.mutate(
        { token: secret, password: form.password },
        {
          onSettled: settled,
          onSuccess: ({ detail }) => {
            // Every session of the account has ended on the server: this browser's one goes too.
            clearSession();
            setDone(detail);
          },
          onError: (error) => {
            const message = resetFailureMessage(error, SAVE_ERROR);
            setProblem({
              message,
              fields: message === PASSWORD_TOO_SHORT ? ['password', 'confirm'] : [],
            });
          },
        },
      );
    });
  };

  const invalid = (field: Field) => problem?.fields.includes(field) ?? false;

  return card(
    <Box component="form" noValidate onSubmit={submit}>
      <Stack spacing={2.5}>
        <AuthProblem message={problem?.message ?? null} />
        <NewPasswordFields
          label="Nuova password"
          values={form}
          onChange={(field, value) => setForm((current) => ({ ...current, [field]: value }))}
          invalid={invalid}
          autoFocus
        />
        <AuthSubmit busy={save.isPending}>Salva la nuova password</AuthSubmit>
        {problem?.message === INVALID_RESET_LINK ? newLink : null}
      </Stack>
    </Box>,
  );
}
