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
import { formatCount } from './dashboardFormat.js';

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
  const content = (
    <CardContent sx={{ display: 'flex', alignItems: 'flex-start', gap: 1.5, height: '100%' }}>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Typography id={titleId} variant="body2" color="text.secondary" noWrap>
          {label}
        </Typography>
        <Typography
          variant="h4"
          component="p"
          sx={{ mt: 0.5, color: highlight ? 'secondary.main' : 'text.primary' }}
        >
          {formatCount(value)}
        </Typography>
        {hint === undefined ? null : (
          <Typography
            variant="caption"
            color="text.secondary"
            sx={{ display: 'flex', alignItems: 'center' }}
          >
            {hint}
            {to === undefined ? null : <ChevronRightIcon fontSize="inherit" />}
          </Typography>
        )}
      </Box>
      <Icon color={highlight ? 'secondary' : 'action'} />
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

/** The totals of SPEC §2, plus the moderation queue an administrator wants at a glance. */
export function StatCards({ totals }: { totals: AdminStats['total_stats'] }) {
  const pending = totals.pending_images;
  return (
    <Box
      sx={{
        display: 'grid',
        gap: 2,
        gridTemplateColumns: { xs: 'repeat(2, 1fr)', sm: 'repeat(3, 1fr)', lg: 'repeat(6, 1fr)' },
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
        hint={pending === 0 ? 'Nessuna da moderare' : 'Da moderare'}
        to="/admin/pending-images"
        highlight={pending > 0}
      />
    </Box>
  );
}
