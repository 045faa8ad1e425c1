import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import SearchIcon from '@mui/icons-material/Search';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  InputAdornment,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import {
  GridActionsCell,
  GridActionsCellItem,
  type GridColDef,
  type GridRowSelectionModel,
} from '@mui/x-data-grid';
import type { UseQueryResult } from '@tanstack/react-query';
import { useMemo, useState, type SubmitEvent, type ReactNode } from 'react';
import { adminErrorMessage } from '../shape.js';
import type { TaxonomyInput } from '../features/taxonomy/saveName.js';
import { AdminGrid, dateColumn, EMPTY_SELECTION, selectedIds, selectionOf } from './AdminGrid.js';
import { AdminPage } from './AdminPage.js';
import { BatchAction } from './BatchAction.js';
import { ConfirmDialog } from './ConfirmDialog.js';
import { useNotice } from './Notice.js';

/** What categories and tags have in common on the admin API (one server implementation). */
export interface TaxonomyItem {
  nome: string;
  image_count: number;
  created_at: string;
  /** Sent back with a rename: the server refuses one over a later rename (409). */
  revision: number;
}

/** Every text of one taxonomy screen, as SPEC §2 and §8 write them. */
export interface TaxonomyTexts {
  title: string;
  /** The grid's accessible name. */
  gridLabel: string;
  addLabel: string;
  newTitle: string;
  editTitle: string;
  fieldLabel: string;
  empty: string;
  deletePrompt: string;
  /**
   * The one item a row's delete asks about, named, and what becomes of its images: the prompt
   * alone ('questa categoria') left the administrator to trust the row they had clicked.
   */
  deleteDetail: (item: TaxonomyItem) => string;
  loadError: string;
  saveError: string;
  deleteError: string;
  created: string;
  renamed: string;
  deleted: string;
  createdAtLabel: string;
  /** The bulk action: its button, its one confirmation and the past participle of its summary. */
  batchLabel: string;
  batchPrompt: (count: number) => string;
  batchDone: string;
}

interface TaxonomyManagerProps<Row extends TaxonomyItem> {
  texts: TaxonomyTexts;
  list: UseQueryResult<Row[]>;
  getId: (row: Row) => number;
  idField: keyof Row & string;
  /** The name as the screen shows it (display name and raw name, a chip...). */
  nameColumns: GridColDef<Row>[];
  rowHeight?: number;
  /** Create or rename; resolves once the list has reloaded. */
  save: (input: TaxonomyInput) => Promise<unknown>;
  /** Delete one; resolves once the list has reloaded. */
  remove: (id: number) => Promise<unknown>;
  /** The plain delete call for the bulk action, and the reload it ends with. */
  removeOne: (id: number) => Promise<unknown>;
  refresh: () => Promise<unknown>;
  /** Save stays disabled while the name is blank; otherwise the server decides. */
  requireName?: boolean;
  /** A client-side filter over the loaded list (SPEC §2 'Cerca tag...'). */
  filter?: {
    placeholder: string;
    apply: (rows: readonly Row[], needle: string) => readonly Row[];
    /** The grid's text when the list has entries but none matches ('Crea…' would mislead). */
    noMatch: string;
  };
  /** Shown between the title and the grid, from the whole loaded list. */
  summary?: (rows: readonly Row[]) => ReactNode;
  /** A line under the name field when editing (e.g. how many images use a tag). */
  editNote?: (row: Row) => string;
  /** False for an entry the server never deletes: its 'Elimina' is offered disabled. */
  canDelete?: (row: Row) => boolean;
}

type Editing<Row> = { mode: 'new' } | { mode: 'edit'; row: Row };

interface NameDialogProps {
  title: string;
  fieldLabel: string;
  initialName: string;
  note?: string | undefined;
  requireName: boolean;
  saveError: string;
  onSave: (nome: string) => Promise<unknown>;
  onClose: () => void;
}

/** The one-field dialog for a new or renamed entry; a refused name keeps it open with the reason. */
function NameDialog({
  title,
  fieldLabel,
  initialName,
  note,
  requireName,
  saveError,
  onSave,
  onClose,
}: NameDialogProps) {
  const [nome, setNome] = useState(initialName);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const blocked = busy || (requireName && nome.trim() === '');
  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      await onSave(nome);
      onClose();
    } catch (failure) {
      setError(adminErrorMessage(failure, saveError));
      setBusy(false);
    }
  };
  return (
    <Dialog
      open
      onClose={busy ? undefined : onClose}
      fullWidth
      maxWidth="xs"
      aria-labelledby="taxonomy-dialog-title"
      slotProps={{
        paper: {
          component: 'form',
          onSubmit: (event: SubmitEvent) => {
            event.preventDefault();
            if (!blocked) void submit();
          },
        },
      }}
    >
      <DialogTitle id="taxonomy-dialog-title">{title}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            label={fieldLabel}
            value={nome}
            onChange={(event) => setNome(event.target.value)}
            autoFocus
            fullWidth
            disabled={busy}
          />
          {note === undefined ? null : <Typography color="text.secondary">{note}</Typography>}
          {error === null ? null : <Alert severity="error">{error}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Annulla
        </Button>
        <Button type="submit" variant="contained" color="secondary" disabled={blocked}>
          Salva
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * 'Gestione Categorie' and 'Gestione Tag' (SPEC §2): the same screen over the same server
 * implementation, told apart by their texts, their name column and a few options.
 */
export function TaxonomyManager<Row extends TaxonomyItem>({
  texts,
  list,
  getId,
  idField,
  nameColumns,
  rowHeight,
  save,
  remove,
  removeOne,
  refresh,
  requireName = false,
  filter,
  summary,
  editNote,
  canDelete,
}: TaxonomyManagerProps<Row>) {
  const notice = useNotice();
  const [editing, setEditing] = useState<Editing<Row> | null>(null);
  const [deleting, setDeleting] = useState<Row | null>(null);
  const [deleteBusy, setDeleteBusy] = useState(false);
  const [needle, setNeedle] = useState('');
  const [selection, setSelection] = useState<GridRowSelectionModel>(EMPTY_SELECTION);

  const all = useMemo(() => list.data ?? [], [list.data]);
  const rows = useMemo(
    () => (filter === undefined ? all : filter.apply(all, needle)),
    [all, filter, needle],
  );
  // Only rows on screen can be acted on: a selection made before filtering must not reach
  // entries the administrator can no longer see.
  const chosen = useMemo(() => {
    const visible = new Set(rows.map(getId));
    return selectedIds(selection, rows, getId).filter((id) => visible.has(id));
  }, [selection, rows, getId]);

  const columns = useMemo<GridColDef<Row>[]>(
    () => [
      { field: idField, headerName: 'ID', type: 'number', width: 90 },
      ...nameColumns,
      { field: 'image_count', headerName: 'Immagini', type: 'number', width: 110 },
      dateColumn<Row>('created_at', texts.createdAtLabel),
      {
        field: 'actions',
        type: 'actions',
        headerName: 'Azioni',
        width: 110,
        renderCell: (params) => (
          <GridActionsCell {...params}>
            <GridActionsCellItem
              icon={<EditIcon />}
              label="Modifica"
              onClick={() => setEditing({ mode: 'edit', row: params.row })}
            />
            <GridActionsCellItem
              icon={<DeleteIcon />}
              label="Elimina"
              disabled={canDelete !== undefined && !canDelete(params.row)}
              onClick={() => setDeleting(params.row)}
            />
          </GridActionsCell>
        ),
      },
    ],
    [idField, nameColumns, texts.createdAtLabel, canDelete],
  );

  const confirmDelete = async (row: Row) => {
    setDeleteBusy(true);
    try {
      await remove(getId(row));
      notice.show(texts.deleted);
    } catch (failure) {
      notice.show(adminErrorMessage(failure, texts.deleteError), 'error');
    } finally {
      setDeleteBusy(false);
      setDeleting(null);
    }
  };

  const loadError =
    list.isError && list.data === undefined ? adminErrorMessage(list.error, texts.loadError) : null;

  return (
    <AdminPage
      notice={notice.element}
      title={texts.title}
      loading={list.isPending}
      error={loadError}
      actions={
        <Button
          variant="contained"
          color="secondary"
          startIcon={<AddIcon />}
          onClick={() => setEditing({ mode: 'new' })}
        >
          {texts.addLabel}
        </Button>
      }
    >
      {summary?.(all)}
      {list.isError ? (
        // The list failed to reload after a change: the rows below are the last ones known.
        <Alert severity="warning" sx={{ mb: 2 }}>
          {adminErrorMessage(list.error, texts.loadError)}
        </Alert>
      ) : null}
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ mb: 2, justifyContent: 'space-between', alignItems: { sm: 'center' } }}
      >
        {filter === undefined ? (
          <Box />
        ) : (
          <TextField
            value={needle}
            onChange={(event) => setNeedle(event.target.value)}
            placeholder={filter.placeholder}
            size="small"
            sx={{ width: { xs: '100%', sm: 360 } }}
            slotProps={{
              htmlInput: { 'aria-label': filter.placeholder, type: 'search', maxLength: 100 },
              input: {
                startAdornment: (
                  <InputAdornment position="start">
                    <SearchIcon fontSize="small" />
                  </InputAdornment>
                ),
              },
            }}
          />
        )}
        <BatchAction
          ids={chosen}
          label={texts.batchLabel}
          icon={<DeleteIcon />}
          confirmTitle="Conferma eliminazione"
          confirmMessage={texts.batchPrompt(chosen.length)}
          confirmLabel="Elimina"
          doneLabel={texts.batchDone}
          failureMessage={texts.deleteError}
          action={removeOne}
          onDone={(message, result) => {
            setSelection(selectionOf(result.failed));
            void refresh();
            notice.show(message, result.failed.length === 0 ? 'success' : 'warning');
          }}
        />
      </Stack>
      <AdminGrid
        rows={rows}
        columns={columns}
        getRowId={getId}
        label={texts.gridLabel}
        loading={list.isFetching}
        selection={selection}
        onSelectionChange={setSelection}
        emptyText={all.length === 0 || filter === undefined ? texts.empty : filter.noMatch}
        {...(rowHeight === undefined ? {} : { rowHeight })}
        // The one bulk action is deletion: a row that cannot be deleted is not offered to it.
        {...(canDelete === undefined ? {} : { isRowSelectable: canDelete })}
      />
      {editing === null ? null : (
        <NameDialog
          title={editing.mode === 'new' ? texts.newTitle : texts.editTitle}
          fieldLabel={texts.fieldLabel}
          initialName={editing.mode === 'new' ? '' : editing.row.nome}
          note={
            editing.mode === 'edit' && editNote !== undefined ? editNote(editing.row) : undefined
          }
          requireName={requireName}
          saveError={texts.saveError}
          onSave={async (nome) => {
            await save(
              editing.mode === 'new'
                ? { id: null, nome }
                : // The row the dialog opened with: a rename saved by someone else since is a 409.
                  { id: getId(editing.row), nome, revision: editing.row.revision },
            );
            notice.show(editing.mode === 'new' ? texts.created : texts.renamed);
          }}
          onClose={() => setEditing(null)}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        message={
          deleting === null
            ? texts.deletePrompt
            : `${texts.deletePrompt} ${texts.deleteDetail(deleting)}`
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
