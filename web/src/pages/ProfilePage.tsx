import CalendarMonthIcon from '@mui/icons-material/CalendarMonth';
import FavoriteBorderIcon from '@mui/icons-material/FavoriteBorder';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import PersonRemoveIcon from '@mui/icons-material/PersonRemove';
import PhotoLibraryOutlinedIcon from '@mui/icons-material/PhotoLibraryOutlined';
import {
  Avatar,
  Box,
  Button,
  IconButton,
  Paper,
  Stack,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { Navigate, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { ChipBreadcrumbs } from '../components/ChipBreadcrumbs.js';
import { InfiniteGallery } from '../components/InfiniteGallery.js';
import { PROFILE_COLUMNS } from '../components/masonryColumns.js';
import { ScrollTopButton } from '../components/ScrollTopButton.js';
import { panelId, TabBar, tabId, type TabItem } from '../components/TabBar.js';
import { ErrorMessage, Loading } from '../components/StatusMessage.js';
import { usePageTitle } from '../components/usePageTitle.js';
import { useSession } from '../features/auth/useSession.js';
import { profileKeys } from '../features/profile/keys.js';
import type { Notice } from '../features/profile/ProfileNotice.js';
import { useExportData } from '../features/profile/useExportData.js';
import { useFollow } from '../features/profile/useFollow.js';
import { useLikedImages } from '../features/profile/useLikedImages.js';
import { useProfile, type PublicProfile } from '../features/profile/useProfile.js';
import { userImagesQuery, useUserImages } from '../features/profile/useUserImages.js';
import { ApiError, errorMessage, retryOf } from '../lib/api.js';
import { formatCount, formatLongDate } from '../lib/format.js';
import { clearSession, type SessionUser } from '../lib/session.js';
import type { NoticeState } from '../app/PageNotice.js';

// What only the profile's owner opens, and only sometimes, loads when first wanted: the menu
// (MUI's Menu, Popover, Modal), the two dialogs (text fields, Dialog) and the notice (Snackbar).
// Together they made the page's first load 185 KB of JavaScript (goal 8: at most 150).
const loadMenu = () => import('../features/profile/OwnMenuList.js');
const OwnMenuList = lazy(loadMenu);
/** Pointer over, touch or focus on the button: the chunk is usually there before the click. */
const preloadMenu = {
  onPointerEnter: () => void loadMenu(),
  onTouchStart: () => void loadMenu(),
  onFocus: () => void loadMenu(),
};
const EditProfileDialog = lazy(() =>
  import('../features/profile/EditProfileDialog.js').then((m) => ({
    default: m.EditProfileDialog,
  })),
);
const DeleteAccountDialog = lazy(() =>
  import('../features/profile/DeleteAccountDialog.js').then((m) => ({
    default: m.DeleteAccountDialog,
  })),
);
const ProfileNotice = lazy(() => import('../features/profile/ProfileNotice.js'));
// The owner's own uploads ('Carica' tab): only its owner ever opens it.
const OwnUploadsPanel = lazy(() =>
  import('../features/profile/OwnUploadsPanel.js').then((m) => ({ default: m.OwnUploadsPanel })),
);

const IMAGES_ERROR = 'Si è verificato un errore nel caricamento delle immagini. Riprova più tardi.';

type TabName = 'images' | 'liked' | 'upload';

/** 'me' or a positive id, as the server's route accepts it. */
const USER_REF = /^(me|[1-9][0-9]{0,9})$/;
/** The start of the ids of the profile's tabs and panels. */
const PROFILE_TABS = 'profile';

/** 'Immagini': the user's approved pictures, 30 at a time while the server says hasMore. */
function UserImagesPanel({ userId }: { userId: number }) {
  const query = useUserImages(userId, true);
  return (
    <InfiniteGallery
      query={query}
      columns={PROFILE_COLUMNS}
      errorText={IMAGES_ERROR}
      emptyText="Nessuna immagine pubblicata"
      emptyIcon={<PhotoLibraryOutlinedIcon fontSize="inherit" />}
    />
  );
}

/** 'Mi piace': only the own list exists, likes are private (D5). */
function LikedImagesPanel({ viewerId }: { viewerId: number }) {
  const query = useLikedImages(viewerId);
  return (
    <InfiniteGallery
      query={query}
      columns={PROFILE_COLUMNS}
      errorText="Errore nel caricamento delle immagini piaciute"
      emptyText="Nessuna immagine piaciuta"
      emptyIcon={<FavoriteBorderIcon fontSize="inherit" />}
    />
  );
}

function Stat({ value, label }: { value: number; label: string }) {
  return (
    <Typography component="span" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
      <Box component="strong" sx={{ color: 'text.primary', fontWeight: 800, fontSize: '1.1rem' }}>
        {formatCount(value)}
      </Box>{' '}
      {label}
    </Typography>
  );
}

interface OwnMenuProps {
  onEdit: () => void;
  onExport: () => void;
  onDelete: () => void;
  onLogout: () => void;
  exporting: boolean;
}

/** The own-profile menu (SPEC §2, D9): edit, data export, account deletion, logout. */
function OwnMenu({ onEdit, onExport, onDelete, onLogout, exporting }: OwnMenuProps) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  // Mounted from the first opening on, so that closing still fades it out.
  const [menuWanted, setMenuWanted] = useState(false);
  const pick = (action: () => void) => () => {
    setAnchor(null);
    action();
  };
  return (
    <>
      <IconButton
        aria-label="Opzioni"
        aria-haspopup="menu"
        aria-expanded={anchor !== null}
        aria-controls={anchor === null ? undefined : 'profile-options'}
        onClick={(event) => {
          setMenuWanted(true);
          setAnchor(event.currentTarget);
        }}
        {...preloadMenu}
        sx={{ border: 1, borderColor: 'divider' }}
      >
        <MoreVertIcon />
      </IconButton>
      {menuWanted && (
        <Suspense fallback={null}>
          <OwnMenuList
            anchor={anchor}
            onClose={() => {
              setAnchor(null);
            }}
            onEdit={pick(onEdit)}
            onExport={pick(onExport)}
            onDelete={pick(onDelete)}
            onLogout={pick(onLogout)}
            exporting={exporting}
          />
        </Suspense>
      )}
    </>
  );
}

interface ProfileHeaderProps {
  profile: PublicProfile;
  actions: ReactNode;
  /** The actions are a single icon button (the own-profile menu). */
  compactActions: boolean;
}

function ProfileHeader({ profile, actions, compactActions }: ProfileHeaderProps) {
  const { user } = profile;
  return (
    <Paper
      component="section"
      aria-label="Profilo"
      elevation={0}
      sx={{
        position: 'relative',
        overflow: 'hidden',
        borderRadius: 3,
        p: { xs: 3, md: 4 },
        border: 1,
        borderColor: 'divider',
        background:
          'radial-gradient(120% 140% at 0% 0%, rgba(244,143,177,0.22) 0%, rgba(244,143,177,0.05) 45%, rgba(30,30,30,0) 70%), #1e1e1e',
      }}
    >
      <Box
        sx={{
          display: 'flex',
          flexDirection: { xs: 'column', sm: 'row' },
          alignItems: 'center',
          gap: { xs: 2, sm: 3.5 },
          textAlign: { xs: 'center', sm: 'left' },
        }}
      >
        <Avatar
          aria-hidden
          sx={{
            width: { xs: 88, md: 112 },
            height: { xs: 88, md: 112 },
            fontSize: { xs: '2.5rem', md: '3.2rem' },
            fontWeight: 800,
            color: '#121212',
            background: 'linear-gradient(135deg, #f8bbd0 0%, #f48fb1 55%, #ec407a 100%)',
            boxShadow: '0 0 0 4px #121212, 0 0 0 6px rgba(244,143,177,0.5)',
          }}
        >
          {user.username.charAt(0).toLocaleUpperCase('it-IT')}
        </Avatar>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography
            variant="h4"
            component="h1"
            sx={{ fontWeight: 800, wordBreak: 'break-word', lineHeight: 1.15 }}
          >
            {user.username}
          </Typography>
          <Typography
            color="text.secondary"
            sx={{
              mt: 0.75,
              display: 'flex',
              alignItems: 'center',
              justifyContent: { xs: 'center', sm: 'flex-start' },
              gap: 0.75,
            }}
          >
            <CalendarMonthIcon fontSize="small" aria-hidden />
            Membro dal: {formatLongDate(user.created_at)}
          </Typography>
          <Stack
            direction="row"
            sx={{
              mt: 2,
              columnGap: { xs: 2.5, sm: 3 },
              rowGap: 1,
              flexWrap: 'wrap',
              justifyContent: { xs: 'center', sm: 'flex-start' },
            }}
          >
            <Stat value={user.followers_count} label="follower" />
            <Stat
              value={user.stats.total_images}
              label={user.stats.total_images === 1 ? 'immagine' : 'immagini'}
            />
            <Stat value={user.stats.total_likes} label="mi piace" />
          </Stack>
        </Box>
        <Box
          sx={[
            { alignSelf: { xs: 'center', sm: 'flex-start' }, flexShrink: 0 },
            // On phones a lone menu icon sits in the corner, like in any profile app.
            compactActions && {
              position: { xs: 'absolute', sm: 'static' },
              top: 12,
              right: 12,
            },
          ]}
        >
          {actions}
        </Box>
      </Box>
    </Paper>
  );
}

interface FollowButtonProps {
  profile: PublicProfile;
  viewer: SessionUser | null;
  onError: (message: string) => void;
}

/** 'Segui' / 'Non seguire più'; anonymous visitors are sent to log in first (SPEC §6). */
function FollowButton({ profile, viewer, onError }: FollowButtonProps) {
  const follow = useFollow();
  const navigate = useNavigate();
  const location = useLocation();
  const following = profile.is_following;
  const toggle = () => {
    if (viewer === null) {
      void navigate('/login', { state: { from: location.pathname + location.search } });
      return;
    }
    follow.mutate(
      { userId: profile.user.id_utente, follow: !following },
      {
        onError: (error) => {
          onError(errorMessage(error, 'Si è verificato un errore. Riprova più tardi.'));
        },
      },
    );
  };
  return (
    <Button
      variant={following ? 'outlined' : 'contained'}
      color={following ? 'inherit' : 'secondary'}
      size="large"
      startIcon={following ? <PersonRemoveIcon /> : <PersonAddIcon />}
      loading={follow.isPending}
      onClick={toggle}
      sx={{ minWidth: 180, borderRadius: 99 }}
    >
      {following ? 'Non seguire più' : 'Segui'}
    </Button>
  );
}

/** /user/:id (SPEC §2): a public profile, and for its owner the private tabs and the menu. */
export default function ProfilePage() {
  const { id = '' } = useParams();
  const viewer = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('sm'));
  const [params, setParams] = useSearchParams();
  // Set just before the session ends on purpose, so the page does not bounce to /login itself.
  const [leaving, setLeaving] = useState(false);
  const [dialog, setDialog] = useState<'edit' | 'delete' | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  // The notice's chunk is mounted from the first notice on, so that it still fades out.
  const [noticed, setNoticed] = useState(false);
  if (notice !== null && !noticed) setNoticed(true);
  const exportData = useExportData();

  const validRef = USER_REF.test(id);
  const requestedTab = params.get('tab');
  // 'me' and the private tabs only make sense with a session: log in, then come back here.
  const needsLogin =
    viewer === null && (id === 'me' || requestedTab === 'liked' || requestedTab === 'upload');
  const profile = useProfile(id, viewer?.id_utente ?? null, validRef && !needsLogin && !leaving);
  const data = profile.data;
  // The pictures are asked for with the profile, not once it has come: whose they are is known
  // from the address, or from the session for 'me', and the page's largest paint is the first
  // photo (docs/PERFORMANCE.md, "The profile's tabs": two answers one after the other).
  const knownUserId = id === 'me' ? viewer?.id_utente : validRef ? Number(id) : undefined;
  // The private tabs open only on the own profile; anyone else's opens on its pictures.
  const ownRef = id === 'me' || (viewer !== null && knownUserId === viewer.id_utente);
  const opensOnImages = !ownRef || (requestedTab !== 'liked' && requestedTab !== 'upload');
  useEffect(() => {
    if (knownUserId === undefined || !opensOnImages || needsLogin || leaving) return;
    // A refusal is the panel's to show: it asks again when it mounts.
    queryClient.infiniteQuery(userImagesQuery(knownUserId)).catch(() => undefined);
  }, [queryClient, knownUserId, opensOnImages, needsLogin, leaving]);

  const notFound = !validRef || (profile.error instanceof ApiError && profile.error.status === 404);
  usePageTitle(data?.user.username ?? (notFound ? 'Utente non trovato' : 'Profilo'));

  if (leaving) return <Loading />;
  if (needsLogin) {
    return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
  }

  const isOwn = viewer !== null && data !== undefined && data.user.id_utente === viewer.id_utente;
  const tab: TabName =
    isOwn && (requestedTab === 'liked' || requestedTab === 'upload') ? requestedTab : 'images';

  const selectTab = (next: TabName) => {
    setParams(next === 'images' ? {} : { tab: next }, { replace: true });
  };

  /** Ends the session deliberately (logout, deletion) and leaves for `to`. */
  const leave = (to: string, notice?: string) => {
    flushSync(() => {
      setLeaving(true);
    });
    clearSession();
    queryClient.removeQueries({ queryKey: ['users'] });
    queryClient.removeQueries({ queryKey: profileKeys.ownUploads(viewer?.id_utente ?? 0) });
    queryClient.removeQueries({ queryKey: profileKeys.liked(viewer?.id_utente ?? 0) });
    const state: NoticeState | null = notice === undefined ? null : { notice };
    void navigate(to, { replace: true, state });
  };

  const startExport = () => {
    if (viewer === null) return;
    exportData.mutate(viewer.username, {
      onSuccess: () => {
        setNotice({ text: 'I tuoi dati sono stati scaricati', error: false });
      },
      onError: (error) => {
        setNotice({
          text: errorMessage(error, 'Errore durante il download dei tuoi dati'),
          error: true,
        });
      },
    });
  };

  const breadcrumb = <ChipBreadcrumbs crumbs={[{ label: 'Profilo' }]} />;

  let body: ReactNode;
  if (notFound) {
    body = <ErrorMessage message="Utente non trovato" />;
  } else if (profile.isError) {
    body = (
      <ErrorMessage
        message="Errore nel caricamento del profilo utente"
        onRetry={retryOf(profile.error, profile.refetch)}
      />
    );
  } else if (data === undefined) {
    body = <Loading />;
  } else {
    const tabs: Array<TabItem<TabName>> = [
      { value: 'images', label: 'Immagini' },
      ...(isOwn
        ? [
            { value: 'liked' as const, label: 'Mi piace' },
            { value: 'upload' as const, label: 'Carica' },
          ]
        : []),
    ];
    body = (
      <>
        <ProfileHeader
          profile={data}
          compactActions={isOwn}
          actions={
            isOwn ? (
              <OwnMenu
                onEdit={() => {
                  setDialog('edit');
                }}
                onExport={startExport}
                onDelete={() => {
                  setDialog('delete');
                }}
                onLogout={() => {
                  leave('/login');
                }}
                exporting={exportData.isPending}
              />
            ) : (
              <FollowButton
                profile={data}
                viewer={viewer}
                onError={(text) => {
                  setNotice({ text, error: true });
                }}
              />
            )
          }
        />
        <Box sx={{ borderBottom: 1, borderColor: 'divider', mt: 3, mb: 3 }}>
          <TabBar
            tabs={tabs}
            value={tab}
            onChange={selectTab}
            label="Sezioni del profilo"
            idPrefix={PROFILE_TABS}
            fullWidth={narrow}
          />
        </Box>
        <Box
          role="tabpanel"
          id={panelId(PROFILE_TABS, tab)}
          aria-labelledby={tabId(PROFILE_TABS, tab)}
        >
          {tab === 'images' && <UserImagesPanel userId={data.user.id_utente} />}
          {tab === 'liked' && viewer !== null && <LikedImagesPanel viewerId={viewer.id_utente} />}
          {tab === 'upload' && viewer !== null && (
            <Suspense fallback={<Loading />}>
              <OwnUploadsPanel viewerId={viewer.id_utente} />
            </Suspense>
          )}
        </Box>
      </>
    );
  }

  return (
    <Box sx={{ maxWidth: 1400, mx: 'auto' }}>
      {breadcrumb}
      {body}
      <ScrollTopButton threshold={300} />
      {dialog === 'edit' && viewer !== null && (
        <Suspense fallback={null}>
          <EditProfileDialog
            user={viewer}
            onClose={() => {
              setDialog(null);
            }}
            onSaved={() => {
              setDialog(null);
              setNotice({ text: 'Profilo aggiornato', error: false });
            }}
          />
        </Suspense>
      )}
      {dialog === 'delete' && (
        <Suspense fallback={null}>
          <DeleteAccountDialog
            onClose={() => {
              setDialog(null);
            }}
            onDeleted={() => {
              leave(
                '/',
                'Il tuo account è stato disattivato. Lo cancelleremo definitivamente, con le tue immagini e le tue interazioni, entro 5 giorni.',
              );
            }}
          />
        </Suspense>
      )}
      {noticed && (
        <Suspense fallback={null}>
          <ProfileNotice
            notice={notice}
            onClose={() => {
              setNotice(null);
            }}
          />
        </Suspense>
      )}
    </Box>
  );
}
