import { Alert, Snackbar } from '@mui/material';

export interface Notice {
  text: string;
  error: boolean;
}

/** The profile's notices (data exported, profile saved, errors): see pages/ProfilePage.tsx. */
export default function ProfileNotice({
  notice,
  onClose,
}: {
  notice: Notice | null;
  onClose: () => void;
}) {
  return (
    <Snackbar
      open={notice !== null}
      autoHideDuration={6000}
      onClose={(_event, reason) => {
        if (reason !== 'clickaway') onClose();
      }}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
    >
      <Alert
        severity={notice?.error === true ? 'error' : 'success'}
        variant="filled"
        closeText="Chiudi"
        onClose={onClose}
        sx={{ width: '100%' }}
      >
        {notice?.text}
      </Alert>
    </Snackbar>
  );
}
