import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Divider,
  FormControlLabel,
  InputAdornment,
  Paper,
  Stack,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import { useId, useState, type SubmitEvent } from 'react';
import { AdminPage } from '../components/AdminPage.js';
import { useNotice } from '../components/Notice.js';
import { useSettings } from '../features/settings/settings.js';
import { draftChanges, draftOf, type SettingsDraft } from '../features/settings/settingsForm.js';
import { useUpdateSettings } from '../features/settings/updateSettings.js';
import { adminErrorMessage } from '../shape.js';
import type { ServerSettings } from '../types.js';

function SwitchSetting({
  label,
  explanation,
  checked,
  disabled,
  onChange,
}: {
  label: string;
  explanation: string;
  checked: boolean;
  disabled: boolean;
  onChange: (checked: boolean) => void;
}) {
  const explanationId = useId();
  return (
    <Box>
      <FormControlLabel
        label={label}
        disabled={disabled}
        control={
          <Switch
            checked={checked}
            color="secondary"
            onChange={(_event, value) => onChange(value)}
            slotProps={{ input: { 'aria-describedby': explanationId } }}
          />
        }
        sx={{ '& .MuiFormControlLabel-label': { fontWeight: 600 } }}
      />
      <Typography id={explanationId} variant="body2" color="text.secondary" sx={{ pl: 6.5 }}>
        {explanation}
      </Typography>
    </Box>
  );
}

/** The form over the settings in force; remounted whenever the server's settings change. */
function SettingsForm({
  saved,
  onSaved,
}: {
  saved: ServerSettings;
  onSaved: (message: string) => void;
}) {
  const update = useUpdateSettings();
  const [draft, setDraft] = useState<SettingsDraft>(() => draftOf(saved));
  const limitHelpId = useId();
  const pending = draftChanges(saved, draft);
  const changed = pending.valid && Object.keys(pending.changes).length > 0;
  const busy = update.isPending;

  const edit = (changes: Partial<SettingsDraft>) => {
    // A refusal is about the values it was given; once they change it no longer applies.
    update.reset();
    setDraft((current) => ({ ...current, ...changes }));
  };

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    if (!pending.valid || !changed || busy) return;
    update.mutate(pending.changes, { onSuccess: () => onSaved('Impostazioni salvate') });
  };

  return (
    <Paper
      component="form"
      noValidate
      onSubmit={submit}
      variant="outlined"
      sx={{ p: { xs: 2, sm: 3 }, maxWidth: 720 }}
    >
      <Stack spacing={3} divider={<Divider flexItem />}>
        <SwitchSetting
          label="Registrazioni aperte"
          explanation="Quando sono chiuse nessuno può creare un account dalla pagina di registrazione; gli amministratori possono comunque aggiungere utenti."
          checked={draft.registrations_open}
          disabled={busy}
          onChange={(value) => edit({ registrations_open: value })}
        />
        <SwitchSetting
          label="Email di moderazione"
          explanation="Quando è attiva, chi ha caricato un'immagine riceve un'email quando viene approvata o rifiutata."
          checked={draft.moderation_emails}
          disabled={busy}
          onChange={(value) => edit({ moderation_emails: value })}
        />
        <Box>
          <TextField
            label="Dimensione massima dei file"
            value={draft.uploadMegabytes}
            onChange={(event) => edit({ uploadMegabytes: event.target.value })}
            disabled={busy}
            error={!pending.valid}
            helperText={!pending.valid ? 'Inserisci un numero, ad esempio 2,5.' : undefined}
            sx={{ width: { xs: '100%', sm: 280 } }}
            slotProps={{
              htmlInput: { inputMode: 'decimal', 'aria-describedby': limitHelpId },
              input: { endAdornment: <InputAdornment position="end">MB</InputAdornment> },
            }}
          />
          <Typography id={limitHelpId} variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            Le immagini più grandi di questo limite vengono rifiutate al caricamento; il valore va
            da 0,1 a 5 MB.
          </Typography>
        </Box>
        <Stack spacing={2}>
          {update.isError ? (
            <Alert severity="error">
              {adminErrorMessage(update.error, 'Errore nel salvataggio delle impostazioni')}
            </Alert>
          ) : null}
          <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
            <Button
              disabled={busy || (pending.valid && !changed)}
              onClick={() => {
                update.reset();
                setDraft(draftOf(saved));
              }}
            >
              Annulla modifiche
            </Button>
            <Button
              type="submit"
              variant="contained"
              color="secondary"
              disabled={busy || !changed}
              startIcon={busy ? <CircularProgress size={16} color="inherit" /> : undefined}
            >
              Salva
            </Button>
          </Stack>
        </Stack>
      </Stack>
    </Paper>
  );
}

/** /admin/settings (D7): the settings the server stores and enforces. */
export default function SettingsPage() {
  const settings = useSettings();
  const notice = useNotice();
  return (
    <AdminPage
      notice={notice.element}
      title="Impostazioni"
      loading={settings.isPending}
      error={
        // Only a failed first load: a failed reload after saving keeps the saved answer.
        settings.isLoadingError
          ? adminErrorMessage(settings.error, 'Errore nel caricamento delle impostazioni')
          : null
      }
    >
      {settings.data === undefined ? null : (
        <SettingsForm
          // A new state from the server (after saving) starts the form afresh from it.
          key={JSON.stringify(settings.data)}
          saved={settings.data}
          onSaved={(message) => notice.show(message)}
        />
      )}
    </AdminPage>
  );
}
