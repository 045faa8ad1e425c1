import CategoryIcon from '@mui/icons-material/Category';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import CollectionsIcon from '@mui/icons-material/Collections';
import HourglassTopIcon from '@mui/icons-material/HourglassTop';
import LocalOfferIcon from '@mui/icons-material/LocalOffer';
import PeopleIcon from '@mui/icons-material/People';
import TouchAppIcon from '@mui/icons-material/TouchApp';
import type { SvgIconComponent } from '@mui/icons-material';
import { Box, Card, CardActionArea, CardContent, Typography } from '@mui/material';
import { useId } from 'react';
import { Link as RouterLink } from 'react-router';
import type { AdminStats } from '../../types.js';
import { formatCount } from '../../../lib/format.js';

interface StatCardProps {
  label: string;
  value: number;
  icon: SvgIconComponent;
  /** A hint under the figure. */
  hint?: string;
  /** Where the card leads, when there is something to do about its figure. */
  to?: string;
  /** Draws the eye: there is work waiting. */
  highlight?: boolean;
}

function StatCard({ label, value, icon: Icon, hint, to, highlight = false }: StatCardProps) {
  const titleId = useId();
  // A grid rather than a row beside the icon: the figure and the hint take the card's whole
  // width, so 'Da moderare ›' stays on one line on a laptop's six narrow cards.
  const content = (
    <CardContent
      sx={{
        display: 'grid',
        gridTemplateColumns: 'minmax(0, 1fr) auto',
        columnGap: 1.5,
        alignContent: 'start',
        height: '100%',
      }}
    >
      <Typography id={titleId} variant="body2" color="text.secondary" noWrap>
        {label}
      </Typography>
      <Icon color={highlight ? 'secondary' : 'action'} />
      <Typography
        variant="h4"
        component="p"
        sx={{
          gridColumn: '1 / -1',
          mt: 0.5,
          color: highlight ? 'secondary.main' : 'text.primary',
        }}
      >
        {formatCount(value)}
      </Typography>
      {hint === undefined ? null : (
        <Typography
          variant="caption"
          color="text.secondary"
          sx={{
            gridColumn: '1 / -1',
            display: 'flex',
            alignItems: 'center',
            // A phrase and its chevron read as one; the cards are wide enough for the longest.
            whiteSpace: 'nowrap',
          }}
        >
          {hint}
          {to === undefined ? null : <ChevronRightIcon fontSize="inherit" />}
        </Typography>
      )}
    </CardContent>
  );
  return (
    <Card
      role="group"
      aria-labelledby={titleId}
      variant="outlined"
      sx={{ height: '100%', borderColor: highlight ? 'secondary.main' : undefined }}
    >
      {to === undefined ? (
        content
      ) : (
        <CardActionArea component={RouterLink} to={to} sx={{ height: '100%' }}>
          {content}
        </CardActionArea>
      )}
    </Card>
  );
}

/**
 * The narrowest card whose longest label ('Interazioni', 76 px here) fits beside its icon, with
 * a tenth to spare for wider system fonts.
 */
const CARD_MIN_WIDTH = 152;
const CARD_GAP = 16;
const rowWidth = (cards: number) => cards * CARD_MIN_WIDTH + (cards - 1) * CARD_GAP;

/** The totals of SPEC §2, plus the moderation queue an administrator wants at a glance. */
export function StatCards({ totals }: { totals: AdminStats['total_stats'] }) {
  const pending = totals.pending_images;
  return (
    // Columns by the width the cards get, not the window's: beside the side navigation a
    // 1200 px window left six cards too narrow for 'Interazioni' beside its icon.
    <Box sx={{ containerType: 'inline-size' }}>
      <Box
        sx={{
          display: 'grid',
          gap: `${CARD_GAP}px`,
          gridTemplateColumns: 'repeat(2, 1fr)',
          [`@container (min-width: ${rowWidth(3)}px)`]: { gridTemplateColumns: 'repeat(3, 1fr)' },
          [`@container (min-width: ${rowWidth(6)}px)`]: { gridTemplateColumns: 'repeat(6, 1fr)' },
        }}
      >
        <StatCard label="Utenti" value={totals.users} icon={PeopleIcon} />
        <StatCard label="Immagini" value={totals.images} icon={CollectionsIcon} hint="Pubblicate" />
        <StatCard label="Categorie" value={totals.categories} icon={CategoryIcon} />
        <StatCard label="Tag" value={totals.tags} icon={LocalOfferIcon} />
        <StatCard label="Interazioni" value={totals.interactions} icon={TouchAppIcon} />
        <StatCard
          label="In attesa"
          value={pending}
          icon={HourglassTopIcon}
          // One phrase for any figure ('0 … Da moderare' reads as well as '6'): 'Nessuna da
          // moderare' did not fit a laptop's six cards on one line.
          hint="Da moderare"
          to="/admin/pending-images"
          highlight={pending > 0}
        />
      </Box>
    </Box>
  );
}
