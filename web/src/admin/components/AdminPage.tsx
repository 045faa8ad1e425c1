import { Alert, Box, CircularProgress, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { usePageTitle } from '../../components/usePageTitle.js';

interface AdminPageProps {
  title: string;
  /** Buttons beside the title. */
  actions?: ReactNode;
  loading?: boolean;
  /** A load error replaces the page with an error alert (SPEC §2). */
  error?: string | null;
  /** useNotice's element: drawn whatever the page shows, so its live regions are never new. */
  notice?: ReactNode;
  children?: ReactNode;
}

/** The spinner admin pages show while they load (SPEC §2). */
export function PageSpinner() {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', py: 8 }}>
      <CircularProgress aria-label="Caricamento" color="secondary" />
    </Box>
  );
}

/** The frame of every admin screen: its title, then a spinner, an error or the content. */
export function AdminPage({
  title,
  actions,
  loading = false,
  error = null,
  notice = null,
  children,
}: AdminPageProps) {
  usePageTitle(title);
  return (
    <Box component="section" aria-labelledby="admin-page-title">
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ mb: 3, justifyContent: 'space-between', alignItems: { sm: 'center' } }}
      >
        <Typography id="admin-page-title" variant="h4" component="h1">
          {title}
        </Typography>
        {actions === undefined ? null : (
          <Stack direction="row" useFlexGap spacing={1} sx={{ flexWrap: 'wrap' }}>
            {actions}
          </Stack>
        )}
      </Stack>
      {error !== null ? (
        <Alert severity="error">{error}</Alert>
      ) : loading ? (
        <PageSpinner />
      ) : (
        children
      )}
      {notice}
    </Box>
  );
}
