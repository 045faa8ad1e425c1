import { Box, Card, CardContent, Chip, Typography } from '@mui/material';
import type { GridColDef } from '@mui/x-data-grid';
import { useQueryClient } from '@tanstack/react-query';
import { countPhrase, publishedCount } from '../../lib/format.js';
import { TaxonomyManager, type TaxonomyTexts } from '../components/TaxonomyManager.js';
import { refreshAfterTagChange, useAdminTags } from '../features/tags/adminTags.js';
import { deleteTag, useDeleteTag } from '../features/tags/deleteTag.js';
import { useSaveTag } from '../features/tags/saveTag.js';
import { filterTagsByName, tagSummary } from '../features/tags/tagFigures.js';
import type { AdminTag } from '../types.js';

const TEXTS: TaxonomyTexts = {
  title: 'Gestione Tag',
  gridLabel: 'Tag',
  addLabel: 'Aggiungi Tag',
  newTitle: 'Nuovo Tag',
  editTitle: 'Modifica Tag',
  fieldLabel: 'Nome Tag',
  empty: 'Nessun tag trovato. Crea un nuovo tag per iniziare.',
  deletePrompt: 'Sei sicuro di voler eliminare questo tag?',
  // Every image carrying it loses it, those waiting for review too (an upload makes its tags at
  // once); the list's count is of the published ones only.
  deleteDetail: ({ nome, image_count }) =>
    `«${nome}»: verrà tolto dalle immagini che lo hanno (${publishedCount(image_count)}).`,
  loadError: 'Errore nel caricamento dei tag',
  saveError: 'Errore nel salvataggio del tag',
  deleteError: "Errore durante l'eliminazione del tag",
  created: 'Tag creato',
  renamed: 'Tag aggiornato',
  deleted: 'Tag eliminato',
  createdAtLabel: 'Creato il',
  batchLabel: 'Elimina selezionati',
  batchPrompt: (count) =>
    count === 1
      ? 'Sei sicuro di voler eliminare il tag selezionato?'
      : `Sei sicuro di voler eliminare i ${count} tag selezionati?`,
  batchDone: 'Eliminati',
};

const idOf = (row: AdminTag) => row.id_tag;

// A filled chip marks a tag in use, an outlined one a tag no approved image carries (SPEC §2).
const NAME_COLUMNS: GridColDef<AdminTag>[] = [
  {
    field: 'nome',
    headerName: 'Nome',
    flex: 1,
    minWidth: 200,
    renderCell: ({ row }) => (
      <Chip
        label={row.nome}
        size="small"
        color="secondary"
        variant={row.image_count > 0 ? 'filled' : 'outlined'}
      />
    ),
  },
];

const FILTER = {
  placeholder: 'Cerca tag...',
  apply: filterTagsByName,
  noMatch: 'Nessun tag corrisponde alla ricerca',
};

function Figure({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <Card variant="outlined">
      <CardContent>
        <Typography variant="body2" color="text.secondary">
          {label}
        </Typography>
        <Typography variant="h5" component="p" sx={{ fontWeight: 700, mt: 0.5 }}>
          {value}
        </Typography>
        {note === undefined ? null : (
          <Typography variant="body2" color="text.secondary" noWrap>
            {note}
          </Typography>
        )}
      </CardContent>
    </Card>
  );
}

/** The three figures over the grid, from every tag loaded (not only those the filter shows). */
function TagFigures({ tags }: { tags: readonly AdminTag[] }) {
  const { total, mostUsed, average } = tagSummary(tags);
  return (
    <Box
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', sm: 'repeat(3, 1fr)' },
        gap: 2,
        mb: 3,
      }}
    >
      <Figure label="Tag totali" value={String(total)} />
      <Figure
        label="Tag più utilizzato"
        value={countPhrase(mostUsed?.image_count ?? 0, 'immagine', 'immagini')}
        {...(mostUsed === null ? {} : { note: mostUsed.nome })}
      />
      <Figure label="Media immagini per tag" value={String(average)} />
    </Box>
  );
}

/** SPEC §2 'Gestione Tag'. */
export default function TagsPage() {
  const queryClient = useQueryClient();
  const list = useAdminTags();
  const save = useSaveTag();
  const remove = useDeleteTag();
  return (
    <TaxonomyManager
      texts={TEXTS}
      list={list}
      getId={idOf}
      idField="id_tag"
      nameColumns={NAME_COLUMNS}
      save={save.mutateAsync}
      remove={remove.mutateAsync}
      removeOne={deleteTag}
      refresh={() => refreshAfterTagChange(queryClient)}
      requireName
      filter={FILTER}
      summary={(tags) => <TagFigures tags={tags} />}
      editNote={(tag) =>
        `Questo tag è utilizzato in ${countPhrase(tag.image_count, 'immagine', 'immagini')}`
      }
    />
  );
}
