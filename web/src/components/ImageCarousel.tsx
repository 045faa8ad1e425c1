import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import { Box, IconButton, Skeleton } from '@mui/material';
import useEmblaCarousel from 'embla-carousel-react';
import { useCallback, useEffect, useState } from 'react';
import type { GalleryImage } from '../lib/types.js';
import { ImageCard, SLIDE_RATIO } from './ImageCard.js';

/** SPEC §9: 5 pictures side by side on desktop, 2 on small screens. */
const SLIDE_WIDTH = { xs: '50%', sm: '20%' };
const GAP = 12;
/** The most slides in view at once (desktop): the ones an eager carousel loads at once. */
const SLIDES_IN_VIEW = 5;

const arrowSx = {
  position: 'absolute',
  top: '50%',
  transform: 'translateY(-50%)',
  bgcolor: 'rgba(18,18,18,0.7)',
  border: 1,
  borderColor: 'divider',
  '&:hover': { bgcolor: 'rgba(18,18,18,0.9)' },
  width: { xs: 32, sm: 40 },
  height: { xs: 32, sm: 40 },
  '&.Mui-disabled': { display: 'none' },
} as const;

/**
 * Pictures in a row that wraps around: swipe or drag it, or use the arrows (SPEC §2). When
 * every picture already fits, it stands still and the arrows go away.
 */
export function ImageCarousel({
  images,
  label,
  eager = false,
}: {
  images: GalleryImage[];
  label: string;
  /** The carousel at the top of a page: the slides in view load at once, the first one first. */
  eager?: boolean;
}) {
  const [viewport, embla] = useEmblaCarousel({
    loop: true,
    align: 'start',
    slidesToScroll: 'auto',
  });
  const [canScroll, setCanScroll] = useState(false);

  useEffect(() => {
    if (embla === undefined) return;
    const update = () => {
      setCanScroll(embla.canScrollNext() || embla.canScrollPrev());
    };
    update();
    embla.on('reInit', update).on('resize', update);
    return () => {
      embla.off('reInit', update).off('resize', update);
    };
  }, [embla]);

  const previous = useCallback(() => {
    embla?.scrollPrev();
  }, [embla]);
  const next = useCallback(() => {
    embla?.scrollNext();
  }, [embla]);

  return (
    <Box
      role="group"
      aria-roledescription="carosello"
      aria-label={label}
      sx={{ position: 'relative' }}
    >
      <Box
        ref={viewport}
        sx={{ overflow: 'hidden', touchAction: 'pan-y pinch-zoom', userSelect: 'none' }}
      >
        <Box sx={{ display: 'flex', ml: `-${GAP}px` }}>
          {images.map((image, index) => (
            <Box
              key={image.id_image}
              role="group"
              aria-roledescription="immagine"
              aria-label={`${index + 1} di ${images.length}`}
              sx={{ flex: '0 0 auto', width: SLIDE_WIDTH, minWidth: 0, pl: `${GAP}px` }}
            >
              <ImageCard
                image={image}
                variant="slide"
                eager={eager && index < SLIDES_IN_VIEW}
                priority={eager && index === 0}
              />
            </Box>
          ))}
        </Box>
      </Box>
      <IconButton
        aria-label="Immagini precedenti"
        onClick={previous}
        disabled={!canScroll}
        sx={{ ...arrowSx, left: 8 }}
      >
        <ChevronLeftIcon />
      </IconButton>
      <IconButton
        aria-label="Immagini successive"
        onClick={next}
        disabled={!canScroll}
        sx={{ ...arrowSx, right: 8 }}
      >
        <ChevronRightIcon />
      </IconButton>
    </Box>
  );
}

/** The carousel's place while its pictures are on their way: same height, no jump. */
export function CarouselSkeleton() {
  return (
    <Box aria-hidden sx={{ display: 'flex', ml: `-${GAP}px`, overflow: 'hidden' }}>
      {Array.from({ length: SLIDES_IN_VIEW }, (_, index) => (
        <Box key={index} sx={{ flex: '0 0 auto', width: SLIDE_WIDTH, pl: `${GAP}px` }}>
          <Skeleton
            variant="rounded"
            sx={{ width: '100%', height: 'auto', aspectRatio: SLIDE_RATIO }}
          />
        </Box>
      ))}
    </Box>
  );
}
