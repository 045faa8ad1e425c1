import { Box } from '@mui/material';
import { useDeferredValue, useLayoutEffect, useRef } from 'react';
import { Link as RouterLink, useLocation } from 'react-router';
import { useCategories } from '../features/categories/api.js';
import { currentCategoryId } from '../features/categories/category.js';
import { categoryDisplayName } from '../lib/format.js';

/** SPEC §2: under the header, the top 50 categories by count, draggable sideways. */
export function CategoryStrip() {
  const categories = useCategories();
  // Fifty links drawn in a background render, which React cuts into slices, not in the render
  // the answer triggers (React Query's updates are never cut): goal 8, blocking time.
  const data = useDeferredValue(categories.data);
  // Nothing drawn yet, but a list on its way or being drawn (a refetch keeps the old one).
  const isPending = data === undefined && (categories.isPending || categories.data !== undefined);
  const strip = useRef<HTMLDivElement>(null);
  const { pathname } = useLocation();
  const currentId = currentCategoryId(pathname);
  const drag = useRef<{ x: number; scroll: number; moved: boolean } | null>(null);
  const top = [...(data ?? [])]
    .filter((category) => category.count > 0)
    .sort((a, b) => b.count - a.count)
    .slice(0, 50);
  // The category shown below brought into the strip's view: the fortieth
  // would otherwise sit out of sight. Only the strip scrolls, never the page.
  useLayoutEffect(() => {
    const current = strip.current?.querySelector<HTMLElement>('[aria-current="page"]');
    if (strip.current === null || current === null || current === undefined) return;
    const { offsetLeft, offsetWidth } = current;
    const { clientWidth, scrollLeft } = strip.current;
    if (offsetLeft >= scrollLeft && offsetLeft + offsetWidth <= scrollLeft + clientWidth) return;
    strip.current.scrollLeft = offsetLeft - (clientWidth - offsetWidth) / 2;
  }, [pathname, top.length]);
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
      // A mouse pressed on a chip and moved starts the browser's own drag of the link (to drop
      // its address elsewhere), which cancels the pointer events: the strip moved a few pixels
      // and stopped. Nobody drags a category's address out of this strip.
      onDragStart={(event) => {
        event.preventDefault();
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
        '& > a': {
          position: 'relative',
          flex: '0 0 auto',
          display: 'inline-flex',
          alignItems: 'center',
          height: 32,
          mt: 0.5,
          px: '11px',
          borderRadius: '16px',
          border: 1,
          borderColor: 'grey.700',
          color: 'text.primary',
          typography: 'body2',
          fontSize: '0.8125rem',
          fontWeight: 500,
          lineHeight: 1.5,
          whiteSpace: 'nowrap',
          textDecoration: 'none',
          transition: 'background-color 150ms',
          '&:hover': { bgcolor: 'action.hover' },
          // The ring the carousel's cards wear (ImageCard.tsx): the faint fill alone was hard
          // to find. Apart from the chip, so it does not read as the current category's border;
          // the strip's padding and gap leave it room inside the strip, which clips.
          '&:focus-visible': {
            bgcolor: 'action.focus',
            outline: '2px solid',
            outlineColor: 'secondary.main',
            outlineOffset: '2px',
          },
          '&[aria-current="page"]': { bgcolor: 'action.selected', borderColor: 'secondary.main' },
        },
        '& .count': {
          position: 'absolute',
          top: 0,
          right: 0,
          transform: 'translate(50%, -50%)',
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          minWidth: 20,
          height: 20,
          px: '6px',
          borderRadius: '10px',
          bgcolor: 'secondary.main',
          color: 'secondary.contrastText',
          fontSize: '0.75rem',
          fontWeight: 500,
          lineHeight: 1,
        },
      }}
    >
      {top.map((category) => (
        // An outlined chip with its count badge, as MUI's Chip and Badge draw them, made of
        // plain elements styled once by the strip: fifty Chips and Badges (with their ripples)
        // were a good part of the first render's blocking time on a phone (goal 8).
        <RouterLink
          key={category.id_categoria}
          to={`/category/${category.id_categoria}`}
          aria-current={String(category.id_categoria) === currentId ? 'page' : undefined}
        >
          {categoryDisplayName(category.nome)}
          {/* The space keeps the link's name 'Rabbia 6', not 'Rabbia6'; a badge shows none. */}
          <span className="count">{` ${category.count > 999 ? '999+' : String(category.count)}`}</span>
        </RouterLink>
      ))}
    </Box>
  );
}
