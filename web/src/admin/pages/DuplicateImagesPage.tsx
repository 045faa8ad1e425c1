import DeleteIcon from '@mui/icons-material/Delete';
import DeleteSweepIcon from '@mui/icons-material/DeleteSweep';
import DownloadIcon from '@mui/icons-material/Download';
import FavoriteIcon from '@mui/icons-material/Favorite';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import RefreshIcon from '@mui/icons-material/Refresh';
import SdStorageIcon from '@mui/icons-material/SdStorage';
import UnpublishedIcon from '@mui/icons-material/Unpublished';
import {
  Alert,
  Box,
  Button,
  Card,
  CardActions,
  CardContent,
  CardMedia,
  Chip,
  CircularProgress,
  IconButton,
  Paper,
  Stack,
  Typography,
} from '@mui/material';
import { useIsMutating } from '@tanstack/react-query';
import { useState } from 'react';
import { AdminPage } from '../components/AdminPage.js';
import { ConfirmDialog } from '../components/ConfirmDialog.js';
import { useNotice } from '../components/Notice.js';
import { StatusChip } from '../components/StatusChip.js';
import { useDeleteDuplicate } from '../features/duplicates/deleteDuplicate.js';
import { useDeleteGroup } from '../features/duplicates/deleteGroup.js';
import { useDismissGroup } from '../features/duplicates/dismissGroup.js';
import { useDuplicateGroups } from '../features/duplicates/duplicateGroups.js';
import {
  ANALYSIS_IN_PROGRESS,
  cardDate,
  groupHeading,
  groupText,
  imagesLeftToAnalyse,
  sizeInKb,
} from '../features/duplicates/groups.js';
import { duplicateKeys } from '../features/duplicates/keys.js';
import { adminErrorMessage } from '../shape.js';
import type { DuplicateGroup, DuplicateImage } from '../types.js';
import { formatCount } from '../../lib/format.js';

const UNTITLED = 'Senza titolo';

/** What the open confirmation is about. */
type Pending =
  | { kind: 'image'; image: DuplicateImage }
  | { kind: 'group'; group: DuplicateGroup }
  | { kind: 'dismiss'; group: DuplicateGroup };

/**
 * 'Gestione Immagini Duplicate' (SPEC §2, §4, D7): the groups the analysis found, each image
 * with its figures; delete one, delete a whole group, or say the group is no duplicate.
 */
export default function DuplicateImagesPage() {
  const groups = useDuplicateGroups();
  const deleteImage = useDeleteDuplicate();
  const deleteGroup = useDeleteGroup();
  const dismiss = useDismissGroup();
  const busy = useIsMutating({ mutationKey: duplicateKeys.change }) > 0;
  const notice = useNotice();
  const [confirm, setConfirm] = useState<Pending | null>(null);

  const run = () => {
    if (confirm === null) return;
    const done = (message: string) => {
      setConfirm(null);
      notice.show(message);
    };
    const failed = (message: string) => (error: Error) => {
      setConfirm(null);
      notice.show(adminErrorMessage(error, message), 'error');
    };
    if (confirm.kind === 'image') {
      deleteImage.mutate(confirm.image.id_image, {
        onSuccess: () => done('Immagine eliminata con successo'),
        onError: failed("Errore durante l'eliminazione dell'immagine"),
      });
    } else if (confirm.kind === 'group') {
      deleteGroup.mutate(confirm.group, {
        onSuccess: () => done('Gruppo di immagini eliminato con successo'),
        onError: failed("Errore durante l'eliminazione del gruppo di immagini"),
      });
    } else {
      dismiss.mutate(confirm.group, {
        onSuccess: () => done('Gruppo segnato come non duplicato'),
        onError: failed('Errore nel segnare il gruppo come non duplicato'),
      });
    }
  };

  const refresh = (
    <Button
      variant="outlined"
      startIcon={<RefreshIcon />}
      onClick={() => void groups.refetch()}
      disabled={groups.isFetching}
    >
      Aggiorna
    </Button>
  );

  return (
    <AdminPage
      notice={notice.element}
      title="Gestione Immagini Duplicate"
      actions={refresh}
      loading={groups.isPending}
      error={
        groups.error === null
          ? null
          : adminErrorMessage(groups.error, 'Errore nel caricamento delle immagini duplicate')
      }
    >
      {groups.data === undefined ? null : groups.data.groups.length === 0 &&
        groups.data.imagesToAnalyse > 0 ? (
        // No group yet, and photos still unread: '0 gruppi' would be a claim nobody can make.
        <AnalysisRunning imagesToAnalyse={groups.data.imagesToAnalyse} />
      ) : (
        <>
          <Typography sx={{ mb: 3 }} color="text.secondary" role="status">
            {`Totale gruppi di immagini duplicate: ${formatCount(groups.data.groups.length)}`}
          </Typography>
          {groups.data.imagesToAnalyse > 0 && (
            <Alert severity="info" role="status" sx={{ mb: 3 }}>
              {`${ANALYSIS_IN_PROGRESS}: ${imagesLeftToAnalyse(groups.data.imagesToAnalyse)}, altri gruppi potrebbero aggiungersi.`}
            </Alert>
          )}
          {groups.data.groups.length === 0 ? (
            <Paper sx={{ p: 4, textAlign: 'center' }}>
              <Typography color="text.secondary">
                Nessun gruppo di immagini duplicate trovato
              </Typography>
            </Paper>
          ) : (
            <Stack spacing={3}>
              {groups.data.groups.map((group, index) => (
                <GroupSection
                  key={group.images.map((image) => image.id_image).join('-')}
                  position={index + 1}
                  group={group}
                  busy={busy}
                  onDeleteImage={(image) => setConfirm({ kind: 'image', image })}
                  onDeleteGroup={() => setConfirm({ kind: 'group', group })}
                  onDismiss={() => setConfirm({ kind: 'dismiss', group })}
                />
              ))}
            </Stack>
          )}
        </>
      )}
      <ConfirmDialog
        open={confirm !== null}
        busy={busy}
        onCancel={() => setConfirm(null)}
        onConfirm={run}
        {...confirmTexts(confirm)}
      />
    </AdminPage>
  );
}

/** In place of the groups while the first ones are still being looked for. */
function AnalysisRunning({ imagesToAnalyse }: { imagesToAnalyse: number }) {
  const left = imagesLeftToAnalyse(imagesToAnalyse);
  return (
    <Paper sx={{ p: 4, textAlign: 'center' }}>
      <CircularProgress color="secondary" size={32} aria-hidden />
      <Typography variant="h6" component="p" role="status" sx={{ mt: 2 }}>
        {ANALYSIS_IN_PROGRESS}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1 }}>
        {`${left.charAt(0).toLocaleUpperCase('it-IT')}${left.slice(1)}: i gruppi di immagini duplicate compariranno qui man mano.`}
      </Typography>
    </Paper>
  );
}

function confirmTexts(confirm: Pending | null) {
  if (confirm?.kind === 'group') {
    return {
      title: 'Conferma eliminazione gruppo',
      message: `Sei sicuro di voler eliminare tutte le ${confirm.group.images.length} immagini di questo gruppo? L'operazione non può essere annullata.`,
      confirmLabel: 'Elimina gruppo',
    };
  }
  if (confirm?.kind === 'dismiss') {
    return {
      title: 'Non sono duplicati',
      message:
        'Queste immagini non verranno più mostrate come duplicati, a meno che una nuova immagine si aggiunga al gruppo. Confermi?',
      confirmLabel: 'Conferma',
      confirmColor: 'secondary' as const,
    };
  }
  return {
    title: 'Conferma eliminazione',
    message:
      "Sei sicuro di voler eliminare questa immagine? L'operazione non può essere annullata.",
    confirmLabel: 'Elimina',
  };
}

interface GroupSectionProps {
  position: number;
  group: DuplicateGroup;
  busy: boolean;
  onDeleteImage: (image: DuplicateImage) => void;
  onDeleteGroup: () => void;
  onDismiss: () => void;
}

function GroupSection({
  position,
  group,
  busy,
  onDeleteImage,
  onDeleteGroup,
  onDismiss,
}: GroupSectionProps) {
  const headingId = `duplicate-group-${position}`;
  return (
    <Paper component="section" aria-labelledby={headingId} sx={{ p: { xs: 2, md: 3 } }}>
      <Stack
        direction={{ xs: 'column', md: 'row' }}
        spacing={2}
        sx={{ mb: 2, justifyContent: 'space-between', alignItems: { md: 'flex-start' } }}
      >
        <Box sx={{ minWidth: 0 }}>
          <Typography id={headingId} variant="h6" component="h2">
            {groupHeading(position, group)}
          </Typography>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 1, flexWrap: 'wrap' }}>
            <Typography variant="body2" color="text.secondary">
              Testo estratto:
            </Typography>
            <Chip
              size="small"
              label={group.kind === 'visual' ? 'Aspetto' : 'Testo'}
              color={group.kind === 'visual' ? 'info' : 'secondary'}
              variant="outlined"
              title={
                group.kind === 'visual'
                  ? 'Raggruppate perché si somigliano nell’aspetto'
                  : 'Raggruppate per il testo letto sul muro'
              }
            />
          </Box>
          <Typography sx={{ mt: 0.5, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {groupText(group)}
          </Typography>
        </Box>
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, flexShrink: 0 }}>
          <Button
            variant="outlined"
            color="secondary"
            startIcon={<UnpublishedIcon />}
            disabled={busy}
            onClick={onDismiss}
          >
            Non sono duplicati
          </Button>
          <Button
            variant="outlined"
            color="error"
            startIcon={<DeleteSweepIcon />}
            disabled={busy}
            onClick={onDeleteGroup}
          >
            Elimina gruppo
          </Button>
        </Stack>
      </Stack>
      <Box
        sx={{
          display: 'grid',
          gridTemplateColumns: {
            xs: 'repeat(auto-fill, minmax(150px, 1fr))',
            sm: 'repeat(auto-fill, minmax(220px, 1fr))',
          },
          gap: 2,
        }}
      >
        {group.images.map((image) => (
          <ImageCard
            key={image.id_image}
            image={image}
            busy={busy}
            onDelete={() => onDeleteImage(image)}
          />
        ))}
      </Box>
    </Paper>
  );
}

function ImageCard({
  image,
  busy,
  onDelete,
}: {
  image: DuplicateImage;
  busy: boolean;
  onDelete: () => void;
}) {
  const title = image.titolo_img ?? UNTITLED;
  // Approved images have their public page; a pending one only its (signed) file.
  const viewUrl = image.status === 'approved' ? `/image/${image.id_image}` : image.image_url;
  return (
    <Card variant="outlined" sx={{ display: 'flex', flexDirection: 'column' }}>
      <CardMedia
        component="img"
        image={image.thumbnail_url}
        alt={title}
        loading="lazy"
        sx={{ height: { xs: 120, sm: 160 }, objectFit: 'cover', bgcolor: 'background.default' }}
      />
      <CardContent sx={{ flex: 1, p: 1.5, '&:last-child': { pb: 1.5 } }}>
        {/* Wrapped, not cut: two cards side by side on a phone leave little room. */}
        <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{title}</Typography>
        <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          {`Caricata da: ${image.user.username}`}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {cardDate(image)}
        </Typography>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, mt: 1 }}>
          {image.status === 'approved' ? null : <StatusChip status={image.status} />}
          <Chip
            size="small"
            icon={<FavoriteIcon />}
            label={image.stats.likes}
            aria-label={`${image.stats.likes} mi piace`}
          />
          <Chip
            size="small"
            icon={<DownloadIcon />}
            label={image.stats.downloads}
            aria-label={`${image.stats.downloads} download`}
          />
          <Chip size="small" icon={<SdStorageIcon />} label={sizeInKb(image.size)} />
        </Box>
      </CardContent>
      <CardActions sx={{ justifyContent: 'flex-end', pt: 0 }}>
        <IconButton
          aria-label="Visualizza"
          href={viewUrl}
          target="_blank"
          rel="noopener"
          size="small"
        >
          <OpenInNewIcon fontSize="small" />
        </IconButton>
        <IconButton
          aria-label="Elimina"
          color="error"
          size="small"
          disabled={busy}
          onClick={onDelete}
        >
          <DeleteIcon fontSize="small" />
        </IconButton>
      </CardActions>
    </Card>
  );
}
