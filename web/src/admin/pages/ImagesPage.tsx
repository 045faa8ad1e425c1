import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import SearchIcon from '@mui/icons-material/Search';
import { Alert, Box, Button, Chip, InputAdornment, Stack, TextField } from '@mui/material';
import {
  GridActionsCell,
  GridActionsCellItem,
  type GridColDef,
  type GridRowSelectionModel,
} from '@mui/x-data-grid';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState, type ComponentProps, type SubmitEvent } from 'react';
import { categoryDisplayName, compareItalian, formatCount } from '../../lib/format.js';
import {
  AdminGrid,
  dateColumn,
  EMPTY_SELECTION,
  selectedIds,
  selectionOf,
} from '../components/AdminGrid.js';
import { AdminPage } from '../components/AdminPage.js';
import { BatchAction } from '../components/BatchAction.js';
import { ConfirmDialog } from '../components/ConfirmDialog.js';
import { useNotice } from '../components/Notice.js';
import { StatusChip } from '../components/StatusChip.js';
import { refreshAfterImageChange, useAdminImages } from '../features/images/adminImages.js';
import { deleteAdminImage, useDeleteImage } from '../features/images/deleteImage.js';
import { ImageEditDialog } from '../features/images/ImageEditDialog.js';
import { useUpdateImage } from '../features/images/updateImage.js';
import { adminErrorMessage } from '../shape.js';
import { statusLook } from '../status.js';
import type { AdminImage } from '../types.js';

const LOAD_ERROR = 'Errore nel caricamento delle immagini';
const SEARCH_ERROR = 'Errore nella ricerca delle immagini';
const DELETE_ERROR = "Errore durante l'eliminazione dell'immagine";
/** The server reads at most 200 characters of a search. */
const SEARCH_MAX_LENGTH = 200;

const idOf = (row: AdminImage) => row.id_image;
const titleOf = (row: AdminImage) => row.titolo_img ?? 'Immagine senza titolo';

const THUMB = 48;

/**
 * A real link for the 'Visualizza' action, so it can also be middle-clicked or copied: the grid's
 * action items take no href of their own, so it travels as a data attribute. The new tab gets
 * no handle on this one (noopener).
 */
function NewTabAnchor({
  'data-href': href,
  ...props
}: ComponentProps<'a'> & { 'data-href'?: string }) {
  return <a {...props} href={href} target="_blank" rel="noopener noreferrer" />;
}

function dataColumns(): GridColDef<AdminImage>[] {
  return [
    {
      field: 'thumbnail_url',
      headerName: 'Anteprima',
      width: 90,
      sortable: false,
      filterable: false,
      disableExport: true,
      renderCell: ({ row }) => (
        <Box sx={{ display: 'flex', alignItems: 'center', height: 1 }}>
          <Box
            component="img"
            src={row.thumbnail_url}
            alt={titleOf(row)}
            loading="lazy"
            width={THUMB}
            height={THUMB}
            sx={{ objectFit: 'cover', borderRadius: 1, bgcolor: 'action.hover', display: 'block' }}
          />
        </Box>
      ),
    },
    { field: 'id_image', headerName: 'ID', type: 'number', width: 80 },
    { field: 'filename', headerName: 'File', width: 200 },
    {
      field: 'titolo_img',
      headerName: 'Titolo',
      flex: 1,
      minWidth: 200,
      valueGetter: (value: string | null) => value ?? '',
    },
    {
      field: 'categoria_nome',
      headerName: 'Categoria',
      width: 160,
      valueGetter: (value: string) => categoryDisplayName(value),
      sortComparator: compareItalian,
    },
    { field: 'username', headerName: 'Utente', width: 140 },
    {
      field: 'status',
      headerName: 'Stato',
      width: 120,
      // Sorting and filtering go by the words on screen.
      valueGetter: (value: string) => statusLook(value).label,
      renderCell: ({ row }) => <StatusChip status={row.status} />,
    },
    {
      field: 'likes',
      headerName: 'Mi piace',
      type: 'number',
      width: 95,
      valueGetter: (_value: never, row) => row.stats.likes,
    },
    {
      field: 'downloads',
      headerName: 'Download',
      type: 'number',
      width: 100,
      valueGetter: (_value: never, row) => row.stats.downloads,
    },
    {
      field: 'favorites',
      headerName: 'Preferiti',
      type: 'number',
      width: 95,
      valueGetter: (_value: never, row) => row.stats.favorites,
    },
    {
      field: 'total_interactions',
      headerName: 'Interazioni',
      type: 'number',
      width: 110,
      valueGetter: (_value: never, row) => row.stats.total_interactions,
    },
    {
      field: 'tags',
      headerName: 'Tag',
      width: 240,
      sortable: false,
      valueGetter: (value: string[]) => value.join(', '),
      renderCell: ({ row }) => (
        <Box
          title={row.tags.join(', ')}
          sx={{ display: 'flex', alignItems: 'center', gap: 0.5, height: 1, overflow: 'hidden' }}
        >
          {row.tags.map((tag) => (
            <Chip key={tag} label={tag} size="small" />
          ))}
        </Box>
      ),
    },
    dateColumn<AdminImage>('created_at', 'Caricata il'),
  ];
}

/** SPEC §2 'Gestione Immagini': every image of every status, searched on the server. */
export default function ImagesPage() {
  const queryClient = useQueryClient();
  const notice = useNotice();
  const [draft, setDraft] = useState('');
  const [search, setSearch] = useState('');
  const images = useAdminImages(search);
  const update = useUpdateImage();
  const remove = useDeleteImage();
  const [editing, setEditing] = useState<AdminImage | null>(null);
  const [deleting, setDeleting] = useState<AdminImage | null>(null);
  const [deleteBusy, setDeleteBusy] = useState(false);
  const [selection, setSelection] = useState<GridRowSelectionModel>(EMPTY_SELECTION);

  const rows = useMemo(() => images.data?.rows ?? [], [images.data]);
  const cappedAt = images.data?.cappedAt ?? null;
  // Only rows on screen can be deleted: a selection made before a new search must not reach
  // images the administrator can no longer see.
  const chosen = useMemo(() => {
    const visible = new Set(rows.map(idOf));
    return selectedIds(selection, rows, idOf).filter((id) => visible.has(id));
  }, [selection, rows]);

  const columns = useMemo<GridColDef<AdminImage>[]>(
    () => [
      ...dataColumns(),
      {
        field: 'actions',
        type: 'actions',
        headerName: 'Azioni',
        width: 140,
        renderCell: (params) => (
          <GridActionsCell {...params}>
            <GridActionsCellItem
              icon={<OpenInNewIcon />}
              label="Visualizza"
              component={NewTabAnchor}
              // D11: the public page of the image (visible to administrators whatever its status).
              data-href={`/image/${params.row.id_image}`}
            />
            <GridActionsCellItem
              icon={<EditIcon />}
              label="Modifica"
              onClick={() => setEditing(params.row)}
            />
            <GridActionsCellItem
              icon={<DeleteIcon />}
              label="Elimina"
              onClick={() => setDeleting(params.row)}
            />
          </GridActionsCell>
        ),
      },
    ],
    [],
  );

  const submitSearch = (event: SubmitEvent) => {
    event.preventDefault();
    setSearch(draft.trim());
    setSelection(EMPTY_SELECTION);
  };

  const confirmDelete = async (image: AdminImage) => {
    setDeleteBusy(true);
    try {
      await remove.mutateAsync(image.id_image);
      notice.show('Immagine eliminata');
    } catch (failure) {
      notice.show(adminErrorMessage(failure, DELETE_ERROR), 'error');
    } finally {
      setDeleteBusy(false);
      setDeleting(null);
    }
  };

  // The plain list failing replaces the page; a failed search keeps the box to try again.
  const failed = images.isError && images.data === undefined;
  const pageError = failed && search === '' ? adminErrorMessage(images.error, LOAD_ERROR) : null;

  return (
    <AdminPage
      title="Gestione Immagini"
      loading={images.isPending}
      error={pageError}
      notice={notice.element}
    >
      <Stack
        direction={{ xs: 'column', md: 'row' }}
        spacing={2}
        sx={{ mb: 2, justifyContent: 'space-between', alignItems: { md: 'center' } }}
      >
        <Box
          component="form"
          role="search"
          onSubmit={submitSearch}
          sx={{ display: 'flex', gap: 1, width: { xs: '100%', md: 480 } }}
        >
          <TextField
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            placeholder="Cerca immagini..."
            size="small"
            fullWidth
            slotProps={{
              htmlInput: {
                'aria-label': 'Cerca immagini...',
                type: 'search',
                maxLength: SEARCH_MAX_LENGTH,
              },
              input: {
                startAdornment: (
                  <InputAdornment position="start">
                    <SearchIcon fontSize="small" />
                  </InputAdornment>
                ),
              },
            }}
          />
          <Button type="submit" variant="contained" color="secondary">
            Cerca
          </Button>
        </Box>
        <BatchAction
          ids={chosen}
          label="Elimina selezionate"
          icon={<DeleteIcon />}
          confirmTitle="Conferma eliminazione"
          confirmMessage={
            chosen.length === 1
              ? "Sei sicuro di voler eliminare l'immagine selezionata?"
              : `Sei sicuro di voler eliminare le ${chosen.length} immagini selezionate?`
          }
          confirmLabel="Elimina"
          doneLabel="Eliminate"
          failureMessage={DELETE_ERROR}
          action={deleteAdminImage}
          onDone={(message, result) => {
            setSelection(selectionOf(result.failed));
            void refreshAfterImageChange(queryClient);
            notice.show(message, result.failed.length === 0 ? 'success' : 'warning');
          }}
        />
      </Stack>
      {images.isError ? (
        <Alert severity={failed ? 'error' : 'warning'} sx={{ mb: 2 }}>
          {adminErrorMessage(images.error, search === '' ? LOAD_ERROR : SEARCH_ERROR)}
        </Alert>
      ) : null}
      {cappedAt === null ? null : (
        <Alert severity="info" sx={{ mb: 2 }}>
          {search === ''
            ? `Sono elencate solo le ${formatCount(cappedAt)} immagini più recenti: cerca per titolo, file, utente, categoria o tag per trovare le altre.`
            : `Sono elencate solo le ${formatCount(cappedAt)} immagini più recenti che corrispondono alla ricerca: restringila per trovare le altre.`}
        </Alert>
      )}
      <AdminGrid
        rows={rows}
        columns={columns}
        getRowId={idOf}
        label="Immagini"
        loading={images.isFetching}
        selection={selection}
        onSelectionChange={setSelection}
        rowHeight={64}
        emptyText="Nessuna immagine trovata"
      />
      {editing === null ? null : (
        <ImageEditDialog
          image={editing}
          onSave={async (input) => {
            await update.mutateAsync({ id: editing.id_image, input });
            notice.show('Immagine aggiornata');
          }}
          onClose={() => setEditing(null)}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        // SPEC's prompt, then which picture it means: the row's title and author.
        message={
          deleting === null
            ? ''
            : `Sei sicuro di voler eliminare questa immagine? «${titleOf(deleting)}», di ${deleting.username}.`
        }
        busy={deleteBusy}
        onConfirm={() => {
          if (deleting !== null) void confirmDelete(deleting);
        }}
        onCancel={() => setDeleting(null)}
      />
    </AdminPage>
  );
}
