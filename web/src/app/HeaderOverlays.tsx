import CloseIcon from '@mui/icons-material/Close';
import SearchIcon from '@mui/icons-material/Search';
import {
  Box,
  ClickAwayListener,
  Drawer,
  IconButton,
  InputBase,
  Link,
  Paper,
  Typography,
} from '@mui/material';
import { useEffect, useState, type SyntheticEvent } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router';
import { useCategories } from '../features/categories/api.js';
import { currentCategoryId } from '../features/categories/category.js';
import { categoryDisplayName } from '../lib/format.js';
import { PRIVACY_POLICY_PATH, PRIVACY_POLICY_TITLE } from './privacyPolicy.js';

/*
 * The header's search field and categories drawer, in a chunk of their own: nobody sees them
 * before pressing a button, and the text field and the drawer's modal, transitions and portal
 * were a tenth of the JavaScript every page loaded first (goal 8). Header.tsx starts loading
 * this chunk as soon as a pointer or the focus comes near either button.
 */

/**
 * How the overlay was left: 'dismissed' by Escape or 'Chiudi ricerca', or 'sent' with a search,
 * with the focus inside and nowhere to go; or 'away' by a click elsewhere, which takes it.
 */
export type SearchClose = 'dismissed' | 'sent' | 'away';

export function SearchOverlay({ onClose }: { onClose: (how: SearchClose) => void }) {
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const submit = (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    const trimmed = query.trim();
    // SPEC §5: an empty or whitespace query is ignored.
    if (trimmed === '') return;
    onClose('sent');
    void navigate(`/search?q=${encodeURIComponent(trimmed)}`);
  };
  return (
    <ClickAwayListener onClickAway={() => onClose('away')}>
      <Paper
        component="form"
        role="search"
        onSubmit={submit}
        // On the form, not the field: SPEC §2's Escape closes it wherever the focus is inside.
        onKeyDown={(event) => {
          if (event.key !== 'Escape') return;
          event.preventDefault();
          onClose('dismissed');
        }}
        elevation={8}
        sx={{
          position: 'absolute',
          insetInline: { xs: 8, sm: '20%' },
          top: 8,
          display: 'flex',
          alignItems: 'center',
          // Narrower on a phone, so the whole placeholder fits at 390 px (not a smaller font:
          // iOS zooms into a field whose text is under 16 px).
          px: { xs: 1.5, sm: 2 },
          py: 1,
          zIndex: 2,
        }}
      >
        <SearchIcon sx={{ mr: { xs: 0.75, sm: 1 }, color: 'text.secondary' }} />
        <InputBase
          autoFocus
          fullWidth
          placeholder="Cerca immagini, utenti, categorie..."
          inputProps={{ 'aria-label': 'Cerca immagini, utenti, categorie...', maxLength: 200 }}
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
        <IconButton aria-label="Chiudi ricerca" onClick={() => onClose('dismissed')} edge="end">
          <CloseIcon />
        </IconButton>
      </Paper>
    </ClickAwayListener>
  );
}

/**
 * The categories a visitor can browse, in the server's order, which is already by the names
 * people read ('Politico' among the P's, not with the M's of its stored 'messaggio_politico');
 * an empty one would only lead to 'Nessuna immagine trovata per questa categoria'.
 */
function inDrawerOrder<C extends { nome: string; count: number }>(categories: readonly C[]) {
  return categories
    .filter((category) => category.count > 0)
    .map((category) => ({ ...category, shown: categoryDisplayName(category.nome) }));
}

export function CategoriesDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { data } = useCategories();
  const currentId = currentCategoryId(useLocation().pathname);
  // Header.tsx mounts the drawer when it is first wanted, already open; MUI skips the slide of
  // a drawer mounted open, so it starts closed for one render and slides in as it always did.
  const [mounted, setMounted] = useState(false);
  useEffect(() => {
    setMounted(true);
  }, []);
  return (
    <Drawer
      anchor="top"
      open={open && mounted}
      onClose={onClose}
      // Without MUI's lighter overlay for raised surfaces, which turned the page's own colour grey.
      slotProps={{
        paper: { sx: { height: '100%', bgcolor: 'background.default', backgroundImage: 'none' } },
      }}
    >
      <Box sx={{ p: 3, maxWidth: 900, mx: 'auto', width: '100%' }}>
        <Box sx={{ display: 'flex', alignItems: 'center', mb: 3 }}>
          <Typography variant="h4" component="h2" sx={{ flex: 1 }}>
            Categorie
          </Typography>
          <IconButton aria-label="Chiudi categorie" onClick={onClose}>
            <CloseIcon />
          </IconButton>
        </Box>
        <Box
          component="nav"
          aria-label="Tutte le categorie"
          sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 1.5 }}
        >
          {inDrawerOrder(data ?? []).map((category) => (
            <Link
              key={category.id_categoria}
              component={RouterLink}
              to={`/category/${category.id_categoria}`}
              aria-current={String(category.id_categoria) === currentId ? 'page' : undefined}
              onClick={onClose}
              underline="none"
              color="inherit"
              sx={{
                p: 2,
                borderRadius: 2,
                border: 1,
                borderColor: 'transparent',
                bgcolor: 'background.paper',
                '&:hover': { color: 'secondary.main' },
                // The category on screen, marked as the strip marks it.
                '&[aria-current="page"]': {
                  bgcolor: 'action.selected',
                  borderColor: 'secondary.main',
                },
              }}
            >
              {category.shown}
            </Link>
          ))}
        </Box>
        {/* The drawer is the one menu every public page has (a page footer would sit under
            galleries that never end), so the policy is always a tap away from it. */}
        <Box sx={{ mt: 4, pt: 2, borderTop: 1, borderColor: 'divider' }}>
          <Link
            component={RouterLink}
            to={PRIVACY_POLICY_PATH}
            onClick={onClose}
            variant="body2"
            color="text.secondary"
            underline="hover"
          >
            {PRIVACY_POLICY_TITLE}
          </Link>
        </Box>
      </Box>
    </Drawer>
  );
}
