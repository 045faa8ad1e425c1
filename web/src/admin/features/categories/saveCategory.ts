import type { AdminCategory } from '../../types.js';
import { saveName, useSaveName, type TaxonomyInput } from '../taxonomy/saveName.js';
import { refreshAfterCategoryChange } from './adminCategories.js';

/** POST /admin/categories or PUT /admin/categories/{id}. */
export const saveCategory = (input: TaxonomyInput) =>
  saveName<AdminCategory>('categories', 'id_categoria', input);

export const useSaveCategory = () => useSaveName(saveCategory, refreshAfterCategoryChange);
