import { Box, Skeleton, Typography } from '@mui/material';
import { ChipBreadcrumbs, type Crumb } from './ChipBreadcrumbs.js';

/**
 * The top of a gallery page (category, tag): breadcrumb chips, the name as the page's heading
 * and the count line under it; placeholders keep their place while they load.
 */
export function GalleryHeading({
  crumbs,
  title,
  count,
}: {
  crumbs: Crumb[];
  title: string | undefined;
  count: string | undefined;
}) {
  return (
    <Box component="header" sx={{ mb: 3 }}>
      <ChipBreadcrumbs crumbs={crumbs} />
      <Typography variant="h4" component="h1" sx={{ fontWeight: 800 }}>
        {title ?? <Skeleton width={240} />}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 0.5 }}>
        {count ?? <Skeleton width={120} />}
      </Typography>
    </Box>
  );
}
