import SearchIcon from '@mui/icons-material/Search';
import { Box, Chip, InputAdornment, Typography } from '@mui/material';
import { useDeferredValue, useMemo, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { EmptyMessage, ErrorMessage, Loading } from '../components/StatusMessage.js';
import { TextInput } from '../components/TextInput.js';
import { usePageTitle } from '../components/usePageTitle.js';
import { useTags } from '../features/tags/tags.js';
import { errorMessage, retryOf } from '../lib/api.js';
import { filterByName } from '../lib/fold.js';

const TITLE = 'Tag disponibili';

/** SPEC §2 /tags: every tag in use as a chip 'name (count)', filtered as you type. */
export default function TagsPage() {
  usePageTitle(TITLE);
  const tags = useTags();
  const [filter, setFilter] = useState('');
  // Typing stays quick with thousands of chips: the list catches up a moment later.
  const deferred = useDeferredValue(filter);
  const shown = useMemo(() => filterByName(tags.data ?? [], deferred), [tags.data, deferred]);

  let body;
  if (tags.isPending) body = <Loading />;
  else if (tags.isError)
    body = (
      <ErrorMessage
        message={errorMessage(tags.error, 'Errore nel caricamento dei tag')}
        onRetry={retryOf(tags.error, tags.refetch)}
      />
    );
  else if (shown.length === 0) body = <EmptyMessage message="Nessun tag trovato" />;
  else
    body = (
      <Box
        component="ul"
        aria-label={TITLE}
        sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, p: 0, m: 0, listStyle: 'none' }}
      >
        {shown.map((tag) => (
          <li key={tag.id_tag}>
            <Chip
              component={RouterLink}
              to={`/tag/${tag.id_tag}`}
              clickable
              variant="outlined"
              label={`${tag.nome} (${tag.image_count})`}
            />
          </li>
        ))}
      </Box>
    );

  return (
    <Box sx={{ maxWidth: 1100, mx: 'auto' }}>
      <Typography variant="h4" component="h1" sx={{ fontWeight: 800, mb: 2 }}>
        {TITLE}
      </Typography>
      <TextInput
        value={filter}
        onChange={(event) => {
          setFilter(event.target.value);
        }}
        placeholder="Cerca tag..."
        fullWidth
        size="small"
        sx={{ mb: 3, maxWidth: 480 }}
        slotProps={{
          htmlInput: { 'aria-label': 'Cerca tag...', maxLength: 100, type: 'search' },
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <SearchIcon fontSize="small" />
              </InputAdornment>
            ),
          },
        }}
      />
      {body}
    </Box>
  );
}
