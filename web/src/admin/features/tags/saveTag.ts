import type { AdminTag } from '../../types.js';
import { saveName, useSaveName, type TaxonomyInput } from '../taxonomy/saveName.js';
import { refreshAfterTagChange } from './adminTags.js';

/** POST /admin/tags or PUT /admin/tags/{id}. */
export const saveTag = (input: TaxonomyInput) => saveName<AdminTag>('tags', 'id_tag', input);

export const useSaveTag = () => useSaveName(saveTag, refreshAfterTagChange);
