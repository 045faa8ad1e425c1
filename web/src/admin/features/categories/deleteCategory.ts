import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.js';
import { expectObject } from '../../shape.js';
import { refreshAfterCategoryChange } from './adminCategories.js';

/** DELETE /admin/categories/{id}: its images move to 'Non categorizzata' (D6). */
export async function deleteCategory(id: number): Promise<void> {
  expectObject(await api<unknown>(`/admin/categories/${id}`, { method: 'DELETE' }), 'ok');
}

export function useDeleteCategory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteCategory,
    onSuccess: () => refreshAfterCategoryChange(queryClient),
  });
}
