import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import CancelIcon from '@mui/icons-material/Cancel';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import RefreshIcon from '@mui/icons-material/Refresh';
import RemoveDoneIcon from '@mui/icons-material/RemoveDone';
import SearchIcon from '@mui/icons-material/Search';
import VisibilityIcon from '@mui/icons-material/Visibility';
import {
  Alert,
  Box,
  Button,
  IconButton,
  InputAdornment,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import type { GridColDef } from '@mui/x-data-grid';
import { useIsMutating, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { countPhrase, formatCount, formatSize } from '../../lib/format.js';
import { runSummarisedBatch } from '../batch.js';
import {
  AdminGrid,
  dateColumn,
  EMPTY_SELECTION,
  selectedIds,
  selectionOf,
} from '../components/AdminGrid.js';
import { AdminPage, PageSpinner } from '../components/AdminPage.js';
import { ConfirmDialog } from '../components/ConfirmDialog.js';
import { useNotice } from '../components/Notice.js';
import { approveImage, useApproveImage } from '../features/pending/approveImage.js';
import { pendingKeys, refreshAfterDecision } from '../features/pending/keys.js';
import { pendingLoadErrorMessage } from '../features/pending/loadError.js';
import { prefetchHints } from '../features/pending/hints.js';
import { usePendingImages } from '../features/pending/pendingImages.js';
import { PendingDetailDialog, UNTITLED } from '../features/pending/PendingDetailDialog.js';
import { RejectDialog } from '../features/pending/RejectDialog.js';
import { rejectImage, useRejectImage } from '../features/pending/rejectImage.js';
import { categoryName, filterPending, uploaderName } from '../features/pending/search.js';
import { StatusChip } from '../components/StatusChip.js';
import type { Classification } from '../features/pending/classification.js';
import { adminErrorMessage } from '../shape.js';
import type { PendingImage } from '../types.js';

const APPROVE_ERROR = "Errore nell'approvazione dell'immagine";
const REJECT_ERROR = "Errore nel rifiuto dell'immagine";

/** Who the reject dialog is for: one image (from its row or its detail) or the selected rows. */
type RejectTarget = { kind: 'one'; image: PendingImage } | { kind: 'many'; images: PendingImage[] };

/**
 * 'Immagini in Attesa di Approvazione' (SPEC §2, §4, issue 6): the review queue with search,
 * detail, approval, rejection with a reason, and the same two decisions on selected rows.
 */
export default function PendingImagesPage() {
  const pending = usePendingImages();
  const queryClient = useQueryClient();
  const approve = useApproveImage();
  const reject = useRejectImage();
  const notice = useNotice();
  const [search, setSearch] = useState('');
  const [selection, setSelection] = useState(EMPTY_SELECTION);
  const [detailId, setDetailId] = useState<number | null>(null);
  const [rejectTarget, setRejectTarget] = useState<RejectTarget | null>(null);
  const [bulkApproveOpen, setBulkApproveOpen] = useState(false);
  const [batchRunning, setBatchRunning] = useState(false);
  // SPEC §4: while one decision runs, no other can start (from this page or its dialogs).
  const busy = useIsMutating({ mutationKey: pendingKeys.decision }) > 0 || batchRunning;

  const images = useMemo(() => pending.data?.images ?? [], [pending.data]);
  const shown = useMemo(() => filterPending(images, search), [images, search]);
  const detail = images.find((image) => image.id_image === detailId) ?? null;
  const selected = useMemo(() => {
    const ids = new Set(selectedIds(selection, shown, (image) => image.id_image));
    return shown.filter((image) => ids.has(image.id_image));
  }, [selection, shown]);

  const approveOne = (image: PendingImage, classification: Classification | null = null) => {
    approve.mutate(
      { filename: image.filename, classification },
      {
        onSuccess: () => {
          setDetailId(null);
          notice.show('Immagine approvata con successo');
        },
        onError: (error) => notice.show(adminErrorMessage(error, APPROVE_ERROR), 'error'),
      },
    );
  };

  const rejectOne = (image: PendingImage, reason: string) => {
    reject.mutate(
      { filename: image.filename, reason },
      {
        onSuccess: () => {
          setRejectTarget(null);
          setDetailId(null);
          notice.show('Immagine rifiutata con successo');
        },
        onError: (error) => notice.show(adminErrorMessage(error, REJECT_ERROR), 'error'),
      },
    );
  };

  /** One decision per selected image, one after another; then one reload and a summary. */
  const runBulk = async (
    targets: readonly PendingImage[],
    decide: (image: PendingImage) => Promise<unknown>,
    doneLabel: string,
    failureMessage: string,
  ) => {
    setBatchRunning(true);
    const byId = new Map(targets.map((image) => [image.id_image, image]));
    let batch;
    try {
      batch = await runSummarisedBatch(
        [...byId.keys()],
        // Every id is a key of byId: the lookup cannot miss.
        (id) => decide(byId.get(id) as PendingImage),
        doneLabel,
        failureMessage,
      );
    } finally {
      setBatchRunning(false);
    }
    setBulkApproveOpen(false);
    setRejectTarget(null);
    setSelection(selectionOf(batch.result.failed));
    notice.show(batch.summary, batch.result.failed.length === 0 ? 'success' : 'warning');
    await refreshAfterDecision(queryClient);
  };

  const columns = useMemo<GridColDef<PendingImage>[]>(
    () => [
      {
        field: 'thumbnail_url',
        headerName: 'Anteprima',
        width: 104,
        sortable: false,
        filterable: false,
        renderCell: ({ row }) => (
          <Box
            component="img"
            src={row.thumbnail_url}
            alt={row.title ?? UNTITLED}
            loading="lazy"
            sx={{
              width: 80,
              height: 60,
              mt: '6px',
              objectFit: 'cover',
              borderRadius: 1,
              display: 'block',
              bgcolor: 'background.default',
            }}
          />
        ),
      },
      {
        field: 'title',
        headerName: 'Titolo',
        flex: 1.5,
        minWidth: 160,
        valueGetter: (_value, row) => row.title ?? UNTITLED,
      },
      {
        field: 'uploader',
        headerName: 'Caricata da',
        flex: 1,
        minWidth: 120,
        valueGetter: (_value, row) => uploaderName(row),
      },
      {
        field: 'category',
        headerName: 'Categoria',
        flex: 1,
        minWidth: 110,
        valueGetter: (_value, row) => categoryName(row),
      },
      {
        field: 'status',
        headerName: 'Stato',
        width: 110,
        renderCell: ({ row }) => <StatusChip status={row.status} />,
      },
      {
        field: 'size',
        headerName: 'Dimensione',
        type: 'number',
        width: 110,
        valueGetter: (_value, row) => row.file_info.size_bytes,
        valueFormatter: (value: number) => formatSize(value),
      },
      dateColumn<PendingImage>('created_at', 'Caricata il'),
      {
        field: 'actions',
        headerName: 'Azioni',
        // Three icon buttons; with the other columns at their narrowest the whole row fits
        // beside the side navigation on a 1440 px screen, actions included.
        width: 140,
        sortable: false,
        filterable: false,
        disableExport: true,
        renderCell: ({ row }) => (
          <Box sx={{ display: 'flex', alignItems: 'center', height: '100%' }}>
            <IconButton
              aria-label="Visualizza"
              onClick={() => setDetailId(row.id_image)}
              onPointerEnter={() => prefetchHints(queryClient, row.id_image)}
              onFocus={() => prefetchHints(queryClient, row.id_image)}
            >
              <VisibilityIcon />
            </IconButton>
            <IconButton
              aria-label="Approva"
              color="success"
              disabled={busy}
              onClick={() => approveOne(row)}
            >
              <CheckCircleIcon />
            </IconButton>
            <IconButton
              aria-label="Rifiuta"
              color="error"
              disabled={busy}
              onClick={() => setRejectTarget({ kind: 'one', image: row })}
            >
              <CancelIcon />
            </IconButton>
          </Box>
        ),
      },
    ],
    // Columns stay the same object unless `busy` changes, so the grid does not rebuild them on
    // every keystroke; approveOne only reaches stable setters and the mutation's stable mutate.
    [busy],
  );

  const refresh = (
    <Button
      variant="outlined"
      startIcon={<RefreshIcon />}
      onClick={() => void pending.refetch()}
      disabled={pending.isFetching}
    >
      Aggiorna
    </Button>
  );
  const retry =
    pending.retryMessage === null ? null : (
      <Alert severity="warning" sx={{ mb: 2 }}>
        {pending.retryMessage}
      </Alert>
    );

  let body;
  if (pending.data === undefined) {
    body = (
      <>
        {retry}
        <PageSpinner />
      </>
    );
  } else {
    body = (
      <>
        {retry}
        <Stack
          direction={{ xs: 'column', md: 'row' }}
          spacing={2}
          sx={{ mb: 2, alignItems: { md: 'center' }, justifyContent: 'space-between' }}
        >
          <TextField
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            placeholder="Cerca per titolo, utente, categoria o tag..."
            size="small"
            sx={{ width: { xs: '100%', md: 440 } }}
            slotProps={{
              htmlInput: { 'aria-label': 'Cerca immagini in attesa' },
              input: {
                startAdornment: (
                  <InputAdornment position="start">
                    <SearchIcon />
                  </InputAdornment>
                ),
              },
            }}
          />
          <Typography color="text.secondary" role="status">
            {`${formatCount(shown.length)} di ${formatCount(pending.data.total)} immagini in attesa di approvazione`}
          </Typography>
        </Stack>
        <Stack direction="row" sx={{ mb: 2, flexWrap: 'wrap', gap: 1 }}>
          <Button
            variant="outlined"
            color="success"
            startIcon={<DoneAllIcon />}
            disabled={selected.length === 0 || busy}
            onClick={() => setBulkApproveOpen(true)}
          >
            {selected.length === 0
              ? 'Approva selezionate'
              : `Approva selezionate (${selected.length})`}
          </Button>
          <Button
            variant="outlined"
            color="error"
            startIcon={<RemoveDoneIcon />}
            disabled={selected.length === 0 || busy}
            onClick={() => setRejectTarget({ kind: 'many', images: selected })}
          >
            {selected.length === 0
              ? 'Rifiuta selezionate'
              : `Rifiuta selezionate (${selected.length})`}
          </Button>
        </Stack>
        <AdminGrid
          rows={shown}
          columns={columns}
          getRowId={(image) => image.id_image}
          label="Immagini in attesa di approvazione"
          loading={pending.isFetching}
          selection={selection}
          onSelectionChange={setSelection}
          rowHeight={72}
          emptyText={
            pending.data.total === 0
              ? 'Non ci sono immagini in attesa di approvazione'
              : 'Nessuna immagine corrisponde alla ricerca'
          }
        />
      </>
    );
  }

  return (
    <AdminPage
      notice={notice.element}
      title="Immagini in Attesa di Approvazione"
      actions={refresh}
      error={pending.error === null ? null : pendingLoadErrorMessage(pending.error)}
    >
      {body}
      <PendingDetailDialog
        image={detail}
        busy={busy}
        onClose={() => setDetailId(null)}
        onApprove={approveOne}
        onReject={(image) => setRejectTarget({ kind: 'one', image })}
      />
      <RejectDialog
        open={rejectTarget !== null}
        count={
          rejectTarget === null || rejectTarget.kind === 'one' ? 1 : rejectTarget.images.length
        }
        busy={busy}
        onCancel={() => setRejectTarget(null)}
        onConfirm={(reason) => {
          if (rejectTarget === null) return;
          if (rejectTarget.kind === 'one') rejectOne(rejectTarget.image, reason);
          else
            void runBulk(
              rejectTarget.images,
              (image) => rejectImage({ filename: image.filename, reason }),
              'Rifiutate',
              REJECT_ERROR,
            );
        }}
      />
      <ConfirmDialog
        open={bulkApproveOpen}
        title="Conferma approvazione"
        message={`Sei sicuro di voler approvare ${countPhrase(selected.length, 'immagine selezionata', 'immagini selezionate')}? Diventeranno pubbliche.`}
        confirmLabel="Approva"
        confirmColor="success"
        busy={busy}
        onCancel={() => setBulkApproveOpen(false)}
        onConfirm={() =>
          void runBulk(
            selected,
            (image) => approveImage(image.filename),
            'Approvate',
            APPROVE_ERROR,
          )
        }
      />
    </AdminPage>
  );
}
