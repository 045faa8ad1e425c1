import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.js';
import { expectObject } from '../../shape.js';
import type { AdminTag } from '../../types.js';
import { refreshAfterTagChange } from './adminTags.js';

export interface TagInput {
  /** null creates a new tag; an id renames that one. */
  id: number | null;
  nome: string;
}

/** POST /admin/tags or PUT /admin/tags/{id}; the server checks the name. */
export async function saveTag({ id, nome }: TagInput): Promise<AdminTag> {
  const answer = await api<unknown>(id === null ? '/admin/tags' : `/admin/tags/${id}`, {
    method: id === null ? 'POST' : 'PUT',
    body: { nome },
  });
  return expectObject<AdminTag>(answer, 'id_tag', 'nome');
}

export function useSaveTag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveTag,
    onSuccess: () => refreshAfterTagChange(queryClient),
  });
}
