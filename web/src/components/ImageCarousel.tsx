import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import { Box, IconButton } from '@mui/material';
import { keyframes } from '@mui/material/styles';
import useEmblaCarousel from 'embla-carousel-react';
import { useCallback, useDeferredValue, useEffect, useRef, useState } from 'react';
import type { GalleryImage } from '../lib/types.js';
import { ImageCard, SLIDE_RATIO } from './ImageCard.js';

/** SPEC §9: 5 pictures side by side on desktop, 2 on small screens. */
const SLIDE_WIDTH = { xs: '50%', sm: '20%' };
const GAP = 12;
/** The most slides in view at once (desktop): the ones an eager carousel loads at once. */
const SLIDES_IN_VIEW = 5;

const ARROW_SIZE = { xs: 32, sm: 40 };

/*
 * The arrows sit in a row of their own under the slides, at its right end: drawn over the
 * slides they hid part of a picture, on a phone a good part of its two. The row is there from
 * the first paint (under the skeleton too) and keeps its height when there are no arrows, so
 * nothing moves when embla starts and they appear.
 */
const controlsSx = {
  display: 'flex',
  justifyContent: 'flex-end',
  gap: 1,
  mt: 1,
  height: ARROW_SIZE,
} as const;

const arrowSx = {
  border: 1,
  borderColor: 'divider',
  width: ARROW_SIZE,
  height: ARROW_SIZE,
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
  const [startEmbla, embla] = useEmblaCarousel({
    loop: true,
    align: 'start',
    slidesToScroll: 'auto',
  });
  const viewport = useRef<HTMLDivElement>(null);
  const started = useRef(false);
  const start = useCallback(() => {
    if (started.current || viewport.current === null) return;
    started.current = true;
    startEmbla(viewport.current);
  }, [startEmbla]);
  // Until embla starts, the row stands still exactly as embla lays it out (first slide at the
  // start). Embla measures every slide (a forced layout of the page) when it starts, so it
  // starts only once the carousel is on screen, when the browser is idle: the home page's
  // twenty carousels are no longer a long task each while the page loads (goal 8). A pointer
  // or the focus arriving first starts it at once; embla then still sees that very pointerdown
  // (listeners added during a dispatch to nodes it has not reached yet are called).
  useEffect(() => {
    const node = viewport.current;
    if (node === null) return;
    let idle: number | undefined;
    const observer = new IntersectionObserver((entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      observer.disconnect();
      idle =
        typeof requestIdleCallback === 'function'
          ? requestIdleCallback(start, { timeout: 3000 })
          : window.setTimeout(start, 0);
    });
    observer.observe(node);
    return () => {
      observer.disconnect();
      if (idle === undefined) return;
      if (typeof cancelIdleCallback === 'function') cancelIdleCallback(idle);
      else clearTimeout(idle);
    };
  }, [start]);
  // The slides a screen shows first; the others follow in a render of their own, which React
  // works through in slices while the page stays responsive.
  const slides = useDeferredValue(images, images.slice(0, SLIDES_IN_VIEW));
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
      onPointerDownCapture={start}
      onPointerEnter={start}
      onFocusCapture={start}
    >
      <Box
        ref={viewport}
        sx={{ overflow: 'hidden', touchAction: 'pan-y pinch-zoom', userSelect: 'none' }}
      >
        <Box sx={{ display: 'flex', ml: `-${GAP}px` }}>
          {slides.map((image, index) => (
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
      <Box sx={controlsSx}>
        {/* Only when there is somewhere to go: drawn before embla starts (hidden, as disabled
            buttons were), they were MUI buttons and emotion classes in every carousel's commit,
            the page's first one included (goal 8: total blocking time). */}
        {canScroll && (
          <>
            <IconButton aria-label="Immagini precedenti" onClick={previous} sx={arrowSx}>
              <ChevronLeftIcon />
            </IconButton>
            <IconButton aria-label="Immagini successive" onClick={next} sx={arrowSx}>
              <ChevronRightIcon />
            </IconButton>
          </>
        )}
      </Box>
    </Box>
  );
}

const pulse = keyframes`
  0% { opacity: 1; }
  50% { opacity: 0.4; }
  100% { opacity: 1; }
`;

/**
 * The carousel's place while its pictures are on their way: same height, no jump. Drawn as
 * MUI's rounded, pulsing Skeleton looks, from plain elements styled once by their row: the
 * home page draws twenty of these at once, and a hundred Skeleton components were a good part
 * of its first render on a phone (goal 8).
 */
export function CarouselSkeleton() {
  return (
    <Box aria-hidden>
      <Box
        sx={{
          display: 'flex',
          ml: `-${GAP}px`,
          overflow: 'hidden',
          '& > div': { flex: '0 0 auto', width: SLIDE_WIDTH, pl: `${GAP}px` },
          '& > div > div': {
            aspectRatio: SLIDE_RATIO,
            borderRadius: 1,
            bgcolor: 'rgba(255, 255, 255, 0.13)',
            animation: `${pulse} 2s ease-in-out 0.5s infinite`,
          },
        }}
      >
        {Array.from({ length: SLIDES_IN_VIEW }, (_, index) => (
          <div key={index}>
            <div />
          </div>
        ))}
      </Box>
      <Box sx={controlsSx} />
    </Box>
  );
}
