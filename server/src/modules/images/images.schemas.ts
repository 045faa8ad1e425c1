import Type from 'typebox';
import { IsoDateTime, RowId } from '../../lib/schemas.js';

/** SPEC §9 page sizes; D2: at most 120, larger values are clamped. */
export const MAX_PAGE_SIZE = 120;

export function pageQuery(defaultLimit: number) {
  return Type.Object({
    skip: Type.Optional(
      Type.Integer({ title: 'skip', minimum: 0, maximum: 10_000_000, default: 0 }),
    ),
    limit: Type.Optional(
      // No maximum: a larger page is cut to the route's largest (D2), not refused.
      Type.Integer({ title: 'limit', minimum: 1, default: defaultLimit }),
    ),
  });
}

/** The query of the galleries that also continue from a cursor (keyset pagination). */
export function galleryQuery(defaultLimit: number) {
  return Type.Object({
    ...pageQuery(defaultLimit).properties,
    cursor: Type.Optional(
      Type.String({
        title: 'cursor',
        minLength: 1,
        maxLength: 200,
        description:
          'The next_cursor of the previous page: continues right after it, as fast on page 8,000 as on page 1. Not with a skip above 0.',
      }),
    ),
  });
}

export const IdParams = Type.Object({ id: RowId({ title: 'id' }) });

const CategoryRef = Type.Object({ id_categoria: Type.Integer(), nome: Type.String() });
const TagRef = Type.Object({ id_tag: Type.Integer(), nome: Type.String() });

/** An image as every gallery shows it (SPEC §3 Image, plus what layout and loading need). */
export const GalleryImage = Type.Object({
  id_image: Type.Integer(),
  filename: Type.String(),
  titolo_img: Type.Union([Type.String(), Type.Null()]),
  /** What lets the web app describe a picture without a title (its alt text). */
  extracted_text: Type.Union([Type.String(), Type.Null()], {
    description:
      'Text read on the wall (OCR). Only for approved images (public anyway); null for others and until read.',
  }),
  id_utente: Type.Integer(),
  username_uploader: Type.String(),
  category: CategoryRef,
  tags: Type.Array(TagRef),
  /** The requesting user's own reactions only (D5). */
  interactions: Type.Array(
    Type.Object({ id_tipo_interazione: Type.Integer(), id_utente: Type.Integer() }),
  ),
  likes_count: Type.Integer(),
  views_count: Type.Integer(),
  /** D5: the number of downloads. */
  shares_count: Type.Integer(),
  width: Type.Integer(),
  height: Type.Integer(),
  placeholder: Type.Union([Type.String(), Type.Null()]),
  image_url: Type.String(),
  display_url: Type.String(),
  thumbnail_url: Type.String(),
  created_at: IsoDateTime,
  published_at: Type.Union([IsoDateTime, Type.Null()]),
});

export const ImageDetail = Type.Object({
  ...GalleryImage.properties,
  description: Type.Union([Type.String(), Type.Null()]),
  status: Type.String(),
  uploader_visible: Type.Boolean({
    description:
      "Whether the uploader's public profile can be opened (not for a deactivated account)",
  }),
  favorites_count: Type.Integer(),
  downloads_count: Type.Integer(),
  sad_count: Type.Integer(),
  dislikes_count: Type.Integer(),
  wow_count: Type.Integer(),
});

/** The uploader's own image in the 'Carica' tab: every status, with the rejection reason. */
export const OwnImage = Type.Object({
  ...GalleryImage.properties,
  status: Type.String(),
  rejection_reason: Type.Union([Type.String(), Type.Null()]),
});

export const ImageList = Type.Object({ images: Type.Array(GalleryImage), total: Type.Integer() });

/** What continues a gallery: pass it as `cursor`; null on the last page. */
const NextCursor = Type.Union([Type.String(), Type.Null()], {
  description: 'Opaque; pass as `cursor` for the next page. Null on the last page.',
});

/** A gallery page that can be continued by cursor. */
export const GalleryList = Type.Object({ ...ImageList.properties, next_cursor: NextCursor });

/** A public profile's page (SPEC: hasMore instead of a total). */
export const ProfileGalleryList = Type.Object({
  images: Type.Array(GalleryImage),
  hasMore: Type.Boolean(),
  next_cursor: NextCursor,
});
