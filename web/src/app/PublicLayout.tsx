import { Box, Container } from '@mui/material';
import { useLocation } from 'react-router';
import { LoadedOutlet } from '../components/LoadFailureBoundary.js';
import { SkipLink } from '../components/SkipLink.js';
import { Loading } from '../components/StatusMessage.js';
import { CategoryStrip } from './CategoryStrip.js';
import { Header } from './Header.js';
import { PageNotice } from './PageNotice.js';
import { ScrollRestoration } from './ScrollRestoration.js';

/** Header on every public page; the category strip too, except on profiles (SPEC §2). */
export function PublicLayout() {
  const { pathname } = useLocation();
  return (
    <>
      {/* Back to a gallery lands where the reader left it, not at the top. */}
      <ScrollRestoration />
      <SkipLink />
      <Header />
      {!pathname.startsWith('/user/') && <CategoryStrip />}
      {/* Focusable by script only, as 'Torna su' focuses it (ScrollTopFab.tsx); a ring around
          the whole content would mark nothing one can act on. */}
      <Container
        component="main"
        id="contenuto"
        tabIndex={-1}
        maxWidth={false}
        sx={{ py: 3, maxWidth: 1800, '&:focus': { outline: 'none' } }}
      >
        <PageNotice />
        <LoadedOutlet fallback={<Loading />} />
      </Container>
    </>
  );
}

/** Login and registration stand alone, without the header (SPEC §2). */
export function BareLayout() {
  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', p: 2 }}>
      <LoadedOutlet fallback={<Loading />} />
    </Box>
  );
}
