import AutoAwesomeIcon from '@mui/icons-material/AutoAwesome';
import CheckIcon from '@mui/icons-material/Check';
import {
  Autocomplete,
  Box,
  Button,
  Card,
  CardActionArea,
  CardContent,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  Stack,
  TextField,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { useState, type ReactNode } from 'react';
import { fold } from '../../../lib/fold.js';
import { categoryDisplayName, formatDateTime, formatSize } from '../../../lib/format.js';
import type { PendingImage } from '../../types.js';
import { useCategoryOptions } from './categoryOptions.js';
import {
  addTags,
  classificationChange,
  cleanTags,
  suggestionsPending,
  type Classification,
} from './classification.js';
import { MAX_TAG_LENGTH, MAX_TAGS } from '../tags/tagName.js';
import { useHints } from './hints.js';
import { categoryName, uploaderName } from './search.js';
import { StatusChip } from '../../components/StatusChip.js';
import { useTagOptions } from './tagOptions.js';

export const UNTITLED = 'Senza titolo';

interface PendingDetailDialogProps {
  /** The image shown; null closes the dialog. */
  image: PendingImage | null;
  /** An approval or rejection is running: the decision buttons wait (SPEC §4). */
  busy: boolean;
  onClose: () => void;
  /** With the category and tags to save first, or null when they were left unchanged. */
  onApprove: (image: PendingImage, classification: Classification | null) => void;
  onReject: (image: PendingImage) => void;
}

/**
 * The pending image in full (SPEC §2 and issue 6): the picture, its facts, the text read on the
 * wall, possible duplicates, and the suggested category and tags, which can be accepted or
 * changed before approving.
 */
export function PendingDetailDialog({ image, ...props }: PendingDetailDialogProps) {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  // The last image stays on screen while the dialog fades out after a decision removed it.
  const [last, setLast] = useState(image);
  if (image !== null && image !== last) setLast(image);
  const shown = image ?? last;
  return (
    <Dialog
      open={image !== null}
      onClose={props.onClose}
      fullWidth
      maxWidth="lg"
      fullScreen={phone}
      aria-labelledby="pending-detail-title"
    >
      {shown === null ? null : <DetailContent key={shown.id_image} image={shown} {...props} />}
    </Dialog>
  );
}

function DetailContent({
  image,
  busy,
  onClose,
  onApprove,
  onReject,
}: Omit<PendingDetailDialogProps, 'image'> & { image: PendingImage }) {
  const [categoryId, setCategoryId] = useState(image.category.id_categoria);
  const [tags, setTags] = useState<string[]>(image.tags);
  const categories = useCategoryOptions(true);
  const tagOptions = useTagOptions(true);
  const hints = useHints(image.id_image);
  const suggestedCategory = hints.data?.suggested_category ?? null;
  const suggestedTags = hints.data?.suggested_tags ?? [];
  const title = image.title ?? UNTITLED;
  const chosenTags = new Set(tags.map(fold));

  // The select always holds the image's own and the suggested category, even before the list
  // arrives or if it failed.
  // The list first, in the server's order (by shown name); the image's own category and the
  // suggestion are added only while the list lacks them, so the select always has its value.
  const categoryChoices = new Map<number, string>(
    (categories.data ?? []).map((category) => [category.id_categoria, category.nome]),
  );
  for (const [id, nome] of [
    [image.category.id_categoria, image.category.name] as const,
    ...(suggestedCategory === null
      ? []
      : [[suggestedCategory.id_categoria, suggestedCategory.nome] as const]),
  ]) {
    if (!categoryChoices.has(id)) categoryChoices.set(id, nome);
  }

  const acceptSuggestions = () => {
    if (suggestedCategory !== null) setCategoryId(suggestedCategory.id_categoria);
    setTags((current) =>
      addTags(
        current,
        suggestedTags.map((tag) => tag.nome),
      ),
    );
  };

  return (
    <>
      <DialogTitle id="pending-detail-title" sx={{ pr: 3 }}>
        {title}
      </DialogTitle>
      <DialogContent dividers>
        <Box
          sx={{
            display: 'grid',
            gridTemplateColumns: { xs: '1fr', md: 'minmax(0, 3fr) minmax(0, 2fr)' },
            gap: 3,
          }}
        >
          <Box
            component="img"
            src={image.display_url}
            alt={title}
            sx={{
              width: '100%',
              maxHeight: '60vh',
              aspectRatio: `${Math.max(image.file_info.width, 1)} / ${Math.max(image.file_info.height, 1)}`,
              objectFit: 'contain',
              bgcolor: 'background.default',
              borderRadius: 1,
              display: 'block',
            }}
          />
          <Box component="dl" sx={{ m: 0, display: 'grid', gap: 1.5, alignContent: 'start' }}>
            <Fact label="Caricata da">{uploaderName(image)}</Fact>
            <Fact label="Categoria">{categoryName(image)}</Fact>
            <Fact label="Stato">
              <StatusChip status={image.status} />
            </Fact>
            <Fact label="Dimensione">
              {formatSize(image.file_info.size_bytes)}
              {image.file_info.width > 0
                ? ` · ${image.file_info.width} × ${image.file_info.height} px`
                : ''}
            </Fact>
            <Fact label="Caricata il">{formatDateTime(image.created_at)}</Fact>
            <Fact label="Tag">
              {image.tags.length === 0 ? (
                'Nessun tag'
              ) : (
                <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                  {image.tags.map((tag) => (
                    <Chip key={tag} label={tag} size="small" />
                  ))}
                </Box>
              )}
            </Fact>
            {image.description !== null && image.description.trim() !== '' ? (
              <Fact label="Descrizione">{image.description}</Fact>
            ) : null}
          </Box>
        </Box>

        <Section title="Testo estratto">
          <Typography
            sx={{
              whiteSpace: 'pre-wrap',
              overflowWrap: 'anywhere',
              color: image.extracted_text?.trim() ? 'text.primary' : 'text.secondary',
            }}
          >
            {image.extracted_text === null
              ? 'Lettura del testo in corso: riprova tra poco con Aggiorna.'
              : image.extracted_text.trim() === ''
                ? 'Nessun testo rilevato'
                : image.extracted_text}
          </Typography>
        </Section>

        <Section title="Possibili duplicati">
          {hints.data === undefined ? (
            <HintsWaiting
              failed={hints.isError}
              onRetry={() => void hints.refetch()}
              loading="Ricerca dei possibili duplicati in corso…"
              failure="Impossibile cercare i possibili duplicati."
            />
          ) : hints.data.possible_duplicates.length === 0 ? (
            <Typography color="text.secondary">Nessun possibile duplicato trovato</Typography>
          ) : (
            <Box
              sx={{
                display: 'grid',
                gridTemplateColumns: 'repeat(auto-fill, minmax(150px, 1fr))',
                gap: 1.5,
              }}
            >
              {hints.data.possible_duplicates.map((duplicate) => (
                <Card key={duplicate.id_image} variant="outlined">
                  <CardActionArea
                    href={`/image/${duplicate.id_image}`}
                    target="_blank"
                    rel="noopener"
                  >
                    <Box
                      component="img"
                      src={duplicate.thumbnail_url}
                      alt={duplicate.titolo_img ?? UNTITLED}
                      loading="lazy"
                      sx={{ width: '100%', height: 110, objectFit: 'cover', display: 'block' }}
                    />
                    <CardContent sx={{ p: 1, '&:last-child': { pb: 1 } }}>
                      <Typography variant="body2" noWrap>
                        {duplicate.titolo_img ?? UNTITLED}
                      </Typography>
                      <Typography variant="caption" color="text.secondary">
                        {`Somiglianza ${Math.round(duplicate.similarity * 100)}% · ${
                          duplicate.kind === 'visual' ? 'Aspetto' : 'Testo'
                        }`}
                      </Typography>
                    </CardContent>
                  </CardActionArea>
                </Card>
              ))}
            </Box>
          )}
        </Section>

        <Section title="Categoria e tag">
          <Stack spacing={2}>
            {hints.data === undefined ? (
              <HintsWaiting
                failed={hints.isError}
                onRetry={() => void hints.refetch()}
                loading="Ricerca dei suggerimenti in corso…"
                failure="Impossibile caricare i suggerimenti."
              />
            ) : suggestedCategory === null && suggestedTags.length === 0 ? (
              <Typography color="text.secondary">Nessun suggerimento disponibile</Typography>
            ) : (
              <Box
                role="group"
                aria-label="Suggerimenti"
                sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}
              >
                {suggestedCategory === null ? null : (
                  <>
                    <Typography variant="body2" color="text.secondary">
                      Categoria suggerita:
                    </Typography>
                    <SuggestionChip
                      label={categoryDisplayName(suggestedCategory.nome)}
                      chosen={categoryId === suggestedCategory.id_categoria}
                      onClick={() => setCategoryId(suggestedCategory.id_categoria)}
                    />
                  </>
                )}
                {suggestedTags.length === 0 ? null : (
                  <>
                    <Typography variant="body2" color="text.secondary">
                      Tag suggeriti:
                    </Typography>
                    {suggestedTags.map((tag) => (
                      <SuggestionChip
                        key={tag.id_tag}
                        label={tag.nome}
                        chosen={chosenTags.has(fold(tag.nome))}
                        onClick={() => setTags((current) => addTags(current, [tag.nome]))}
                      />
                    ))}
                  </>
                )}
                <Button
                  size="small"
                  startIcon={<AutoAwesomeIcon />}
                  onClick={acceptSuggestions}
                  disabled={!suggestionsPending(hints.data, categoryId, tags)}
                >
                  Accetta suggerimenti
                </Button>
              </Box>
            )}
            <Box
              sx={{
                display: 'grid',
                gridTemplateColumns: { xs: '1fr', sm: 'minmax(0, 1fr) minmax(0, 2fr)' },
                gap: 2,
              }}
            >
              <TextField
                select
                label="Categoria"
                value={categoryId}
                onChange={(event) => setCategoryId(Number(event.target.value))}
                size="small"
              >
                {[...categoryChoices].map(([id, nome]) => (
                  <MenuItem key={id} value={id}>
                    {categoryDisplayName(nome)}
                  </MenuItem>
                ))}
              </TextField>
              <Autocomplete
                multiple
                freeSolo
                // A name typed but not confirmed with Enter still counts when the field loses
                // focus: it stayed on screen while 'Approva' published the image without it.
                autoSelect
                size="small"
                options={(tagOptions.data ?? []).map((tag) => tag.nome)}
                value={tags}
                onChange={(_event, value) => setTags(cleanTags(value).slice(0, MAX_TAGS))}
                filterSelectedOptions
                renderInput={(params) => (
                  <TextField
                    {...params}
                    label="Tag"
                    placeholder={tags.length < MAX_TAGS ? 'Aggiungi un tag e premi Invio' : ''}
                    slotProps={{
                      ...params.slotProps,
                      htmlInput: { ...params.slotProps.htmlInput, maxLength: MAX_TAG_LENGTH },
                    }}
                  />
                )}
              />
            </Box>
            <Typography variant="body2" color="text.secondary">
              Categoria e tag scelti qui vengono salvati quando approvi l'immagine.
            </Typography>
          </Stack>
        </Section>
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Button onClick={onClose}>Chiudi</Button>
        <Button
          variant="contained"
          color="success"
          disabled={busy}
          onClick={() => onApprove(image, classificationChange(image, categoryId, tags))}
        >
          Approva
        </Button>
        <Button variant="contained" color="error" disabled={busy} onClick={() => onReject(image)}>
          Rifiuta
        </Button>
      </DialogActions>
    </>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box>
      <Typography component="dt" variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }}>
        {children}
      </Typography>
    </Box>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="section" sx={{ mt: 3 }}>
      <Typography variant="h6" component="h3" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

function SuggestionChip({
  label,
  chosen,
  onClick,
}: {
  label: string;
  chosen: boolean;
  onClick: () => void;
}) {
  return (
    <Chip
      label={label}
      color={chosen ? 'success' : 'secondary'}
      variant={chosen ? 'filled' : 'outlined'}
      icon={chosen ? <CheckIcon /> : undefined}
      onClick={onClick}
      aria-pressed={chosen}
    />
  );
}

/** The hints while they load, or when they could not be loaded, with a way to try again. */
function HintsWaiting({
  failed,
  onRetry,
  loading,
  failure,
}: {
  failed: boolean;
  onRetry: () => void;
  loading: string;
  failure: string;
}) {
  return failed ? (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
      <Typography color="error">{failure}</Typography>
      <Button size="small" onClick={onRetry}>
        Riprova
      </Button>
    </Stack>
  ) : (
    <Typography color="text.secondary" role="status">
      {loading}
    </Typography>
  );
}
