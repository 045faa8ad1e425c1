import { useMutation, type QueryClient, useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '../../../lib/api.js';
import { expectObject } from '../../shape.js';

/** What the name dialog of 'Gestione Categorie' and 'Gestione Tag' saves. */
export interface TaxonomyInput {
  /** null creates; an id renames. */
  id: number | null;
  nome: string;
  /** A rename only: the revision of the row the dialog was opened with (a stale one is a 409). */
  revision?: number;
}

/**
 * POST /admin/{collection} or PUT /admin/{collection}/{id}; the server checks the name, and
 * refuses a rename over another administrator's since the dialog opened.
 */
export async function saveName<Row extends object>(
  collection: 'categories' | 'tags',
  idField: keyof Row & string,
  { id, nome, revision }: TaxonomyInput,
): Promise<Row> {
  const answer = await api<unknown>(
    id === null ? `/admin/${collection}` : `/admin/${collection}/${id}`,
    {
      method: id === null ? 'POST' : 'PUT',
      body: id === null || revision === undefined ? { nome } : { nome, revision },
    },
  );
  return expectObject<Row>(answer, idField, 'nome');
}

/**
 * The save as a mutation: the lists reload after it, and after a 409 too, so the dialog
 * opened next shows the other administrator's name.
 */
export function useSaveName<Row>(
  save: (input: TaxonomyInput) => Promise<Row>,
  refresh: (queryClient: QueryClient) => Promise<void>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: save,
    onSuccess: () => refresh(queryClient),
    onError: (error) =>
      error instanceof ApiError && error.status === 409 ? refresh(queryClient) : undefined,
  });
}
