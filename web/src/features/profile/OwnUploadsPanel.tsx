import AddPhotoAlternateIcon from '@mui/icons-material/AddPhotoAlternate';
import { Box, Button, Chip, Stack, Typography, type ChipProps } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { EmptyMessage, ErrorMessage, Loading } from '../../components/StatusMessage.js';
import { countPhrase, formatLongDate } from '../../lib/format.js';
import { imageAltText, imageTitle } from '../../lib/imageText.js';
import { useOwnUploads, type OwnImage } from './useOwnUploads.js';

const STATUS: Record<string, { label: string; color: ChipProps['color'] }> = {
  pending: { label: 'In attesa', color: 'warning' },
  approved: { label: 'Approvata', color: 'success' },
  rejected: { label: 'Rifiutata', color: 'error' },
};

function UploadCard({ image }: { image: OwnImage }) {
  const status = STATUS[image.status] ?? STATUS['pending'];
  const title = imageTitle(image);
  const alt = imageAltText(image);
  return (
    <Box
      component="article"
      sx={{
        borderRadius: 2,
        overflow: 'hidden',
        bgcolor: 'background.paper',
        border: 1,
        borderColor: 'divider',
        display: 'flex',
        flexDirection: 'column',
      }}
    >
      {/* The uploader may open every own picture, whatever its status (D4). */}
      <Box
        component={RouterLink}
        to={`/image/${image.id_image}`}
        aria-label={alt}
        sx={{
          position: 'relative',
          display: 'block',
          aspectRatio: '4 / 3',
          overflow: 'hidden',
          bgcolor: 'action.hover',
          '&:focus-visible': { outline: '2px solid', outlineColor: 'secondary.main' },
        }}
      >
        <Box
          component="img"
          src={image.thumbnail_url}
          alt={alt}
          width={image.width}
          height={image.height}
          loading="lazy"
          decoding="async"
          sx={{
            position: 'absolute',
            inset: 0,
            width: '100%',
            height: '100%',
            objectFit: 'cover',
            display: 'block',
            filter: image.status === 'rejected' ? 'grayscale(0.7) brightness(0.7)' : undefined,
          }}
        />
        <Chip
          label={status?.label}
          color={status?.color}
          size="small"
          sx={{ position: 'absolute', top: 8, left: 8, fontWeight: 700, boxShadow: 2 }}
        />
      </Box>
      <Stack spacing={0.5} sx={{ p: 1.5 }}>
        <Typography variant="subtitle2" noWrap title={title}>
          {title}
        </Typography>
        <Typography variant="caption" color="text.secondary">
          Caricata il {formatLongDate(image.created_at)}
        </Typography>
        {image.status === 'rejected' && (
          <Typography variant="body2" color="error.light" sx={{ pt: 0.5 }}>
            Motivo del rifiuto: {image.rejection_reason ?? 'Nessun motivo specificato'}
          </Typography>
        )}
      </Stack>
    </Box>
  );
}

/** The 'Carica' tab (SPEC §2, D13): every own upload with its moderation status. */
export function OwnUploadsPanel({ viewerId }: { viewerId: number }) {
  const uploads = useOwnUploads(viewerId);
  const images = uploads.data?.pages.flatMap((page) => page.images) ?? [];
  const total = uploads.data?.pages[0]?.total ?? 0;
  const pending = uploads.data?.pages[0]?.pending ?? 0;

  return (
    <Stack spacing={3}>
      <Box
        sx={{
          display: 'flex',
          flexDirection: { xs: 'column', sm: 'row' },
          alignItems: { xs: 'stretch', sm: 'center' },
          gap: 2,
          p: { xs: 2, sm: 2.5 },
          borderRadius: 2,
          bgcolor: 'background.paper',
        }}
      >
        <Box sx={{ flex: 1 }}>
          <Typography variant="subtitle1" sx={{ fontWeight: 700 }}>
            Le tue immagini caricate
          </Typography>
          <Typography variant="body2" color="text.secondary">
            Ogni immagine viene controllata da un amministratore prima della pubblicazione, di
            solito entro 24-48 ore. Ti avviseremo via e-mail dell&apos;esito.
          </Typography>
        </Box>
        <Button
          component={RouterLink}
          to="/create"
          variant="contained"
          color="secondary"
          startIcon={<AddPhotoAlternateIcon />}
          sx={{ flexShrink: 0 }}
        >
          Carica una nuova immagine
        </Button>
      </Box>

      {uploads.isPending ? (
        <Loading />
      ) : uploads.isError ? (
        <ErrorMessage message="Si è verificato un errore nel caricamento delle immagini. Riprova più tardi." />
      ) : images.length === 0 ? (
        <EmptyMessage message="Non hai ancora caricato immagini" />
      ) : (
        <>
          <Typography variant="body2" color="text.secondary">
            {countPhrase(total, 'immagine caricata', 'immagini caricate')}
            {pending > 0 && ` · ${pending} in attesa di approvazione`}
          </Typography>
          <Box
            sx={{
              display: 'grid',
              gridTemplateColumns: {
                xs: 'repeat(2, minmax(0, 1fr))',
                sm: 'repeat(3, minmax(0, 1fr))',
                lg: 'repeat(4, minmax(0, 1fr))',
              },
              gap: { xs: 1.5, sm: 2 },
            }}
          >
            {images.map((image) => (
              <UploadCard key={image.id_image} image={image} />
            ))}
          </Box>
          {uploads.hasNextPage && (
            <Box sx={{ display: 'flex', justifyContent: 'center' }}>
              <Button
                variant="outlined"
                color="inherit"
                loading={uploads.isFetchingNextPage}
                onClick={() => void uploads.fetchNextPage()}
              >
                Mostra altre
              </Button>
            </Box>
          )}
        </>
      )}
    </Stack>
  );
}
