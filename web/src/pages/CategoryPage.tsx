import { useParams } from 'react-router';
import { GalleryHeading } from '../components/GalleryHeading.js';
import { InfiniteGallery } from '../components/InfiniteGallery.js';
import { ErrorMessage } from '../components/StatusMessage.js';
import { usePageTitle } from '../components/usePageTitle.js';
import { useCategory } from '../features/categories/category.js';
import { useCategoryImages } from '../features/categories/categoryImages.js';
import { ApiError, errorMessage, retryOf } from '../lib/api.js';
import { categoryDisplayName, countPhrase } from '../lib/format.js';
import { parseRouteId } from '../lib/routeId.js';

const CRUMBS = [{ label: 'Categoria' }];
const NOT_FOUND = 'Categoria non trovata';

/** SPEC §2 category page: the category's name and count over its infinite gallery. */
export default function CategoryPage() {
  const id = parseRouteId(useParams().categoryId);
  const category = useCategory(id ?? 0, id !== null);
  const images = useCategoryImages(id ?? 0, id !== null);
  const name = category.data === undefined ? undefined : categoryDisplayName(category.data.nome);
  const missing =
    id === null || (category.error instanceof ApiError && category.error.status === 404);
  // The tab says what the page says, as a missing picture's or user's does.
  usePageTitle(missing ? NOT_FOUND : (name ?? 'Categoria'));
  if (missing || category.isError) {
    return (
      <>
        <GalleryHeading crumbs={CRUMBS} title="Categoria" count="" />
        <ErrorMessage
          message={
            missing
              ? NOT_FOUND
              : errorMessage(category.error, 'Errore nel recupero della categoria')
          }
          onRetry={missing ? undefined : retryOf(category.error, category.refetch)}
        />
      </>
    );
  }
  // The gallery's own total is the freshest count; the category's stands in until it comes.
  const total = images.data?.pages[0]?.total ?? category.data?.count;
  return (
    <>
      <GalleryHeading
        crumbs={CRUMBS}
        title={name}
        count={total === undefined ? undefined : countPhrase(total, 'immagine', 'immagini')}
      />
      <InfiniteGallery query={images} emptyText="Nessuna immagine trovata per questa categoria" />
    </>
  );
}
