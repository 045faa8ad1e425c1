import AutoAwesomeIcon from '@mui/icons-material/AutoAwesome';
import AutoAwesomeOutlinedIcon from '@mui/icons-material/AutoAwesomeOutlined';
import BookmarkIcon from '@mui/icons-material/Bookmark';
import BookmarkBorderIcon from '@mui/icons-material/BookmarkBorder';
import CategoryOutlinedIcon from '@mui/icons-material/CategoryOutlined';
import DownloadIcon from '@mui/icons-material/Download';
import ImageNotSupportedOutlinedIcon from '@mui/icons-material/ImageNotSupportedOutlined';
import LocalOfferOutlinedIcon from '@mui/icons-material/LocalOfferOutlined';
import SentimentDissatisfiedIcon from '@mui/icons-material/SentimentDissatisfied';
import SentimentDissatisfiedOutlinedIcon from '@mui/icons-material/SentimentDissatisfiedOutlined';
import ThumbDownIcon from '@mui/icons-material/ThumbDown';
import ThumbDownOutlinedIcon from '@mui/icons-material/ThumbDownOutlined';
import ThumbUpIcon from '@mui/icons-material/ThumbUp';
import ThumbUpOutlinedIcon from '@mui/icons-material/ThumbUpOutlined';
import VisibilityOutlinedIcon from '@mui/icons-material/VisibilityOutlined';
import {
  Alert,
  Avatar,
  Box,
  Button,
  Chip,
  CircularProgress,
  Divider,
  Paper,
  Stack,
  Typography,
} from '@mui/material';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Link as RouterLink, useLocation, useNavigate, useParams } from 'react-router';
import { fadeIn, showIfLoaded, showLoaded } from '../components/ImageCard.js';
import { InfiniteGallery } from '../components/InfiniteGallery.js';
import { LazyTooltip } from '../components/LazyTooltip.js';
import { Later } from '../components/Later.js';
import { RELATED_COLUMNS } from '../components/masonryColumns.js';
import { ErrorMessage, Loading } from '../components/StatusMessage.js';
import { thumbHashDataUrl } from '../components/thumbhash.js';
import { usePageTitle } from '../components/usePageTitle.js';
import { useSession } from '../features/auth/useSession.js';
import { useDownloadImage } from '../features/image-detail/downloadImage.js';
import { useImage } from '../features/image-detail/image.js';
import { useRecordView } from '../features/image-detail/recordView.js';
import { useRelatedImages } from '../features/image-detail/relatedImages.js';
import {
  REACTIONS,
  useToggleReaction,
  type Reaction,
} from '../features/image-detail/toggleReaction.js';
import { chunkLoader, useChunk } from '../lib/chunkLoader.js';
import { parseRouteId } from '../lib/routeId.js';
import { ApiError, errorMessage, retryOf } from '../lib/api.js';
import { categoryDisplayName, countPhrase, formatLongDate } from '../lib/format.js';
import { imageAltText, imageTitle } from '../lib/imageText.js';
import type { ImageDetail } from '../lib/types.js';

const errorSnackbar = chunkLoader(() => import('../components/ErrorSnackbar.js'));

const NOT_FOUND = 'Immagine non trovata';

const REACTION_ICONS: Record<Reaction['type'], { off: ReactNode; on: ReactNode }> = {
  1: { off: <ThumbUpOutlinedIcon />, on: <ThumbUpIcon /> },
  2: { off: <BookmarkBorderIcon />, on: <BookmarkIcon /> },
  4: { off: <SentimentDissatisfiedOutlinedIcon />, on: <SentimentDissatisfiedIcon /> },
  5: { off: <ThumbDownOutlinedIcon />, on: <ThumbDownIcon /> },
  6: { off: <AutoAwesomeOutlinedIcon />, on: <AutoAwesomeIcon /> },
};

/**
 * The picture at the largest size that fits the window. Its box has the picture's proportions
 * from the first paint (no jump) and shows the ThumbHash until the file arrives.
 */
function LargeImage({ image }: { image: ImageDetail }) {
  const sources = [
    `${image.thumbnail_url} 400w`,
    `${image.display_url} ${Math.min(image.width, 1280)}w`,
  ];
  if (image.width > 1280) sources.push(`${image.image_url} ${image.width}w`);
  const srcSet = sources.join(', ');
  const blur = useMemo(() => thumbHashDataUrl(image.placeholder), [image.placeholder]);
  const ratio = image.width / Math.max(image.height, 1);
  return (
    <Paper
      elevation={0}
      sx={{
        display: 'flex',
        justifyContent: 'center',
        bgcolor: '#0b0b0b',
        borderRadius: 3,
        overflow: 'hidden',
        p: { xs: 0, sm: 2 },
      }}
    >
      <Box
        // What differs from picture to picture goes in `style`: in `sx` it made a class of its
        // own, the ThumbHash's data URL included, for emotion to parse and insert in React's
        // first commit (goal 8). The rest is one shared class.
        style={{
          // As wide as the column allows, but never taller than the window below the header.
          width: `min(100%, calc((100vh - 200px) * ${ratio}))`,
          aspectRatio: `${image.width} / ${image.height}`,
          backgroundImage: blur === undefined ? undefined : `url(${blur})`,
        }}
        sx={{
          position: 'relative',
          borderRadius: { xs: 0, sm: 2 },
          overflow: 'hidden',
          backgroundSize: 'cover',
        }}
      >
        <Box
          component="img"
          // The server's first screen drew this very picture, and boot.ts waited for it to load:
          // shown from React's first paint (components/ImageCard.tsx, fadeIn).
          ref={showIfLoaded}
          src={image.display_url}
          srcSet={srcSet}
          sizes="(min-width: 1200px) 65vw, 100vw"
          width={image.width}
          height={image.height}
          alt={imageAltText(image)}
          fetchPriority="high"
          decoding="async"
          onLoad={showLoaded}
          sx={{
            display: 'block',
            width: '100%',
            height: '100%',
            objectFit: 'contain',
            ...fadeIn(250),
          }}
        />
      </Box>
    </Paper>
  );
}

function ReactionButton({
  reaction,
  count,
  pressed,
  busy,
  disabled,
  onClick,
}: {
  reaction: Reaction;
  count: number;
  pressed: boolean;
  busy: boolean;
  disabled: boolean;
  onClick: () => void;
}) {
  const icons = REACTION_ICONS[reaction.type];
  return (
    // Above: under the reactions is 'Scarica', which a label below covered while pointed at.
    <LazyTooltip title={reaction.label} placement="top">
      <Button
        // The count is the button's visible text, so its name carries it too: a screen reader
        // says 'Mi piace: 3', and speech input can use what it sees (WCAG 2.5.3).
        aria-label={`${reaction.label}: ${count}`}
        aria-pressed={pressed}
        aria-busy={busy}
        color={pressed ? 'secondary' : 'inherit'}
        variant="outlined"
        // Not disabled while the answer is on its way (a tooltip needs a live button); the
        // click is ignored instead, so one toggle never races another.
        onClick={busy ? undefined : onClick}
        disabled={disabled}
        sx={{
          flex: 1,
          minWidth: 0,
          flexDirection: 'column',
          gap: 0.25,
          py: 1,
          borderColor: pressed ? 'secondary.main' : 'divider',
          bgcolor: pressed ? 'rgba(244, 143, 177, 0.12)' : 'transparent',
          opacity: busy ? 0.7 : 1,
        }}
      >
        {icons[pressed ? 'on' : 'off']}
        <Typography component="span" variant="body2" sx={{ fontWeight: 700, lineHeight: 1.2 }}>
          {count}
        </Typography>
      </Button>
    </LazyTooltip>
  );
}

function Section({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box>
      <Typography
        variant="overline"
        color="text.secondary"
        sx={{ display: 'block', lineHeight: 2, letterSpacing: 1 }}
      >
        {label}
      </Typography>
      {children}
    </Box>
  );
}

function ImageDetails({ image, onError }: { image: ImageDetail; onError: (m: string) => void }) {
  const user = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const toggle = useToggleReaction();
  const download = useDownloadImage();

  const toLogin = () =>
    void navigate('/login', { state: { from: location.pathname + location.search } });

  const own = new Set(image.interactions.map((interaction) => interaction.id_tipo_interazione));

  const react = (reaction: Reaction) => {
    // SPEC §6: anonymous visitors log in first and come back here.
    if (user === null) {
      toLogin();
      return;
    }
    toggle.mutate(
      { imageId: image.id_image, userId: user.id_utente, reaction },
      {
        onError: (error) => {
          if (error instanceof ApiError && error.status === 401) {
            toLogin();
            return;
          }
          onError(errorMessage(error, reaction.failure));
        },
      },
    );
  };

  const save = () => {
    if (user === null) {
      toLogin();
      return;
    }
    download.mutate(
      { imageId: image.id_image, viewerId: user.id_utente },
      {
        onError: (error) => {
          if (error instanceof ApiError && error.status === 401) {
            toLogin();
            return;
          }
          onError(errorMessage(error, "Errore nel download dell'immagine"));
        },
      },
    );
  };

  const uploader = image.username_uploader === '' ? 'Utente' : image.username_uploader;
  const uploaderAvatar = <Avatar>{uploader.charAt(0).toLocaleUpperCase('it-IT')}</Avatar>;
  const category = image.category as ImageDetail['category'] | null;
  // Waiting or rejected pictures were never published: their date is the upload's.
  const date =
    image.published_at === null
      ? `Caricata il ${formatLongDate(image.created_at)}`
      : `Pubblicata il ${formatLongDate(image.published_at)}`;

  return (
    <Paper
      elevation={0}
      sx={{
        p: { xs: 2, sm: 3 },
        borderRadius: 3,
        border: 1,
        borderColor: 'divider',
      }}
    >
      <Stack spacing={2.5}>
        <Box>
          <Typography
            variant="h5"
            component="h1"
            sx={{ fontWeight: 800, overflowWrap: 'anywhere', lineHeight: 1.25 }}
          >
            {imageTitle(image)}
          </Typography>
          <Box
            sx={{
              display: 'flex',
              flexWrap: 'wrap',
              alignItems: 'center',
              columnGap: 2,
              rowGap: 0.5,
              mt: 1,
              color: 'text.secondary',
            }}
          >
            <Typography variant="body2">{date}</Typography>
            <Box sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
              <VisibilityOutlinedIcon fontSize="small" aria-hidden />
              <Typography variant="body2" data-testid="views">
                {countPhrase(image.views_count, 'visualizzazione', 'visualizzazioni')}
              </Typography>
            </Box>
          </Box>
        </Box>

        {image.status === 'pending' && (
          <Alert severity="info">
            In attesa di approvazione: non è ancora pubblica. Reazioni e visualizzazioni si contano
            dalla pubblicazione.
          </Alert>
        )}
        {image.status === 'rejected' && (
          <Alert severity="warning">Questa immagine è stata rifiutata e non è pubblica.</Alert>
        )}

        <Box>
          <Stack direction="row" spacing={1} role="group" aria-label="Reazioni">
            {REACTIONS.map((reaction) => (
              <ReactionButton
                key={reaction.type}
                reaction={reaction}
                count={image[reaction.count]}
                pressed={own.has(reaction.type)}
                busy={toggle.isPending && toggle.variables.reaction.type === reaction.type}
                // D4: the server counts nothing on a picture not yet public.
                disabled={image.status !== 'approved'}
                onClick={() => {
                  react(reaction);
                }}
              />
            ))}
          </Stack>
          <Button
            // As the reactions: the count is visible text, so the name carries it too.
            aria-label={`Scarica: ${String(image.downloads_count)}`}
            variant="contained"
            color="secondary"
            fullWidth
            size="large"
            startIcon={
              download.isPending ? <CircularProgress size={18} color="inherit" /> : <DownloadIcon />
            }
            disabled={download.isPending}
            onClick={save}
            sx={{ mt: 1.5 }}
          >
            Scarica{' '}
            <Box
              component="span"
              data-testid="downloads"
              sx={{
                // After the space the name needs between the word and the count.
                ml: 0.5,
                px: 1,
                borderRadius: 5,
                fontSize: '0.8rem',
                bgcolor: 'rgba(0, 0, 0, 0.18)',
              }}
            >
              {image.downloads_count}
            </Box>
          </Button>
        </Box>

        <Divider />

        <Section label="Caricata da">
          {image.uploader_visible ? (
            <Chip
              component={RouterLink}
              to={`/user/${image.id_utente}`}
              clickable
              avatar={uploaderAvatar}
              label={uploader}
            />
          ) : (
            <Chip avatar={uploaderAvatar} label={uploader} />
          )}
        </Section>

        <Section label="Categoria">
          {category === null ? (
            <Chip icon={<CategoryOutlinedIcon />} label="Non specificata" variant="outlined" />
          ) : (
            <Chip
              component={RouterLink}
              to={`/category/${category.id_categoria}`}
              clickable
              icon={<CategoryOutlinedIcon />}
              label={categoryDisplayName(category.nome)}
              variant="outlined"
            />
          )}
        </Section>

        <Section label="Tag">
          {image.tags.length === 0 ? (
            <Typography variant="body2" color="text.secondary">
              Nessun tag
            </Typography>
          ) : (
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
              {image.tags.map((tag) => (
                <Chip
                  key={tag.id_tag}
                  component={RouterLink}
                  to={`/tag/${tag.id_tag}`}
                  clickable
                  size="small"
                  icon={<LocalOfferOutlinedIcon />}
                  label={tag.nome}
                />
              ))}
            </Box>
          )}
        </Section>

        {image.description !== null && image.description.trim() !== '' && (
          <Section label="Descrizione">
            <Typography variant="body2" sx={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
              {image.description}
            </Typography>
          </Section>
        )}
      </Stack>
    </Paper>
  );
}

function RelatedImages({ id }: { id: number }) {
  const related = useRelatedImages(id);
  return (
    <Box component="section" aria-labelledby="related-title" sx={{ mt: { xs: 4, lg: 5 } }}>
      <Typography id="related-title" variant="h5" component="h2" sx={{ fontWeight: 800 }}>
        Immagini Correlate
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5, mb: 2.5 }}>
        Scorri per vedere altre immagini correlate
      </Typography>
      <InfiniteGallery
        query={related}
        columns={RELATED_COLUMNS}
        emptyText="Nessuna immagine correlata"
        errorText="Errore nel caricamento delle immagini correlate"
      />
    </Box>
  );
}

function NotFound() {
  return (
    <Box sx={{ textAlign: 'center', py: { xs: 8, md: 12 }, px: 2 }}>
      <ImageNotSupportedOutlinedIcon sx={{ fontSize: 64, color: 'text.disabled' }} />
      <Typography variant="h5" component="h1" sx={{ fontWeight: 800, mt: 2 }}>
        {NOT_FOUND}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1, mb: 3 }}>
        Forse è stata rimossa, oppure il collegamento non è corretto.
      </Typography>
      <Button component={RouterLink} to="/" variant="outlined">
        Torna alla home
      </Button>
    </Box>
  );
}

/** /image/:id: the picture, its reactions and details, then related pictures (SPEC §2). */
export default function ImagePage() {
  const id = parseRouteId(useParams().id);
  const viewer = useSession();
  const viewerId = viewer?.id_utente ?? null;
  const image = useImage(id ?? 0, viewerId, id !== null);
  const { mutate: recordView } = useRecordView();
  const [message, setMessage] = useState<string | null>(null);
  const [told, setTold] = useState(false);
  const tell = (text: string) => {
    setTold(true);
    setMessage(text);
  };
  const close = () => {
    setMessage(null);
  };
  const snackbar = useChunk(errorSnackbar, message !== null);

  const missing =
    id === null ||
    (image.isError &&
      image.error instanceof ApiError &&
      (image.error.status === 404 || image.error.status === 400));

  usePageTitle(missing ? NOT_FOUND : image.data === undefined ? undefined : imageTitle(image.data));

  // SPEC §4: one view per load of the image; the server ignores repeats within its window.
  // A picture not yet public, seen by its uploader or an administrator, counts none (D4).
  const countedId = image.data?.status === 'approved' ? image.data.id_image : undefined;
  useEffect(() => {
    if (countedId !== undefined) recordView({ imageId: countedId, viewerId });
    // Once per picture shown, not again when the same reader logs in or out.
  }, [countedId, recordView]);

  if (missing) return <NotFound />;
  if (image.isPending) return <Loading />;
  if (image.isError) {
    return (
      <ErrorMessage
        message={errorMessage(image.error, "Errore nel caricamento dell'immagine")}
        onRetry={retryOf(image.error, image.refetch)}
      />
    );
  }

  // Wide screens: the picture stays in view on the left while the details and the related
  // pictures scroll on the right. Narrow screens stack them: picture, details, related.
  return (
    <Box sx={{ maxWidth: 1600, mx: 'auto' }}>
      <Box
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'minmax(0, 1fr) 420px' },
          gap: { xs: 2, md: 3 },
          alignItems: 'start',
        }}
      >
        <Box sx={{ position: { lg: 'sticky' }, top: { lg: 88 } }}>
          <LargeImage key={image.data.id_image} image={image.data} />
        </Box>
        <Box sx={{ minWidth: 0 }}>
          {/* Beside the picture on wide screens, below it on narrow ones: drawn just after
              it, in a commit of their own (components/Later.tsx). */}
          <Later>
            <ImageDetails image={image.data} onError={tell} />
            <RelatedImages key={image.data.id_image} id={image.data.id_image} />
          </Later>
        </Box>
      </Box>
      {/* Mounted from the first message on, so that it still fades out when it goes. */}
      {told && snackbar.module !== undefined && (
        <snackbar.module.default message={message} onClose={close} />
      )}
      {/* Its chunk did not come (the network that failed the call, most likely): the message
          is told all the same, where the snackbar would be, rather than not at all. */}
      {snackbar.failed && message !== null && (
        <ErrorMessage
          message={message}
          onClose={close}
          sx={{
            position: 'fixed',
            insetInline: 16,
            bottom: 24,
            maxWidth: 600,
            mx: 'auto',
            zIndex: 'snackbar',
          }}
        />
      )}
    </Box>
  );
}
