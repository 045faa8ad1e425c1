import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import { Box, IconButton, Skeleton, Typography } from '@mui/material';
import useEmblaCarousel from 'embla-carousel-react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import type { GalleryImage } from '../lib/types.js';
import { thumbHashDataUrl } from './thumbhash.js';

/** SPEC §9: 5 pictures side by side on desktop, 2 on small screens. */
const SLIDE_WIDTH = { xs: '50%', sm: '20%' };
const GAP = 12;
/**
 * Tiles share one shape so a row stays even; most photos are 4:3. A picture of another shape is
 * shown whole (the writing is the point), over its own blurred colours.
 */
const TILE_RATIO = '4 / 3';

function Slide({ image }: { image: GalleryImage }) {
  const [loaded, setLoaded] = useState(false);
  const blur = useMemo(() => thumbHashDataUrl(image.placeholder), [image.placeholder]);
  const title = image.titolo_img ?? 'Scritta sul muro';
  return (
    <Box
      component={RouterLink}
      to={`/image/${image.id_image}`}
      aria-label={title}
      draggable={false}
      sx={{
        display: 'block',
        position: 'relative',
        aspectRatio: TILE_RATIO,
        borderRadius: 2,
        overflow: 'hidden',
        bgcolor: 'background.paper',
        backgroundImage: blur === undefined ? undefined : `url(${blur})`,
        backgroundSize: 'cover',
        backgroundPosition: 'center',
        '&:hover .caption, &:focus-visible .caption': { opacity: 1 },
        '&:focus-visible': {
          outline: '2px solid',
          outlineColor: 'secondary.main',
          outlineOffset: -2,
        },
      }}
    >
      <Box
        component="img"
        src={image.thumbnail_url}
        alt={title}
        width={image.width}
        height={image.height}
        // Off-screen slides and carousels far down the page wait until they come near.
        loading="lazy"
        decoding="async"
        draggable={false}
        onLoad={() => {
          setLoaded(true);
        }}
        sx={{
          display: 'block',
          width: '100%',
          height: '100%',
          objectFit: 'contain',
          opacity: loaded ? 1 : 0,
          transition: 'opacity 200ms',
        }}
      />
      <Typography
        className="caption"
        variant="body2"
        sx={{
          position: 'absolute',
          insetInline: 0,
          bottom: 0,
          p: 1,
          opacity: 0,
          transition: 'opacity 150ms',
          background: 'linear-gradient(transparent, rgba(0,0,0,0.75))',
        }}
      >
        {title}
      </Typography>
    </Box>
  );
}

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
export function ImageCarousel({ images, label }: { images: GalleryImage[]; label: string }) {
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
              <Slide image={image} />
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
      {Array.from({ length: 5 }, (_, index) => (
        <Box key={index} sx={{ flex: '0 0 auto', width: SLIDE_WIDTH, pl: `${GAP}px` }}>
          <Skeleton
            variant="rounded"
            sx={{ width: '100%', height: 'auto', aspectRatio: TILE_RATIO }}
          />
        </Box>
      ))}
    </Box>
  );
}
