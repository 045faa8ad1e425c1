import { useParams } from 'react-router';
import { GalleryHeading } from '../components/GalleryHeading.js';
import { InfiniteGallery } from '../components/InfiniteGallery.js';
import { ErrorMessage } from '../components/StatusMessage.js';
import { usePageTitle } from '../components/usePageTitle.js';
import { useTag } from '../features/tags/tag.js';
import { useTagImages } from '../features/tags/tagImages.js';
import { ApiError, errorMessage, retryOf } from '../lib/api.js';
import { countPhrase } from '../lib/format.js';
import { parseRouteId } from '../lib/routeId.js';

const CRUMBS = [{ label: 'Tag', to: '/tags' }];
const NOT_FOUND = 'Tag non trovato';

/** SPEC §2 tag page; D11: 'Tag non trovato' only when the tag does not exist. */
export default function TagPage() {
  const id = parseRouteId(useParams().tagId);
  const tag = useTag(id ?? 0, id !== null);
  const images = useTagImages(id ?? 0, id !== null);
  const missing = id === null || (tag.error instanceof ApiError && tag.error.status === 404);
  // The tab says what the page says, as a missing picture's or user's does.
  usePageTitle(missing ? NOT_FOUND : (tag.data?.nome ?? 'Tag'));
  if (missing || tag.isError) {
    return (
      <>
        <GalleryHeading crumbs={CRUMBS} title="Tag" count="" />
        <ErrorMessage
          message={missing ? NOT_FOUND : errorMessage(tag.error, 'Errore nel caricamento dei tag')}
          onRetry={missing ? undefined : retryOf(tag.error, tag.refetch)}
        />
      </>
    );
  }
  const total = images.data?.pages[0]?.total ?? tag.data?.image_count;
  return (
    <>
      <GalleryHeading
        crumbs={CRUMBS}
        title={tag.data?.nome}
        count={
          total === undefined
            ? undefined
            : countPhrase(total, 'immagine con questo tag', 'immagini con questo tag')
        }
      />
      <InfiniteGallery query={images} emptyText="Nessuna immagine trovata con questo tag" />
    </>
  );
}
