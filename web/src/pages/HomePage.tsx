import ArrowForwardIcon from '@mui/icons-material/ArrowForward';
import { Box, Link, Typography } from '@mui/material';
import { useDeferredValue, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { CarouselSkeleton, ImageCarousel } from '../components/ImageCarousel.js';
import { imageListError, InfiniteGallery } from '../components/InfiniteGallery.js';
import { ScrollTopButton } from '../components/ScrollTopButton.js';
import { EmptyMessage, ErrorMessage, Loading } from '../components/StatusMessage.js';
import { useNearViewport } from '../components/useNearViewport.js';
import { useInBatches } from '../components/useInBatches.js';
import { usePageTitle } from '../components/usePageTitle.js';
import { usePopularCategories } from '../features/categories/api.js';
import { useCategoryCarousel } from '../features/categories/categoryImages.js';
import { TrendingProblem, useTrendingImages } from '../features/images/trendingImages.js';
import { useImagePages } from '../features/images/useImagePages.js';
import { categoryDisplayName } from '../lib/format.js';
import type { Category } from '../lib/types.js';

/** SPEC §9: 20 category carousels on home; the gallery loads 120 at a time. */
const HOME_CATEGORIES = 20;
/** The category sections committed together: more than a tall screen shows under the week's. */
const CATEGORIES_AT_ONCE = 4;
const GALLERY_PAGE = 120;
/** A category carousel asks for its pictures when it is this close to the viewport. */
const CAROUSEL_MARGIN = 600;
/** The gallery asks for its first page this close, as far ahead as it asks for the next ones. */
const GALLERY_MARGIN = 2000;
const WEEK_TITLE = 'Le scritte della settimana';

/** The page's heading, for screen readers and the outline; the sections speak for the eye. */
const visuallyHidden = {
  position: 'absolute',
  // In sx a bare 1 would mean 100%.
  width: '1px',
  height: '1px',
  margin: '-1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

function Section({
  id,
  title,
  children,
  sectionRef,
}: {
  id: string;
  title: ReactNode;
  children: ReactNode;
  sectionRef?: (node: Element | null) => void;
}) {
  return (
    <Box ref={sectionRef} component="section" aria-labelledby={id} sx={{ mb: { xs: 4, md: 5 } }}>
      <Typography id={id} variant="h5" component="h2" sx={{ fontWeight: 800, mb: 1.5 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

function TrendingSection() {
  const trending = useTrendingImages();
  let body: ReactNode;
  if (trending.isPending) body = <CarouselSkeleton />;
  else if (trending.isError)
    body = (
      <ErrorMessage
        message={
          trending.error instanceof TrendingProblem
            ? trending.error.message
            : imageListError(trending.error)
        }
      />
    );
  else if (trending.data.received === 0)
    body = <EmptyMessage message="Nessuna immagine disponibile" />;
  else if (trending.data.images.length === 0)
    body = <EmptyMessage message="Nessuna immagine trending disponibile" />;
  else body = <ImageCarousel images={trending.data.images} label={WEEK_TITLE} eager />;
  return (
    <Section id="home-trending" title={WEEK_TITLE}>
      {body}
    </Section>
  );
}

/** One popular category: its title leads to its page; its pictures load as it comes near. */
function CategoryCarousel({ category }: { category: Category }) {
  const [ref, near] = useNearViewport(CAROUSEL_MARGIN);
  const images = useCategoryCarousel(category.id_categoria, near);
  // Its slides drawn in a background render (in slices), not in the render the answer
  // triggers, which React never cuts (goal 8: blocking time); the skeleton stays meanwhile.
  const data = useDeferredValue(images.data);
  const name = categoryDisplayName(category.nome);
  const headingId = `home-category-${category.id_categoria}`;
  let body: ReactNode;
  if (images.isError) body = <ErrorMessage message={imageListError(images.error)} />;
  else if (data === undefined) body = <CarouselSkeleton />;
  else if (data.images.length === 0) return null;
  else body = <ImageCarousel images={data.images} label={name} />;
  return (
    <Section
      id={headingId}
      sectionRef={ref}
      title={
        <Link
          component={RouterLink}
          to={`/category/${category.id_categoria}`}
          underline="hover"
          color="inherit"
          sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}
        >
          {name}
          <ArrowForwardIcon fontSize="small" sx={{ color: 'secondary.main' }} aria-hidden />
        </Link>
      }
    >
      {body}
    </Section>
  );
}

function CategoryCarousels({ categories }: { categories: Category[] }) {
  return (
    <>
      {categories.map((category) => (
        <CategoryCarousel key={category.id_categoria} category={category} />
      ))}
    </>
  );
}

function AllImagesSection() {
  // Below twenty carousels: its 120 pictures wait until the reader comes near, like the
  // carousels' own, instead of being drawn while the first screen is still loading (goal 8:
  // that render was one of the long tasks of the mobile load).
  const [ref, near] = useNearViewport(GALLERY_MARGIN);
  const query = useImagePages('/images', GALLERY_PAGE, near);
  return (
    <Section id="home-all" title="Tutte le nostre immagini" sectionRef={ref}>
      {near ? (
        <InfiniteGallery
          query={query}
          emptyText="Nessuna immagine trovata"
          rootMargin={GALLERY_MARGIN}
        />
      ) : (
        <Loading />
      )}
    </Section>
  );
}

/** SPEC §2 home: the week's writings, a carousel per popular category, then everything. */
export default function HomePage() {
  usePageTitle();
  const popular = usePopularCategories(HOME_CATEGORIES);
  // Twenty sections drawn in background renders, which React cuts into slices, not in the
  // render the answer triggers (React Query's updates are never cut), and committed a few at a
  // time (the first ones fill a screen): goal 8, blocking time.
  const categories = useInBatches(useDeferredValue(popular.data), CATEGORIES_AT_ONCE);
  // All drawn, or failed (no list to draw); a refetch keeps the sections drawn meanwhile.
  const drawn = categories.complete || (!popular.isPending && popular.data === undefined);
  return (
    <>
      <Typography component="h1" sx={visuallyHidden}>
        Muri Parlanti
      </Typography>
      <TrendingSection />
      <CategoryCarousels categories={categories.items ?? []} />
      {/* Below the carousels once they are drawn: shown earlier, it would jump down the page
          when they arrive (layout shift). A failed list only leaves the carousels out. */}
      {drawn && <AllImagesSection />}
      <ScrollTopButton threshold={200} />
    </>
  );
}
