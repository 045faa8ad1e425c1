import LogoutIcon from '@mui/icons-material/Logout';
import MenuIcon from '@mui/icons-material/Menu';
import {
  AppBar,
  Avatar,
  Box,
  Divider,
  Drawer,
  IconButton,
  Link,
  List,
  ListItem,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  Toolbar,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { useState } from 'react';
import { Link as RouterLink, NavLink, useNavigate } from 'react-router';
import { clearSession, type SessionUser } from '../lib/session.js';
import { ADMIN_SECTIONS } from './sections.js';
import { PageSpinner } from './components/AdminPage.js';
import { LoadedOutlet } from '../components/LoadFailureBoundary.js';
import { SkipLink } from '../components/SkipLink.js';

/** SPEC §9: the side navigation is 280 px wide. */
export const DRAWER_WIDTH = 280;

function Navigation({ user, onNavigate }: { user: SessionUser; onNavigate: () => void }) {
  const navigate = useNavigate();
  const logout = () => {
    clearSession();
    void navigate('/login');
  };
  return (
    // One landmark for the whole panel, brand and user included (nothing outside landmarks),
    // and real lists inside it: a List drawn as the <nav> itself held bare <li> items.
    <Box
      component="nav"
      aria-label="Amministrazione"
      sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}
    >
      <Box sx={{ px: 2.5, py: 2.5 }}>
        <Link
          component={RouterLink}
          to="/"
          underline="none"
          color="inherit"
          sx={{ fontWeight: 800, fontSize: 20 }}
        >
          Muri Parlanti
        </Link>
      </Box>
      <Box sx={{ px: 2.5, pb: 2, display: 'flex', alignItems: 'center', gap: 1.5 }}>
        <Avatar sx={{ bgcolor: 'secondary.main', color: 'secondary.contrastText' }}>
          {user.username.charAt(0).toLocaleUpperCase('it-IT')}
        </Avatar>
        <Box sx={{ minWidth: 0 }}>
          <Typography sx={{ fontWeight: 600 }} noWrap>
            {user.username}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            Amministratore
          </Typography>
        </Box>
      </Box>
      <Divider />
      <List sx={{ flex: 1 }}>
        {ADMIN_SECTIONS.map(({ path, label, icon: Icon }) => (
          <ListItem key={path} disablePadding>
            <ListItemButton
              component={NavLink}
              to={`/admin/${path}`}
              onClick={onNavigate}
              sx={{ '&.active': { bgcolor: 'action.selected' } }}
            >
              <ListItemIcon>
                <Icon />
              </ListItemIcon>
              <ListItemText primary={label} />
            </ListItemButton>
          </ListItem>
        ))}
      </List>
      <Divider />
      <List>
        <ListItem disablePadding>
          <ListItemButton onClick={logout}>
            <ListItemIcon>
              <LogoutIcon />
            </ListItemIcon>
            <ListItemText primary="Logout" />
          </ListItemButton>
        </ListItem>
      </List>
    </Box>
  );
}

/** The back-office frame: a fixed side navigation on wide screens, a menu on phones. */
export function AdminShell({ user }: { user: SessionUser }) {
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('md'));
  const [open, setOpen] = useState(false);
  const navigation = <Navigation user={user} onNavigate={() => setOpen(false)} />;
  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <SkipLink />
      {wide ? (
        <Drawer
          variant="permanent"
          sx={{
            width: DRAWER_WIDTH,
            flexShrink: 0,
            '& .MuiDrawer-paper': { width: DRAWER_WIDTH, boxSizing: 'border-box' },
          }}
        >
          {navigation}
        </Drawer>
      ) : (
        <>
          <AppBar position="fixed" color="default" elevation={1}>
            <Toolbar>
              <IconButton edge="start" aria-label="Apri il menu" onClick={() => setOpen(true)}>
                <MenuIcon />
              </IconButton>
              <Typography sx={{ ml: 1, fontWeight: 700 }}>Amministrazione</Typography>
            </Toolbar>
          </AppBar>
          <Drawer
            variant="temporary"
            open={open}
            onClose={() => setOpen(false)}
            // Drawn as a dialog over the page, which a screen reader announces by its name.
            slotProps={{ paper: { 'aria-label': 'Menu di amministrazione' } }}
            sx={{ '& .MuiDrawer-paper': { width: DRAWER_WIDTH } }}
          >
            {navigation}
          </Drawer>
        </>
      )}
      <Box
        component="main"
        id="contenuto"
        // Focusable by script only, for SkipLink: a ring around the whole page marks nothing.
        tabIndex={-1}
        sx={{
          flex: 1,
          minWidth: 0,
          p: { xs: 2, md: 4 },
          pt: { xs: 10, md: 4 },
          '&:focus': { outline: 'none' },
        }}
      >
        <LoadedOutlet fallback={<PageSpinner />} />
      </Box>
    </Box>
  );
}
