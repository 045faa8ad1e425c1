import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.js';
import { expectObject } from '../../shape.js';
import type { AdminCategory } from '../../types.js';
import { refreshAfterCategoryChange } from './adminCategories.js';

export interface CategoryInput {
  /** null creates a new category; an id renames that one. */
  id: number | null;
  nome: string;
}

/** POST /admin/categories or PUT /admin/categories/{id}; the server checks the name. */
export async function saveCategory({ id, nome }: CategoryInput): Promise<AdminCategory> {
  const answer = await api<unknown>(id === null ? '/admin/categories' : `/admin/categories/${id}`, {
    method: id === null ? 'POST' : 'PUT',
    body: { nome },
  });
  return expectObject<AdminCategory>(answer, 'id_categoria', 'nome');
}

export function useSaveCategory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveCategory,
    onSuccess: () => refreshAfterCategoryChange(queryClient),
  });
}
