import { Box, Chip, Typography } from '@mui/material';
import { useSearchParams } from 'react-router';
import { ChipBreadcrumbs } from '../components/ChipBreadcrumbs.js';
import { InfiniteGallery } from '../components/InfiniteGallery.js';
import { SEARCH_COLUMNS } from '../components/masonryColumns.js';
import { EmptyMessage } from '../components/StatusMessage.js';
import { usePageTitle } from '../components/usePageTitle.js';
import { useSearchImages } from '../features/search/searchImages.js';
import { countPhrase } from '../lib/format.js';

const CRUMBS = [{ label: 'Ricerca' }];
const TITLE = 'Risultati della ricerca';

/** SPEC §2 /search?q=: the results of the header's search, best first, page after page. */
export default function SearchPage() {
  const [params] = useSearchParams();
  const query = (params.get('q') ?? '').trim();
  usePageTitle(query === '' ? TITLE : `${query} · Ricerca`);
  const results = useSearchImages(query);
  const total = results.data?.pages[0]?.total;

  return (
    <>
      <Box component="header" sx={{ mb: 3 }}>
        <ChipBreadcrumbs crumbs={CRUMBS} />
        <Typography variant="h4" component="h1" sx={{ fontWeight: 800 }}>
          {TITLE}
        </Typography>
        {total !== undefined && (
          <Typography
            component="div"
            color="text.secondary"
            sx={{ mt: 1, display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}
          >
            <span>{countPhrase(total, 'risultato', 'risultati')} per:</span>
            <Chip label={query} size="small" color="secondary" variant="outlined" />
          </Typography>
        )}
      </Box>
      {query === '' ? (
        <EmptyMessage message="Scrivi cosa cercare con la lente in alto." />
      ) : (
        <InfiniteGallery
          query={results}
          emptyText="Nessun risultato trovato"
          errorText="Errore nel caricamento dei risultati"
          columns={SEARCH_COLUMNS}
          rootMargin={200}
        />
      )}
    </>
  );
}
