import { api } from '../../../lib/api.js';

/** What the administrator may change before approving: the category and the tags (by name). */
export interface Classification {
  id_categoria: number;
  tags: string[];
}

/** PUT /admin/images/{id} {id_categoria, tags} (D7): missing tags are created by the server. */
export async function updateClassification(
  idImage: number,
  classification: Classification,
): Promise<void> {
  await api<unknown>(`/admin/images/${idImage}`, { method: 'PUT', body: classification });
}
