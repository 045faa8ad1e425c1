import DeleteForeverIcon from '@mui/icons-material/DeleteForever';
import DownloadIcon from '@mui/icons-material/Download';
import EditIcon from '@mui/icons-material/Edit';
import LogoutIcon from '@mui/icons-material/Logout';
import { Divider, ListItemIcon, ListItemText, Menu, MenuItem } from '@mui/material';

interface OwnMenuListProps {
  anchor: HTMLElement | null;
  onClose: () => void;
  onEdit: () => void;
  onExport: () => void;
  onDelete: () => void;
  onLogout: () => void;
  exporting: boolean;
}

/**
 * The own-profile menu's items (SPEC §2, D9), in a chunk of their own that loads when the
 * menu is first wanted (pages/ProfilePage.tsx): MUI's Menu brings Popover, Modal and the list
 * components, which a visitor of a profile never sees (goal 8: first-load JavaScript).
 */
export default function OwnMenuList({
  anchor,
  onClose,
  onEdit,
  onExport,
  onDelete,
  onLogout,
  exporting,
}: OwnMenuListProps) {
  return (
    <Menu
      id="profile-options"
      anchorEl={anchor}
      open={anchor !== null}
      onClose={onClose}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      slotProps={{ paper: { sx: { minWidth: 230 } } }}
    >
      <MenuItem onClick={onEdit}>
        <ListItemIcon>
          <EditIcon fontSize="small" />
        </ListItemIcon>
        <ListItemText>Modifica profilo</ListItemText>
      </MenuItem>
      <MenuItem onClick={onExport} disabled={exporting}>
        <ListItemIcon>
          <DownloadIcon fontSize="small" />
        </ListItemIcon>
        <ListItemText>Scarica i miei dati</ListItemText>
      </MenuItem>
      <MenuItem onClick={onDelete} sx={{ color: 'error.light' }}>
        <ListItemIcon sx={{ color: 'inherit' }}>
          <DeleteForeverIcon fontSize="small" />
        </ListItemIcon>
        <ListItemText>Elimina account</ListItemText>
      </MenuItem>
      <Divider />
      <MenuItem onClick={onLogout}>
        <ListItemIcon>
          <LogoutIcon fontSize="small" />
        </ListItemIcon>
        <ListItemText>Esci</ListItemText>
      </MenuItem>
    </Menu>
  );
}
