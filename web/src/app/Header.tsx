import AccountCircleIcon from '@mui/icons-material/AccountCircle';
import AdminPanelSettingsIcon from '@mui/icons-material/AdminPanelSettings';
import CategoryIcon from '@mui/icons-material/Category';
import CloseIcon from '@mui/icons-material/Close';
import SearchIcon from '@mui/icons-material/Search';
import {
  AppBar,
  Box,
  ClickAwayListener,
  Drawer,
  IconButton,
  InputBase,
  Link,
  Paper,
  Toolbar,
  Typography,
} from '@mui/material';
import { useState, type SyntheticEvent } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { useSession } from '../features/auth/useSession.js';
import { useCategories } from '../features/categories/api.js';
import { categoryDisplayName } from '../lib/format.js';

function SearchOverlay({ onClose }: { onClose: () => void }) {
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const submit = (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    const trimmed = query.trim();
    // SPEC §5: an empty or whitespace query is ignored.
    if (trimmed === '') return;
    onClose();
    void navigate(`/search?q=${encodeURIComponent(trimmed)}`);
  };
  return (
    <ClickAwayListener onClickAway={onClose}>
      <Paper
        component="form"
        role="search"
        onSubmit={submit}
        elevation={8}
        sx={{
          position: 'absolute',
          insetInline: { xs: 8, sm: '20%' },
          top: 8,
          display: 'flex',
          alignItems: 'center',
          px: 2,
          py: 1,
          zIndex: 2,
        }}
      >
        <SearchIcon sx={{ mr: 1, color: 'text.secondary' }} />
        <InputBase
          autoFocus
          fullWidth
          placeholder="Cerca immagini, utenti, categorie..."
          inputProps={{ 'aria-label': 'Cerca immagini, utenti, categorie...', maxLength: 200 }}
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Escape') onClose();
          }}
        />
        <IconButton aria-label="Chiudi ricerca" onClick={onClose}>
          <CloseIcon />
        </IconButton>
      </Paper>
    </ClickAwayListener>
  );
}

function CategoriesDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { data } = useCategories();
  return (
    <Drawer
      anchor="top"
      open={open}
      onClose={onClose}
      slotProps={{ paper: { sx: { height: '100%', bgcolor: 'background.default' } } }}
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
        <Box component="nav" sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 1.5 }}>
          {(data ?? []).map((category) => (
            <Link
              key={category.id_categoria}
              component={RouterLink}
              to={`/category/${category.id_categoria}`}
              onClick={onClose}
              underline="none"
              color="inherit"
              sx={{
                p: 2,
                borderRadius: 2,
                bgcolor: 'background.paper',
                '&:hover': { color: 'secondary.main' },
              }}
            >
              {categoryDisplayName(category.nome)}
            </Link>
          ))}
        </Box>
      </Box>
    </Drawer>
  );
}

/** SPEC §2 shared header: logo, search, categories drawer, account. */
export function Header() {
  const user = useSession();
  const [searching, setSearching] = useState(false);
  const [drawer, setDrawer] = useState(false);
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
        <IconButton aria-label="Cerca" onClick={() => setSearching(true)}>
          <SearchIcon />
        </IconButton>
        <IconButton aria-label="Categorie" onClick={() => setDrawer(true)}>
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
        {searching && <SearchOverlay onClose={() => setSearching(false)} />}
      </Toolbar>
      <CategoriesDrawer open={drawer} onClose={() => setDrawer(false)} />
    </AppBar>
  );
}
