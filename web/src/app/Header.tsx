import AccountCircleIcon from '@mui/icons-material/AccountCircle';
import AdminPanelSettingsIcon from '@mui/icons-material/AdminPanelSettings';
import CategoryIcon from '@mui/icons-material/Category';
import SearchIcon from '@mui/icons-material/Search';
import { AppBar, Box, IconButton, Link, Toolbar, Typography } from '@mui/material';
import { useRef, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useSession } from '../features/auth/useSession.js';
import { focusContent } from '../components/focusContent.js';
import { ErrorMessage } from '../components/StatusMessage.js';
import { chunkLoader } from '../lib/chunkLoader.js';
import type { SearchClose } from './HeaderOverlays.js';

// The search field and the categories drawer load when first wanted (HeaderOverlays.tsx).
const overlays = chunkLoader(() => import('./HeaderOverlays.js'));
/** Pointer over, touch or focus on a button: the chunk is usually there before the click. */
const preloadOverlays = {
  onPointerEnter: () => void overlays.load(),
  onTouchStart: () => void overlays.load(),
  onFocus: () => void overlays.load(),
};

type Control = 'search' | 'categories';

/** Said under the header when a control's code could not be loaded (LOAD_FAILURE's wording). */
const CONTROL_LOAD_FAILURES: Record<Control, string> = {
  search: 'Impossibile caricare la ricerca. Controlla la connessione e riprova.',
  categories: 'Impossibile caricare le categorie. Controlla la connessione e riprova.',
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
  const categoriesButton = useRef<HTMLButtonElement>(null);
  /**
   * The control whose chunk did not come. Offline, a tap on 'Cerca' or 'Categorie' opened
   * nothing and said nothing, and kept doing so after the network was back, until a reload.
   */
  const [failed, setFailed] = useState<Control | null>(null);
  /**
   * Opens the control once its chunk is there. Each click, 'Riprova' included, asks for it once
   * more if it failed: the failure is said again (a new alert, announced anew), or it opens.
   */
  const open = (control: Control) => {
    setFailed(null);
    overlays.load().then(
      () => {
        if (control === 'search') {
          setSearching(true);
        } else {
          setDrawerWanted(true);
          setDrawer(true);
        }
      },
      () => setFailed(control),
    );
  };
  const buttonOf = (control: Control) => (control === 'search' ? searchButton : categoriesButton);
  const Overlays = overlays.loaded();
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
          onClick={() => open('search')}
          {...preloadOverlays}
        >
          <SearchIcon />
        </IconButton>
        <IconButton
          ref={categoriesButton}
          aria-label="Categorie"
          onClick={() => open('categories')}
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
        {searching && Overlays !== undefined && <Overlays.SearchOverlay onClose={closeSearch} />}
      </Toolbar>
      {failed !== null && (
        <ErrorMessage
          message={CONTROL_LOAD_FAILURES[failed]}
          // The focus goes back to the button, where the next failure or the control finds it.
          onRetry={() => {
            buttonOf(failed).current?.focus();
            open(failed);
          }}
          onClose={() => {
            buttonOf(failed).current?.focus();
            setFailed(null);
          }}
          sx={{ mx: 2, mb: 1 }}
        />
      )}
      {drawerWanted && Overlays !== undefined && (
        <Overlays.CategoriesDrawer open={drawer} onClose={() => setDrawer(false)} />
      )}
    </AppBar>
  );
}
