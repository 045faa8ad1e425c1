import { Alert, Box, Button, CircularProgress, Link, Paper, Typography } from '@mui/material';
import type { ReactNode, Ref } from 'react';
import { Link as RouterLink } from 'react-router';
import { PasswordField } from './PasswordField.js';

/**
 * The frame of the pages without the shared header (login, registration): the brand, which
 * still leads home, a title and the form.
 */
export function AuthCard({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle: string;
  children: ReactNode;
}) {
  return (
    <Box sx={{ width: '100%', maxWidth: 440, py: 4 }}>
      <Link
        component={RouterLink}
        to="/"
        aria-label="Muri Parlanti"
        underline="none"
        color="inherit"
        sx={{ display: 'block', textAlign: 'center', mb: 3 }}
      >
        <Typography component="span" variant="h5" sx={{ fontWeight: 800, letterSpacing: 0.5 }}>
          Muri{' '}
          <Box component="span" sx={{ color: 'secondary.main' }}>
            Parlanti
          </Box>
        </Typography>
      </Link>
      <Paper
        elevation={0}
        sx={{ p: { xs: 3, sm: 4 }, borderRadius: 3, border: 1, borderColor: 'divider' }}
      >
        <Typography variant="h4" component="h1" sx={{ fontWeight: 800 }}>
          {title}
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 0.5, mb: 3 }}>
          {subtitle}
        </Typography>
        {children}
      </Paper>
    </Box>
  );
}

/** The link under an AuthCard's form to its sibling page (login to registration and back). */
export function AuthCardLink({
  to,
  children,
  ref,
  describedBy,
}: {
  to: string;
  children: ReactNode;
  ref?: Ref<HTMLAnchorElement>;
  /** The id of what the link is described by (a confirmation it follows). */
  describedBy?: string;
}) {
  return (
    <Link
      component={RouterLink}
      to={to}
      ref={ref}
      aria-describedby={describedBy}
      color="text.secondary"
      underline="hover"
      sx={{ textAlign: 'center', '&:hover': { color: 'secondary.main' } }}
    >
      {children}
    </Link>
  );
}

/** The form's one problem, said above its fields (and announced: role alert). */
export function AuthProblem({ message }: { message: string | null }) {
  if (message === null) return null;
  return (
    <Alert severity="error" role="alert">
      {message}
    </Alert>
  );
}

/** The form's submit button, turning into a spinner while the request runs. */
export function AuthSubmit({ busy, children }: { busy: boolean; children: ReactNode }) {
  return (
    <Button
      type="submit"
      variant="contained"
      color="secondary"
      size="large"
      fullWidth
      disabled={busy}
      startIcon={busy ? <CircularProgress size={18} color="inherit" /> : undefined}
    >
      {children}
    </Button>
  );
}

/** A new password and its confirmation (registration, a reset): SPEC §5's hint under the first. */
export function NewPasswordFields({
  label,
  values,
  onChange,
  invalid,
  autoFocus = false,
}: {
  label: string;
  values: { password: string; confirm: string };
  onChange: (field: 'password' | 'confirm', value: string) => void;
  invalid: (field: 'password' | 'confirm') => boolean;
  autoFocus?: boolean;
}) {
  return (
    <>
      <PasswordField
        label={label}
        name="password"
        autoComplete="new-password"
        autoFocus={autoFocus}
        required
        fullWidth
        value={values.password}
        onChange={(event) => onChange('password', event.target.value)}
        error={invalid('password')}
        helperText="Almeno 8 caratteri"
      />
      <PasswordField
        label="Conferma Password"
        name="confirm"
        autoComplete="new-password"
        required
        fullWidth
        value={values.confirm}
        onChange={(event) => onChange('confirm', event.target.value)}
        error={invalid('confirm')}
      />
    </>
  );
}
