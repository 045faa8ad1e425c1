import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlineOutlined';
import CloudUploadOutlinedIcon from '@mui/icons-material/CloudUploadOutlined';
import GavelOutlinedIcon from '@mui/icons-material/GavelOutlined';
import HourglassEmptyOutlinedIcon from '@mui/icons-material/HourglassEmptyOutlined';
import MailOutlineIcon from '@mui/icons-material/MailOutlineOutlined';
import NoPhotographyOutlinedIcon from '@mui/icons-material/NoPhotographyOutlined';
import VerifiedUserOutlinedIcon from '@mui/icons-material/VerifiedUserOutlined';
import {
  Alert,
  Box,
  Button,
  LinearProgress,
  Link,
  List,
  ListItem,
  ListItemIcon,
  ListItemText,
  Paper,
  Stack,
  Typography,
} from '@mui/material';
import { useEffect, useRef, useState, type ChangeEvent, type DragEvent } from 'react';
import { Link as RouterLink } from 'react-router';
import { PRIVACY_POLICY_PATH } from '../app/privacyPolicy.js';
import { usePageTitle } from '../components/usePageTitle.js';
import { useSession } from '../features/auth/useSession.js';
import { UPLOAD_ACCEPT, UPLOAD_TYPES, useUploadImage } from '../features/uploads/uploadImage.js';
import {
  tooLargeMessage,
  useUploadLimits,
  type UploadLimits,
} from '../features/uploads/uploadLimits.js';
import { ApiError, errorMessage } from '../lib/api.js';
import { formatSize } from '../lib/format.js';

const RULES = [
  {
    icon: <GavelOutlinedIcon />,
    text: 'Le immagini devono essere appropriate e rispettare le linee guida della community.',
  },
  {
    icon: <NoPhotographyOutlinedIcon />,
    text: 'Fotografa solo la scritta: nessuna persona e nessun volto.',
  },
  {
    icon: <VerifiedUserOutlinedIcon />,
    text: 'Gli amministratori esaminano ogni immagine prima della pubblicazione.',
  },
  {
    icon: <HourglassEmptyOutlinedIcon />,
    text: "L'approvazione richiede dalle 24 alle 48 ore.",
  },
  {
    icon: <MailOutlineIcon />,
    text: "Riceverai un'e-mail quando la tua immagine sarà approvata o rifiutata.",
  },
];

/** SPEC §5: type and size are checked here too, so nobody waits for an upload bound to fail. */
function checkFile(file: File, limits: UploadLimits): string | null {
  // Some systems give no type for a file; its extension then decides, and the server reads
  // the bytes anyway.
  const known =
    file.type === ''
      ? /\.(jpe?g|png|webp)$/i.test(file.name)
      : (UPLOAD_TYPES as readonly string[]).includes(file.type);
  if (!known) {
    return 'Formato file non supportato. Usa JPG, PNG o WEBP.';
  }
  if (file.size > limits.upload_max_bytes) return tooLargeMessage(limits);
  return null;
}

function failureMessage(error: unknown): string {
  if (error instanceof ApiError && error.status === 0) {
    return 'Si è verificato un errore durante il caricamento. Riprova più tardi.';
  }
  return errorMessage(error, 'Errore durante il caricamento');
}

/** A local preview of the chosen file; its object URL is released when it changes. */
function usePreview(file: File | null): string | undefined {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (file === null) {
      setUrl(undefined);
      return;
    }
    const created = URL.createObjectURL(file);
    setUrl(created);
    return () => {
      URL.revokeObjectURL(created);
    };
  }, [file]);
  return url;
}

function Rules({ limit }: { limit: string }) {
  return (
    <Paper
      component="aside"
      aria-labelledby="upload-rules"
      elevation={0}
      sx={{ p: { xs: 2.5, sm: 3 }, borderRadius: 3, border: 1, borderColor: 'divider' }}
    >
      <Typography id="upload-rules" variant="h6" component="h2" sx={{ fontWeight: 700 }}>
        Prima di caricare
      </Typography>
      <List dense disablePadding sx={{ mt: 1 }}>
        {RULES.map((rule) => (
          <ListItem key={rule.text} disableGutters sx={{ alignItems: 'flex-start' }}>
            <ListItemIcon sx={{ minWidth: 36, mt: 0.75, color: 'secondary.main' }}>
              {rule.icon}
            </ListItemIcon>
            <ListItemText primary={rule.text} slotProps={{ primary: { variant: 'body2' } }} />
          </ListItem>
        ))}
      </List>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5 }}>
        Formati accettati: JPG, PNG o WEBP, fino a {limit}. Come trattiamo i tuoi dati e le tue
        foto:{' '}
        <Link component={RouterLink} to={PRIVACY_POLICY_PATH} color="secondary">
          informativa sulla privacy
        </Link>
        .
      </Typography>
    </Paper>
  );
}

/** /create (SPEC §2): choosing a file sends it at once; it then waits for review (D4). */
export default function UploadPage() {
  usePageTitle('Carica una nuova immagine');
  const user = useSession();
  const upload = useUploadImage();
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const preview = usePreview(file);
  const limits = useUploadLimits();

  const send = (chosen: File) => {
    const invalid = checkFile(chosen, limits);
    if (invalid !== null) {
      upload.reset();
      setFile(null);
      setProblem(invalid);
      return;
    }
    setProblem(null);
    setFile(chosen);
    hadFocus.current = document.activeElement === chooseButton.current;
    upload.mutate(chosen, {
      onError: (error) => {
        setProblem(failureMessage(error));
      },
    });
  };

  const picker = useRef<HTMLInputElement>(null);
  const chooseButton = useRef<HTMLButtonElement>(null);
  const done = useRef<HTMLParagraphElement>(null);
  // The button that opened the picker goes while the file is sent: the focus fell to the body,
  // and a keyboard started again from the top of the page. It goes on to the outcome instead:
  // the success (read out, 'Vai al tuo profilo' one Tab away), or the button again after a
  // failure.
  const { status } = upload;
  const hadFocus = useRef(false);
  useEffect(() => {
    if (status === 'pending' || !hadFocus.current) return;
    if (status === 'success') {
      hadFocus.current = false;
      done.current?.focus();
    } else if (status === 'error') {
      hadFocus.current = false;
      chooseButton.current?.focus();
    }
  }, [status]);
  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    // Cleared so that choosing the same file again still counts as a choice.
    event.target.value = '';
    if (chosen !== undefined) send(chosen);
  };

  const drop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const chosen = event.dataTransfer.files[0];
    if (chosen !== undefined && !upload.isPending) send(chosen);
  };

  const again = () => {
    upload.reset();
    setFile(null);
    setProblem(null);
  };

  if (user === null) {
    return (
      <Box sx={{ maxWidth: 640, mx: 'auto', py: 4 }}>
        <Alert
          severity="warning"
          action={
            <Button component={RouterLink} to="/login" state={{ from: '/create' }} color="inherit">
              Accedi
            </Button>
          }
        >
          Devi effettuare l&apos;accesso per caricare immagini.
        </Alert>
      </Box>
    );
  }

  let panel;
  if (upload.isSuccess) {
    panel = (
      <Stack spacing={2.5} sx={{ alignItems: 'center', textAlign: 'center', pb: 1 }}>
        <Box>
          <Typography
            variant="h6"
            component="p"
            role="status"
            ref={done}
            tabIndex={-1}
            // The mark above the sentence: beside it, a sentence wrapped on a phone left the mark
            // hanging alone at the side of its two centred lines.
            sx={{
              fontWeight: 700,
              display: 'flex',
              flexDirection: 'column',
              alignItems: 'center',
              gap: 1,
              '&:focus': { outline: 'none' },
            }}
          >
            <CheckCircleOutlineIcon color="success" aria-hidden sx={{ fontSize: 48 }} />
            Immagine caricata con successo!
          </Typography>
          <Typography color="text.secondary" sx={{ mt: 0.5 }}>
            Ora è in attesa di approvazione: la vedrai nel tuo profilo, nella scheda Carica.
          </Typography>
        </Box>
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={1.5}
          sx={{ width: { xs: '100%', sm: 'auto' } }}
        >
          <Button component={RouterLink} to="/user/me" variant="contained" color="secondary">
            Vai al tuo profilo
          </Button>
          <Button variant="outlined" onClick={again}>
            Carica un&apos;altra immagine
          </Button>
        </Stack>
      </Stack>
    );
  } else if (upload.isPending && file !== null) {
    // Once every byte is out the server still checks and re-encodes the picture (D4).
    const sent = upload.progress >= 100;
    panel = (
      <Stack spacing={1.5} sx={{ py: 2 }} aria-busy>
        <Typography role="status" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
          {sent
            ? `Elaborazione di «${file.name}» in corso…`
            : `Caricamento di «${file.name}» in corso…`}
        </Typography>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
          <LinearProgress
            variant="determinate"
            value={upload.progress}
            color="secondary"
            aria-label="Avanzamento del caricamento"
            sx={{ flex: 1, height: 8, borderRadius: 4 }}
          />
          <Typography
            variant="body2"
            data-testid="upload-percent"
            sx={{ minWidth: '4ch', textAlign: 'right', fontVariantNumeric: 'tabular-nums' }}
          >
            {upload.progress}%
          </Typography>
        </Box>
        <Typography variant="body2" color="text.secondary">
          {formatSize(file.size)}
        </Typography>
      </Stack>
    );
  } else {
    panel = (
      <Box
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => {
          setDragging(false);
        }}
        onDrop={drop}
        sx={{
          border: 2,
          borderStyle: 'dashed',
          borderColor: dragging ? 'secondary.main' : 'divider',
          bgcolor: dragging ? 'rgba(244, 143, 177, 0.08)' : 'transparent',
          borderRadius: 3,
          px: 2,
          py: { xs: 5, sm: 7 },
          textAlign: 'center',
          transition: 'border-color 150ms, background-color 150ms',
        }}
      >
        <CloudUploadOutlinedIcon sx={{ fontSize: 56, color: 'secondary.main' }} />
        <Typography sx={{ mt: 1, fontWeight: 600 }}>
          Trascina qui la foto della scritta, oppure
        </Typography>
        {/* A real button that opens the hidden field: a <label> drawn as one had the role of a
            button that its element does not allow, and opened on Enter only through MUI. */}
        <Button
          ref={chooseButton}
          variant="contained"
          color="secondary"
          size="large"
          sx={{ mt: 2 }}
          onClick={() => picker.current?.click()}
        >
          Scegli un&apos;immagine
        </Button>
        <input ref={picker} type="file" accept={UPLOAD_ACCEPT} hidden onChange={choose} />
        <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
          JPG, PNG o WEBP · massimo {limits.upload_max_label}
        </Typography>
      </Box>
    );
  }

  return (
    <Box sx={{ maxWidth: 1040, mx: 'auto', py: { xs: 1, md: 3 } }}>
      <Typography variant="h4" component="h1" sx={{ fontWeight: 800 }}>
        Carica una nuova immagine
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 0.5, mb: 3 }}>
        Hai trovato un muro che parla? Condividi la sua scritta con la community.
      </Typography>
      <Box
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 1fr) 360px' },
          gap: 3,
          alignItems: 'start',
        }}
      >
        <Paper
          elevation={0}
          sx={{ p: { xs: 2, sm: 3 }, borderRadius: 3, border: 1, borderColor: 'divider' }}
        >
          <Stack spacing={2.5}>
            {problem !== null && (
              <Alert severity="error" role="alert">
                {problem}
              </Alert>
            )}
            {preview !== undefined && (upload.isPending || upload.isSuccess) && (
              <Box
                component="img"
                src={preview}
                alt="Anteprima dell'immagine scelta"
                sx={{
                  display: 'block',
                  maxWidth: '100%',
                  maxHeight: 320,
                  mx: 'auto',
                  borderRadius: 2,
                  objectFit: 'contain',
                }}
              />
            )}
            {panel}
          </Stack>
        </Paper>
        <Rules limit={limits.upload_max_label} />
      </Box>
    </Box>
  );
}
