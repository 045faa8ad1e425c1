import {
  Alert,
  Autocomplete,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  Stack,
  TextField,
} from '@mui/material';
import { useState, type SubmitEvent } from 'react';
import { useCategories } from '../../../features/categories/api.js';
import { categoryDisplayName } from '../../../lib/format.js';
import { adminErrorMessage } from '../../shape.js';
import type { AdminImage, AdminImageInput } from '../../types.js';
import { useAdminTags } from '../tags/adminTags.js';
import { MAX_TAG_LENGTH, MAX_TAGS, tagTooLong } from '../tags/tagName.js';
import { tagsProblem, tidyTagNames } from './imageTags.js';

/** The server keeps titles of at most 200 characters. */
const TITLE_MAX_LENGTH = 200;

interface ImageEditDialogProps {
  image: AdminImage;
  /** Resolves once saved and the list has reloaded; a failure keeps the dialog open. */
  onSave: (input: AdminImageInput) => Promise<unknown>;
  onClose: () => void;
}

/**
 * The edit dialog of 'Gestione Immagini': title, a category from the public list (SPEC §2) and
 * the tags (D7), typed freely or picked from the existing ones.
 */
export function ImageEditDialog({ image, onSave, onClose }: ImageEditDialogProps) {
  const categories = useCategories();
  const tags = useAdminTags();
  const [title, setTitle] = useState(image.titolo_img ?? '');
  const [categoryId, setCategoryId] = useState(image.id_categoria);
  const [tagNames, setTagNames] = useState<string[]>(image.tags);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  // Until the list arrives (or if it cannot), the image's own category keeps the select valid.
  const categoryOptions = categories.data ?? [
    { id_categoria: image.id_categoria, nome: image.categoria_nome },
  ];
  const tagOptions = (tags.data ?? []).map((tag) => tag.nome);
  const problem = tagsProblem(tagNames);

  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      await onSave({
        titolo_img: title,
        id_categoria: categoryId,
        tags: tagNames,
        // The row the dialog opened with: an edit saved by someone else since makes this a 409.
        revision: image.revision,
      });
      onClose();
    } catch (failure) {
      setError(adminErrorMessage(failure, "Errore nel salvataggio dell'immagine"));
      setBusy(false);
    }
  };

  return (
    <Dialog
      open
      onClose={busy ? undefined : onClose}
      fullWidth
      maxWidth="sm"
      aria-labelledby="image-edit-title"
      slotProps={{
        paper: {
          component: 'form',
          onSubmit: (event: SubmitEvent) => {
            event.preventDefault();
            if (!busy && problem === null) void submit();
          },
        },
      }}
    >
      <DialogTitle id="image-edit-title">Modifica Immagine</DialogTitle>
      <DialogContent>
        <Stack spacing={2.5} sx={{ pt: 1 }}>
          <TextField
            label="Titolo"
            value={title}
            onChange={(event) => setTitle(event.target.value)}
            disabled={busy}
            fullWidth
            slotProps={{ htmlInput: { maxLength: TITLE_MAX_LENGTH } }}
          />
          <TextField
            select
            label="Categoria"
            value={categoryId}
            onChange={(event) => setCategoryId(Number(event.target.value))}
            disabled={busy}
            fullWidth
            {...(categories.isError
              ? { error: true, helperText: 'Errore nel caricamento delle categorie' }
              : {})}
          >
            {categoryOptions.map((category) => (
              <MenuItem key={category.id_categoria} value={category.id_categoria}>
                {categoryDisplayName(category.nome)}
              </MenuItem>
            ))}
          </TextField>
          <Autocomplete
            multiple
            freeSolo
            // A name typed but not confirmed with Enter still counts when the field loses focus.
            autoSelect
            options={tagOptions}
            value={tagNames}
            onChange={(_event, value) => setTagNames(tidyTagNames(value))}
            filterSelectedOptions
            disabled={busy}
            loading={tags.isPending}
            loadingText="Caricamento…"
            noOptionsText="Nessun tag trovato"
            renderValue={(value, getItemProps) =>
              value.map((name, index) => {
                const { key, ...itemProps } = getItemProps({ index });
                return (
                  <Chip
                    key={key}
                    label={name}
                    size="small"
                    color={tagTooLong(name) ? 'error' : 'default'}
                    {...itemProps}
                  />
                );
              })
            }
            renderInput={(params) => (
              <TextField
                {...params}
                label="Tag"
                placeholder={tagNames.length < MAX_TAGS ? 'Aggiungi un tag' : undefined}
                error={problem !== null}
                helperText={
                  problem ??
                  `Scrivi un tag e premi Invio. Al massimo ${MAX_TAGS} tag di ${MAX_TAG_LENGTH} caratteri.`
                }
              />
            )}
          />
          {error === null ? null : <Alert severity="error">{error}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Annulla
        </Button>
        <Button
          type="submit"
          variant="contained"
          color="secondary"
          disabled={busy || problem !== null}
        >
          Salva
        </Button>
      </DialogActions>
    </Dialog>
  );
}
