import { Box, Typography } from '@mui/material';
import { useMemo, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import type { GalleryImage } from '../lib/types.js';
import { thumbHashDataUrl } from './thumbhash.js';

/**
 * One picture of a gallery: the box has the image's own proportions from the start (no layout
 * shift) and shows its blurred ThumbHash until the thumbnail arrives.
 */
export function ImageCard({ image, eager = false }: { image: GalleryImage; eager?: boolean }) {
  const [loaded, setLoaded] = useState(false);
  const blur = useMemo(() => thumbHashDataUrl(image.placeholder), [image.placeholder]);
  const title = image.titolo_img ?? 'Scritta sul muro';
  return (
    <Box
      component={RouterLink}
      to={`/image/${image.id_image}`}
      aria-label={title}
      sx={{
        display: 'block',
        position: 'relative',
        borderRadius: 2,
        overflow: 'hidden',
        bgcolor: 'background.paper',
        aspectRatio: `${image.width} / ${image.height}`,
        backgroundImage: blur === undefined ? undefined : `url(${blur})`,
        backgroundSize: 'cover',
        '&:hover .caption, &:focus-visible .caption': { opacity: 1 },
        '&:focus-visible': { outline: '2px solid', outlineColor: 'secondary.main' },
      }}
    >
      <Box
        component="img"
        src={image.thumbnail_url}
        srcSet={`${image.thumbnail_url} 400w, ${image.display_url} 1280w`}
        sizes="(max-width: 600px) 50vw, (max-width: 1200px) 33vw, 20vw"
        alt={title}
        width={image.width}
        height={image.height}
        loading={eager ? 'eager' : 'lazy'}
        decoding="async"
        onLoad={() => setLoaded(true)}
        sx={{
          display: 'block',
          width: '100%',
          height: '100%',
          objectFit: 'cover',
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
