import Type from 'typebox';
import { EditRevision, RowId } from '../../lib/schemas.js';
import {
  MAX_TAGS_PER_IMAGE,
  TAXONOMY_MESSAGES,
  TYPED_NAME_MAX_LENGTH,
} from '../taxonomy/taxonomy.service.js';
import { TITLE_MAX_LENGTH } from '../uploads/uploads.service.js';

/** The category and tags (by name; missing tags are created) an administrator sets on an image. */
const classificationFields = {
  id_categoria: Type.Optional(
    RowId({ title: 'Categoria', errorMessage: TAXONOMY_MESSAGES.missingCategory }),
  ),
  tags: Type.Optional(
    Type.Array(
      Type.String({
        title: 'Tag',
        maxLength: TYPED_NAME_MAX_LENGTH,
        errorMessage: { maxLength: TAXONOMY_MESSAGES.imageTagTooLong },
      }),
      {
        title: 'Tag',
        maxItems: MAX_TAGS_PER_IMAGE,
        errorMessage: { maxItems: TAXONOMY_MESSAGES.tooManyTags },
      },
    ),
  ),
};

/** PUT /admin/images/{id} (D7): title, category and tags. */
export const ImageEdit = Type.Object(
  {
    titolo_img: Type.Optional(Type.String({ title: 'Titolo', maxLength: TITLE_MAX_LENGTH })),
    ...classificationFields,
    // The `revision` of GET /admin/images the form was filled with: a stale form gets a 409.
    revision: EditRevision,
  },
  { additionalProperties: false },
);

/**
 * What an approval may carry besides SPEC §7's empty body: the category and tags the
 * administrator chose in the detail dialog, saved in the approval's own transaction so that a
 * refused approval changes nothing.
 */
export const Classification = Type.Object(classificationFields, { additionalProperties: false });
export type Classification = Type.Static<typeof Classification>;
