import DeleteSweepIcon from '@mui/icons-material/DeleteSweep';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import { Button, Typography } from '@mui/material';
import type { GridRowSelectionModel } from '@mui/x-data-grid';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { BatchResult } from '../batch.js';
import { AdminGrid, EMPTY_SELECTION, selectedIds, selectionOf } from '../components/AdminGrid.js';
import { AdminPage } from '../components/AdminPage.js';
import { BatchAction } from '../components/BatchAction.js';
import { ConfirmDialog } from '../components/ConfirmDialog.js';
import { useNotice } from '../components/Notice.js';
import { deleteUser, useDeleteUser } from '../features/users/deleteUser.js';
import { invalidateAfterUserChange } from '../features/users/keys.js';
import { userColumns } from '../features/users/userColumns.js';
import { UserDialog } from '../features/users/UserDialog.js';
import { noticeFromState } from '../features/users/userForm.js';
import { useUsers } from '../features/users/users.js';
import { getUser } from '../../lib/session.js';
import { adminErrorMessage } from '../shape.js';
import type { AdminUser } from '../types.js';
import { formatCount } from '../../lib/format.js';

const LOAD_ERROR = 'Errore nel caricamento degli utenti';
const DELETE_ERROR = "Errore durante l'eliminazione dell'utente";
const DELETE_PROMPT = 'Sei sicuro di voler eliminare questo utente?';
// D9: an administrator's deletion erases at once; say so before it happens.
const ERASURE_NOTE = 'Anche le sue immagini e interazioni saranno eliminate definitivamente.';

/** 'Gestione Utenti' (SPEC §2 'Admin users', D7). */
export default function UsersPage() {
  const users = useUsers();
  const rows = useMemo(() => users.data?.users ?? [], [users.data]);
  const notice = useNotice();
  const queryClient = useQueryClient();
  const location = useLocation();
  const navigate = useNavigate();
  /** undefined: the dialog is closed; null: a new user; a row: that user. */
  const [editing, setEditing] = useState<AdminUser | null | undefined>(undefined);
  // Kept after closing, so the dialog does not change its title while it fades out.
  const [deleting, setDeleting] = useState<AdminUser | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [selection, setSelection] = useState<GridRowSelectionModel>(EMPTY_SELECTION);
  const remove = useDeleteUser();
  const { show } = notice;

  // The form page comes back here with what it saved; show it once, then forget it.
  useEffect(() => {
    const message = noticeFromState(location.state);
    if (message === null) return;
    show(message);
    void navigate('.', { replace: true, state: null });
  }, [location.state, navigate, show]);

  const columns = useMemo(
    () =>
      userColumns({
        selfId: getUser()?.id_utente,
        onEdit: setEditing,
        onDelete: (user) => {
          setDeleting(user);
          setConfirming(true);
        },
      }),
    [],
  );
  const ids = selectedIds(selection, rows, (row) => row.id_utente);

  const confirmDelete = (user: AdminUser) => {
    remove.mutate(user.id_utente, {
      onSuccess: () => {
        notice.show(`Utente ${user.username} eliminato`);
      },
      onError: (error) => {
        notice.show(adminErrorMessage(error, DELETE_ERROR), 'error');
      },
      onSettled: () => {
        setConfirming(false);
      },
    });
  };

  // The summary says why the refused ones were refused (yourself, the last administrator).
  const batchDone = (summary: string, result: BatchResult) => {
    const severity =
      result.failed.length === 0 ? 'success' : result.succeeded.length === 0 ? 'error' : 'warning';
    notice.show(summary, severity);
    setSelection(selectionOf(result.failed));
    void invalidateAfterUserChange(queryClient, 'delete');
  };

  return (
    <AdminPage
      notice={notice.element}
      title="Gestione Utenti"
      loading={users.isPending}
      error={users.isError ? adminErrorMessage(users.error, LOAD_ERROR) : null}
      actions={
        <>
          <BatchAction
            ids={ids}
            label="Elimina selezionati"
            icon={<DeleteSweepIcon />}
            confirmTitle="Conferma eliminazione"
            confirmMessage={
              ids.length === 1
                ? `${DELETE_PROMPT} ${ERASURE_NOTE}`
                : `Sei sicuro di voler eliminare ${ids.length} utenti? Anche le loro immagini e interazioni saranno eliminate definitivamente.`
            }
            confirmLabel="Elimina"
            doneLabel="Eliminati"
            failureMessage={DELETE_ERROR}
            action={deleteUser}
            onDone={batchDone}
          />
          <Button
            variant="contained"
            color="secondary"
            startIcon={<PersonAddIcon />}
            onClick={() => {
              setEditing(null);
            }}
          >
            Aggiungi Utente
          </Button>
        </>
      }
    >
      <Typography sx={{ mb: 2 }} color="text.secondary">
        {`Totale utenti: ${formatCount(users.data?.total ?? 0)}`}
      </Typography>
      <AdminGrid
        rows={rows}
        columns={columns}
        getRowId={(row) => row.id_utente}
        label="Utenti"
        loading={users.isFetching}
        selection={selection}
        onSelectionChange={setSelection}
      />
      {editing !== undefined && (
        <UserDialog
          user={editing}
          onClose={() => {
            setEditing(undefined);
          }}
          onSaved={(message) => {
            setEditing(undefined);
            notice.show(message);
          }}
        />
      )}
      <ConfirmDialog
        open={confirming}
        title={deleting === null ? undefined : `Elimina ${deleting.username}`}
        message={`${DELETE_PROMPT} ${ERASURE_NOTE}`}
        busy={remove.isPending}
        onConfirm={() => {
          if (deleting !== null) confirmDelete(deleting);
        }}
        onCancel={() => {
          setConfirming(false);
        }}
      />
    </AdminPage>
  );
}
