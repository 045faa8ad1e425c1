import { Box, Stack } from '@mui/material';
import { useEffect, useId, useRef, useState, type SubmitEvent } from 'react';
import { AuthCard, AuthCardLink, AuthProblem, AuthSubmit } from '../components/AuthCard.js';
import { focusIfFallen } from '../components/focusContent.js';
import { SuccessNotice } from '../components/StatusMessage.js';
import { TextInput } from '../components/TextInput.js';
import { usePageTitle } from '../components/usePageTitle.js';
import { BAD_EMAIL, looksLikeEmail } from '../features/auth/accountRules.js';
import { resetFailureMessage, useRequestPasswordReset } from '../features/auth/passwordReset.js';
import { useSendOnce } from '../components/useSendOnce.js';

const SEND_ERROR = 'Errore durante l’invio della richiesta. Riprova più tardi.';

/**
 * /forgot-password: the account's e-mail address, to which the server mails a link for a new
 * password. The answer is the same whether or not the address is an account's, and so is
 * what this page says.
 */
export default function ForgotPasswordPage() {
  usePageTitle('Password dimenticata');
  const send = useRequestPasswordReset();
  const [email, setEmail] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const sendOnce = useSendOnce();
  // The form goes with the focus in it: the way back to the login, the one thing left to do,
  // takes it, described by the confirmation, which is read with it (SuccessNotice's id).
  const toLoginLink = useRef<HTMLAnchorElement>(null);
  const confirmation = useId();
  useEffect(() => {
    if (sent !== null) focusIfFallen(toLoginLink.current);
  }, [sent]);

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    if (!looksLikeEmail(email)) {
      setProblem(BAD_EMAIL);
      return;
    }
    sendOnce((settled) => {
      setProblem(null);
      send.mutate(email.trim(), {
        onSettled: settled,
        onSuccess: ({ detail }) => setSent(detail),
        onError: (error) => setProblem(resetFailureMessage(error, SEND_ERROR)),
      });
    });
  };

  const toLogin = (
    <AuthCardLink
      to="/login"
      ref={toLoginLink}
      describedBy={sent === null ? undefined : confirmation}
    >
      Torna all’accesso
    </AuthCardLink>
  );

  return (
    <AuthCard
      title="Password dimenticata"
      subtitle="Scrivi l’indirizzo e-mail del tuo account: ti mandiamo un link per sceglierne una nuova."
    >
      {/* There before the form goes, so that the confirmation is announced. */}
      <SuccessNotice message={sent} sx={{ mb: 2.5 }} id={confirmation} />
      {sent !== null ? (
        <Stack spacing={2.5}>{toLogin}</Stack>
      ) : (
        <Box component="form" noValidate onSubmit={submit}>
          <Stack spacing={2.5}>
            <AuthProblem message={problem} />
            <TextInput
              label="Email"
              name="email"
              type="email"
              autoComplete="email"
              autoFocus
              required
              fullWidth
              value={email}
              onChange={(event) => setEmail(event.target.value)}
              error={problem !== null}
              slotProps={{ htmlInput: { maxLength: 254 } }}
            />
            <AuthSubmit busy={send.isPending}>Invia il link</AuthSubmit>
            {toLogin}
          </Stack>
        </Box>
      )}
    </AuthCard>
  );
}
