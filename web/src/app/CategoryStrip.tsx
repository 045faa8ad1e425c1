import { Badge, Box, Chip } from '@mui/material';
import { useRef } from 'react';
import { Link as RouterLink } from 'react-router';
import { useCategories } from '../features/categories/api.js';
import { categoryDisplayName } from '../lib/format.js';

/** SPEC §2: under the header, the top 50 categories by count, draggable sideways. */
export function CategoryStrip() {
  const { data, isPending } = useCategories();
  const strip = useRef<HTMLDivElement>(null);
  const drag = useRef<{ x: number; scroll: number; moved: boolean } | null>(null);
  const top = [...(data ?? [])]
    .filter((category) => category.count > 0)
    .sort((a, b) => b.count - a.count)
    .slice(0, 50);
  // Its height while the categories are on their way (12 + 4 + 32 + 8 px: padding, the badge's
  // margin, a chip): drawn after the page below it, the strip pushed it down (goal 8: the home
  // page's occasional CLS of 0.020 on a phone).
  if (isPending) return <Box aria-hidden sx={{ height: 56 }} />;
  if (top.length === 0) return null;
  return (
    <Box
      ref={strip}
      component="nav"
      aria-label="Categorie più popolari"
      onPointerDown={(event) => {
        drag.current = { x: event.clientX, scroll: strip.current?.scrollLeft ?? 0, moved: false };
      }}
      onPointerMove={(event) => {
        if (drag.current === null || strip.current === null || event.buttons === 0) return;
        const dx = event.clientX - drag.current.x;
        if (Math.abs(dx) > 4) drag.current.moved = true;
        strip.current.scrollLeft = drag.current.scroll - dx;
      }}
      onClickCapture={(event) => {
        // A drag is not a click on the chip under the pointer.
        if (drag.current?.moved === true) event.preventDefault();
        drag.current = null;
      }}
      sx={{
        display: 'flex',
        gap: 2,
        overflowX: 'auto',
        px: 2,
        pt: 1.5,
        pb: 1,
        scrollbarWidth: 'none',
        cursor: 'grab',
        userSelect: 'none',
      }}
    >
      {top.map((category) => (
        <Badge
          key={category.id_categoria}
          badgeContent={category.count}
          max={999}
          color="secondary"
          sx={{ flex: '0 0 auto', mt: 0.5 }}
        >
          <Chip
            label={categoryDisplayName(category.nome)}
            component={RouterLink}
            to={`/category/${category.id_categoria}`}
            clickable
            variant="outlined"
          />
        </Badge>
      ))}
    </Box>
  );
}
