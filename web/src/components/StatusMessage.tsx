import { Alert, Box, CircularProgress, Typography } from '@mui/material';

/** The three states every list has: loading, error, empty (SPEC §4, §8). */
export function Loading() {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
      <CircularProgress aria-label="Caricamento" color="secondary" />
    </Box>
  );
}

export function ErrorMessage({ message }: { message: string }) {
  return (
    <Alert severity="error" sx={{ my: 3 }}>
      {message}
    </Alert>
  );
}

export function EmptyMessage({ message }: { message: string }) {
  return (
    <Typography color="text.secondary" sx={{ textAlign: 'center', py: 6 }}>
      {message}
    </Typography>
  );
}
