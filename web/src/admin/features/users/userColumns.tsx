import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import { Chip } from '@mui/material';
import { GridActionsCell, GridActionsCellItem, type GridColDef } from '@mui/x-data-grid';
import { dateColumn } from '../../components/AdminGrid.js';
import type { AdminUser } from '../../types.js';

interface UserActions {
  onEdit: (user: AdminUser) => void;
  onDelete: (user: AdminUser) => void;
  /** The administrator looking: D7 lets nobody delete themself from this list. */
  selfId: number | undefined;
}

const count = (
  field: keyof AdminUser,
  headerName: string,
  width: number,
): GridColDef<AdminUser> => ({
  field,
  headerName,
  type: 'number',
  width,
});

/** What the 'Stato' column says of an account. */
export const accountState = (active: boolean) => (active ? 'Attivo' : 'Disattivato');

/** The columns of 'Gestione Utenti' (SPEC §2), plus the account state an administrator needs. */
export function userColumns({ onEdit, onDelete, selfId }: UserActions): GridColDef<AdminUser>[] {
  return [
    { field: 'id_utente', headerName: 'ID', type: 'number', width: 80 },
    { field: 'username', headerName: 'Username', minWidth: 150, flex: 1 },
    { field: 'email', headerName: 'Email', minWidth: 220, flex: 1.4 },
    {
      field: 'role',
      headerName: 'Ruolo',
      width: 110,
      type: 'singleSelect',
      valueOptions: [
        { value: 'admin', label: 'Admin' },
        { value: 'user', label: 'Utente' },
      ],
      renderCell: ({ row }) =>
        row.role === 'admin' ? (
          <Chip label="Admin" color="secondary" size="small" />
        ) : (
          <Chip label="Utente" variant="outlined" size="small" />
        ),
    },
    {
      // Not a SPEC column, but a deactivated account must be visible without opening it.
      field: 'is_active',
      headerName: 'Stato',
      width: 130,
      type: 'boolean',
      // The words of the chip, for the CSV export too: the boolean column's own formatter
      // wrote the grid's 'vero' and 'falso', which the grid shows nowhere.
      valueFormatter: (value: unknown) => accountState(value === true),
      renderCell: ({ row }) =>
        row.is_active ? (
          <Chip label={accountState(true)} color="success" variant="outlined" size="small" />
        ) : (
          <Chip label={accountState(false)} color="warning" size="small" />
        ),
    },
    count('images_uploaded', 'Immagini caricate', 150),
    count('total_interactions', 'Interazioni', 120),
    count('received_likes', 'Like ricevuti', 130),
    count('total_score', 'Punteggio totale', 150),
    dateColumn<AdminUser>('created_at', 'Creato il'),
    {
      field: 'actions',
      headerName: 'Azioni',
      type: 'actions',
      width: 110,
      renderCell: (params) => (
        <GridActionsCell {...params}>
          <GridActionsCellItem
            icon={<EditIcon />}
            label="Modifica"
            onClick={() => {
              onEdit(params.row);
            }}
          />
          <GridActionsCellItem
            icon={<DeleteIcon />}
            label="Elimina"
            disabled={params.row.id_utente === selfId}
            onClick={() => {
              onDelete(params.row);
            }}
          />
        </GridActionsCell>
      ),
    },
  ];
}
