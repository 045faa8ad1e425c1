import { Box, Typography } from '@mui/material';
import type { GridColDef } from '@mui/x-data-grid';
import { useQueryClient } from '@tanstack/react-query';
import { fold } from '../../lib/fold.js';
import { categoryDisplayName, compareItalian, publishedCount } from '../../lib/format.js';
import { UNCATEGORISED_ID } from '../../lib/imageText.js';
import { TaxonomyManager, type TaxonomyTexts } from '../components/TaxonomyManager.js';
import {
  refreshAfterCategoryChange,
  useAdminCategories,
} from '../features/categories/adminCategories.js';
import { deleteCategory, useDeleteCategory } from '../features/categories/deleteCategory.js';
import { useSaveCategory } from '../features/categories/saveCategory.js';
import type { AdminCategory } from '../types.js';

const TEXTS: TaxonomyTexts = {
  title: 'Gestione Categorie',
  gridLabel: 'Categorie',
  addLabel: 'Aggiungi Categoria',
  newTitle: 'Nuova Categoria',
  editTitle: 'Modifica Categoria',
  fieldLabel: 'Nome Categoria',
  empty: 'Nessuna categoria trovata. Crea una nuova categoria per iniziare.',
  deletePrompt: 'Sei sicuro di voler eliminare questa categoria?',
  // D6: all its images move to category 1, those waiting for review or rejected too; the
  // count the list has is of the published ones only (D6's image_count).
  deleteDetail: ({ nome, image_count }) =>
    `«${categoryDisplayName(nome)}»: le sue immagini (${publishedCount(image_count)}) ` +
    'passeranno a «Non categorizzata».',
  loadError: 'Errore nel caricamento delle categorie',
  saveError: 'Errore nel salvataggio della categoria',
  deleteError: "Errore durante l'eliminazione della categoria",
  created: 'Categoria creata',
  renamed: 'Categoria aggiornata',
  deleted: 'Categoria eliminata',
  createdAtLabel: 'Creata il',
  batchLabel: 'Elimina selezionate',
  batchPrompt: (count) =>
    count === 1
      ? 'Sei sicuro di voler eliminare la categoria selezionata?'
      : `Sei sicuro di voler eliminare le ${count} categorie selezionate?`,
  batchDone: 'Eliminate',
};

const idOf = (row: AdminCategory) => row.id_categoria;

// D6: 'Non categorizzata' always exists, so the server refuses its deletion; offering it
// would only end in an error.
const deletable = (row: AdminCategory) => row.id_categoria !== UNCATEGORISED_ID;

// The name people read, with the stored one under it: that is what the dialog edits.
const NAME_COLUMNS: GridColDef<AdminCategory>[] = [
  {
    field: 'nome',
    headerName: 'Nome',
    flex: 1,
    minWidth: 220,
    valueGetter: (value: string) => categoryDisplayName(value),
    sortComparator: compareItalian,
    // The toolbar's search finds a category by either name the cell shows: the one people read
    // and the stored one under it ('messaggi_amore'), case and accents aside.
    getApplyQuickFilterFn: (search: string) => {
      const needle = fold(search);
      return needle === ''
        ? null
        : (_value, row) =>
            [categoryDisplayName(row.nome), row.nome].some((name) => fold(name).includes(needle));
    },
    renderCell: ({ row }) => (
      <Box sx={{ display: 'flex', flexDirection: 'column', justifyContent: 'center', height: 1 }}>
        <Typography variant="body2" sx={{ fontWeight: 600, lineHeight: 1.3 }} noWrap>
          {categoryDisplayName(row.nome)}
        </Typography>
        <Typography variant="caption" color="text.secondary" sx={{ lineHeight: 1.3 }} noWrap>
          {row.nome}
        </Typography>
      </Box>
    ),
  },
];

/** SPEC §2 'Gestione Categorie'. */
export default function CategoriesPage() {
  const queryClient = useQueryClient();
  const list = useAdminCategories();
  const save = useSaveCategory();
  const remove = useDeleteCategory();
  return (
    <TaxonomyManager
      texts={TEXTS}
      list={list}
      getId={idOf}
      idField="id_categoria"
      nameColumns={NAME_COLUMNS}
      rowHeight={60}
      save={save.mutateAsync}
      remove={remove.mutateAsync}
      removeOne={deleteCategory}
      refresh={() => refreshAfterCategoryChange(queryClient)}
      canDelete={deletable}
    />
  );
}
