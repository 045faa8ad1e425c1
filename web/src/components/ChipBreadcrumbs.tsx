import HomeIcon from '@mui/icons-material/Home';
import { Breadcrumbs, Chip } from '@mui/material';
import { Link as RouterLink } from 'react-router';

export interface Crumb {
  label: string;
  /** Where the chip leads; the last crumb (the page itself) usually has none. */
  to?: string;
}

/** SPEC §2 breadcrumb chips: Home first, then the given crumbs; the last one is the page. */
export function ChipBreadcrumbs({ crumbs }: { crumbs: Crumb[] }) {
  return (
    <Breadcrumbs aria-label="Percorso" sx={{ mb: 2 }}>
      <Chip
        component={RouterLink}
        to="/"
        clickable
        size="small"
        icon={<HomeIcon fontSize="small" />}
        label="Home"
      />
      {crumbs.map((crumb, index) =>
        crumb.to === undefined ? (
          <Chip
            key={crumb.label}
            size="small"
            label={crumb.label}
            aria-current={index === crumbs.length - 1 ? 'page' : undefined}
          />
        ) : (
          <Chip
            key={crumb.label}
            component={RouterLink}
            to={crumb.to}
            clickable
            size="small"
            label={crumb.label}
          />
        ),
      )}
    </Breadcrumbs>
  );
}
