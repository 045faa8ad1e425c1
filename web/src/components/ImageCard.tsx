import { Box, Typography } from '@mui/material';
import { useMemo, type SyntheticEvent } from 'react';
import { Link as RouterLink } from 'react-router';
import { imageLinkLabel, imageTitle } from '../lib/imageText.js';
import type { GalleryImage } from '../lib/types.js';
import { cardRatio, isCardBounded } from './masonryColumns.js';
import { thumbHashDataUrl } from './thumbhash.js';

/**
 * Tiles of a carousel share one shape so a row stays even; most photos are 4:3. A picture of
 * another shape is shown whole (the writing is the point), over its own blurred colours.
 */
export const SLIDE_RATIO = '4 / 3';

interface ImageCardProps {
  image: GalleryImage;
  /**
   * 'masonry': the card has the picture's own proportions (within masonryColumns' bounds) and
   * fills them. 'slide': a carousel
   * tile of SLIDE_RATIO that never starts a native drag, so swiping the carousel works.
   */
  variant?: 'masonry' | 'slide';
  /** Load at once (the first row of a gallery) instead of when it comes near the screen. */
  eager?: boolean;
  /** The page's largest picture on arrival (its LCP): fetched before anything else. */
  priority?: boolean;
}

/**
 * One picture leading to its page: the box has its final size from the start (no layout
 * shift) and shows the blurred ThumbHash until the thumbnail arrives.
 */
export function ImageCard({
  image,
  variant = 'masonry',
  eager = false,
  priority = false,
}: ImageCardProps) {
  const slide = variant === 'slide';
  // A picture of a shape beyond the cards' bounds is shown whole in a card of the bound's shape.
  const whole = slide || isCardBounded(image);
  const blur = useMemo(() => thumbHashDataUrl(image.placeholder), [image.placeholder]);
  const label = imageLinkLabel(image);
  return (
    <Box
      component={RouterLink}
      to={`/image/${image.id_image}`}
      aria-label={label}
      draggable={slide ? false : undefined}
      // What differs from card to card goes in `style`: in `sx` every card made a class of its
      // own, the ThumbHash's data URL included, for emotion to hash and insert into the style
      // sheet; a gallery of 120 spent a long task on it (goal 8). The rest is one shared class.
      style={{
        aspectRatio: slide ? SLIDE_RATIO : `1 / ${String(cardRatio(image))}`,
        backgroundImage: blur === undefined ? undefined : `url(${blur})`,
      }}
      sx={{
        display: 'block',
        position: 'relative',
        borderRadius: 2,
        overflow: 'hidden',
        bgcolor: 'background.paper',
        backgroundSize: 'cover',
        backgroundPosition: 'center',
        '&:hover .caption, &:focus-visible .caption': { opacity: 1 },
        '&:focus-visible': {
          outline: '2px solid',
          outlineColor: 'secondary.main',
          // Inside the tile: a carousel's viewport would clip an outline drawn outside.
          outlineOffset: slide ? -2 : undefined,
        },
      }}
    >
      <Box
        component="img"
        ref={showIfLoaded}
        src={image.thumbnail_url}
        // Slides stay small; masonry columns can grow wide enough to want the display size.
        srcSet={slide ? undefined : `${image.thumbnail_url} 400w, ${image.display_url} 1280w`}
        sizes={slide ? undefined : '(max-width: 600px) 50vw, (max-width: 1200px) 33vw, 20vw'}
        // The link around it is named by the same words (aria-label): said once, not twice.
        alt=""
        width={image.width}
        height={image.height}
        loading={eager || priority ? 'eager' : 'lazy'}
        fetchPriority={priority ? 'high' : undefined}
        decoding="async"
        draggable={slide ? false : undefined}
        onLoad={showLoaded}
        sx={{
          display: 'block',
          width: '100%',
          height: '100%',
          objectFit: whole ? 'contain' : 'cover',
          ...fadeIn(200),
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
          // White on the dark gradient: inherited from the card, which is a link, the caption
          // took the browser's link colour (a lilac in the dark scheme, another once visited).
          color: 'common.white',
          background: 'linear-gradient(transparent, rgba(0,0,0,0.75))',
        }}
      >
        {imageTitle(image)}
      </Typography>
    </Box>
  );
}

/**
 * Pictures fade in once loaded, over their blurred placeholder. Whether one is loaded lives on
 * the <img> itself (`data-loaded`), not in React state: a picture already in the memory cache
 * (the one the server's first screen showed, web/src/boot.ts) is marked by its ref during the
 * commit, so the first paint shows it, and no render follows. As state, that mark was a second
 * render inside React's first commit, which also ran the page's effects (React Query's
 * subscriptions and fetches) in that same task, and every loaded picture re-rendered its card
 * with a class of its own for emotion to insert (goal 8: total blocking time).
 */
export function fadeIn(durationMs: number) {
  return {
    opacity: 0,
    transition: `opacity ${String(durationMs)}ms`,
    '&[data-loaded]': { opacity: 1 },
  } as const;
}

function markLoaded(img: HTMLImageElement): void {
  img.dataset['loaded'] = '';
}

/** The ref of a fading <img>: one already loaded is shown from the first paint. */
export function showIfLoaded(img: HTMLImageElement | null): void {
  if (img !== null && img.complete && img.naturalWidth > 0) markLoaded(img);
}

/** The `onLoad` of a fading <img>. */
export function showLoaded(event: SyntheticEvent<HTMLImageElement>): void {
  markLoaded(event.currentTarget);
}
