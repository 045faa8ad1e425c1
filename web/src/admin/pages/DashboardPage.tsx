import { Box, Link, Stack } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { BreakableName } from '../../components/BreakableName.js';
import { categoryDisplayName, formatCount } from '../../lib/format.js';
import { AdminPage } from '../components/AdminPage.js';
import { ActivityCharts } from '../features/dashboard/ActivityCharts.js';
import { useAdminStats } from '../features/dashboard/adminStats.js';
import { StatCards } from '../features/dashboard/StatCards.js';
import { TopTable, type TopColumn } from '../features/dashboard/TopTable.js';
import { adminErrorMessage } from '../shape.js';
import type { AdminStats } from '../types.js';

type Ranked = { name: string; count: number };
type ActiveUser = AdminStats['most_active_users'][number];

const CATEGORY_COLUMNS: readonly TopColumn<Ranked>[] = [
  { header: 'Categoria', render: (row) => categoryDisplayName(row.name) },
  { header: 'Immagini', numeric: true, render: (row) => formatCount(row.count) },
];

const TAG_COLUMNS: readonly TopColumn<Ranked>[] = [
  { header: 'Tag', render: (row) => row.name },
  { header: 'Immagini', numeric: true, render: (row) => formatCount(row.count) },
];

const USER_COLUMNS: readonly TopColumn<ActiveUser>[] = [
  {
    header: 'Utente',
    render: (row) => (
      <Link component={RouterLink} to={`/admin/users/${row.id_utente}/edit`} color="inherit">
        <BreakableName name={row.username} />
      </Link>
    ),
  },
  { header: 'Immagini (×5)', numeric: true, render: (row) => formatCount(row.image_score) },
  {
    header: 'Interazioni (×1)',
    numeric: true,
    render: (row) => formatCount(row.interaction_score),
  },
  {
    header: 'Totale',
    numeric: true,
    render: (row) => <strong>{formatCount(row.total_score)}</strong>,
  },
];

/** /admin/dashboard (SPEC §2 'Admin dashboard', issue 6). */
export default function DashboardPage() {
  const stats = useAdminStats();
  return (
    <AdminPage
      title="Dashboard Amministratore"
      loading={stats.isPending}
      error={
        stats.isError
          ? adminErrorMessage(stats.error, 'Errore nel caricamento delle statistiche')
          : null
      }
    >
      {stats.data === undefined ? null : (
        <Stack spacing={3}>
          <StatCards totals={stats.data.total_stats} />
          <ActivityCharts daily={stats.data.daily} />
          <Box
            sx={{
              display: 'grid',
              gap: 2,
              gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: '1fr 1fr' },
              alignItems: 'start',
            }}
          >
            <TopTable
              title="Top 20 Categorie"
              columns={CATEGORY_COLUMNS}
              rows={stats.data.top_categories}
              rowKey={(row) => row.name}
              emptyText="Nessuna categoria con immagini."
            />
            <TopTable
              title="Top 20 Tag"
              columns={TAG_COLUMNS}
              rows={stats.data.top_tags}
              rowKey={(row) => row.name}
              emptyText="Nessun tag con immagini."
            />
          </Box>
          <TopTable
            title="Top 20 Utenti Più Attivi"
            caption="Punteggio: 5 punti per ogni immagine pubblicata, 1 per ogni interazione."
            columns={USER_COLUMNS}
            rows={stats.data.most_active_users}
            rowKey={(row) => row.id_utente}
            emptyText="Nessun utente attivo."
          />
        </Stack>
      )}
    </AdminPage>
  );
}
