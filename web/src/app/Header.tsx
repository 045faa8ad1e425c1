import AccountCircleIcon from '@mui/icons-material/AccountCircle';
import AdminPanelSettingsIcon from '@mui/icons-material/AdminPanelSettings';
import CategoryIcon from '@mui/icons-material/Category';
import SearchIcon from '@mui/icons-material/Search';
import { AppBar, Box, IconButton, Link, Toolbar, Typography } from '@mui/material';
import { lazy, Suspense, useRef, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useSession } from '../features/auth/useSession.js';
import { focusContent } from '../components/focusContent.js';
import { LoadFailureBoundary } from '../components/LoadFailureBoundary.js';
import type { SearchClose } from './HeaderOverlays.js';

// The search field and the categories drawer load when first wanted (HeaderOverlays.tsx).
const loadOverlays = () => import('./HeaderOverlays.js');
const SearchOverlay = lazy(() => loadOverlays().then((m) => ({ default: m.SearchOverlay })));
const CategoriesDrawer = lazy(() => loadOverlays().then((m) => ({ default: m.CategoriesDrawer })));
/** Pointer over, touch or focus on a button: the chunk is usually there before the click. */
const preloadOverlays = {
  onPointerEnter: () => void loadOverlays(),
  onTouchStart: () => void loadOverlays(),
  onFocus: () => void loadOverlays(),
};

/** SPEC §2 shared header: logo, search, categories drawer, account. */
export function Header() {
  const user = useSession();
  const [searching, setSearching] = useState(false);
  const searchButton = useRef<HTMLButtonElement>(null);
  const closeSearch = (how: SearchClose) => {
    setSearching(false);
    // The focus was in the overlay that goes: back to the button that opened it, or on to the
    // results a search brings, not to the page's body, where the next Tab would start again
    // from the top.
    if (how === 'dismissed') searchButton.current?.focus();
    if (how === 'sent') focusContent();
  };
  const [drawer, setDrawer] = useState(false);
  // Mounted from the first opening on, so that closing still slides it away.
  const [drawerWanted, setDrawerWanted] = useState(false);
  return (
    <AppBar position="sticky" color="default" elevation={0} sx={{ bgcolor: 'background.default' }}>
      <Toolbar sx={{ gap: 1, position: 'relative' }}>
        <Link
          component={RouterLink}
          to="/"
          aria-label="Muri Parlanti"
          underline="none"
          color="inherit"
          sx={{ flex: 1 }}
        >
          <Typography component="span" variant="h6" sx={{ fontWeight: 800, letterSpacing: 0.5 }}>
            Muri{' '}
            <Box component="span" sx={{ color: 'secondary.main' }}>
              Parlanti
            </Box>
          </Typography>
        </Link>
        <IconButton
          ref={searchButton}
          aria-label="Cerca"
          onClick={() => setSearching(true)}
          {...preloadOverlays}
        >
          <SearchIcon />
        </IconButton>
        <IconButton
          aria-label="Categorie"
          onClick={() => {
            setDrawerWanted(true);
            setDrawer(true);
          }}
          {...preloadOverlays}
        >
          <CategoryIcon />
        </IconButton>
        {/* Administrators reach the back-office from any page; nobody else sees the door. */}
        {user?.is_superuser === true && (
          <IconButton aria-label="Amministrazione" component={RouterLink} to="/admin/dashboard">
            <AdminPanelSettingsIcon />
          </IconButton>
        )}
        <IconButton
          aria-label="Account"
          component={RouterLink}
          to={user === null ? '/login' : `/user/${user.id_utente}`}
        >
          <AccountCircleIcon />
        </IconButton>
        {searching && (
          // Offline, the overlay's chunk may not come: the header stays, the button with it.
          <LoadFailureBoundary fallback={null} onError={() => closeSearch('dismissed')}>
            <Suspense fallback={null}>
              <SearchOverlay onClose={closeSearch} />
            </Suspense>
          </LoadFailureBoundary>
        )}
      </Toolbar>
      {drawerWanted && (
        <LoadFailureBoundary
          fallback={null}
          onError={() => {
            setDrawer(false);
            setDrawerWanted(false);
          }}
        >
          <Suspense fallback={null}>
            <CategoriesDrawer open={drawer} onClose={() => setDrawer(false)} />
          </Suspense>
        </LoadFailureBoundary>
      )}
    </AppBar>
  );
}
