import { Box, Paper, Typography, useTheme } from '@mui/material';
import type { AxisValueFormatterContext } from '@mui/x-charts/models';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart, lineClasses } from '@mui/x-charts/LineChart';
import { useId, type ReactNode } from 'react';
import type { AdminStats } from '../../types.js';
import { formatCount } from '../../../lib/format.js';
import { activitySeries, formatChartDay } from './dashboardFormat.js';

/* MUI X Charts ships no Italian texts; these are the ones a chart can show on its own. */
const CHART_TEXTS = { loading: 'Caricamento…', noData: 'Nessun dato' };
const CHART_HEIGHT = 260;

/** Short days on the axis, the whole date in the tooltip. */
function dayLabel(day: unknown, context: AxisValueFormatterContext): string {
  const text = typeof day === 'string' ? day : '';
  return formatChartDay(text, context.location === 'tick' ? 'short' : 'long');
}

function ChartPanel({
  title,
  summary,
  children,
}: {
  title: string;
  summary: string;
  children: ReactNode;
}) {
  const titleId = useId();
  return (
    <Paper
      component="figure"
      aria-labelledby={titleId}
      variant="outlined"
      sx={{ m: 0, p: 2, minWidth: 0 }}
    >
      <Typography id={titleId} variant="h6" component="h2">
        {title}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {summary}
      </Typography>
      {children}
    </Paper>
  );
}

/**
 * Uploads and interactions per day over the last 30 days (issue 6): a trend reads faster from
 * a plot than from a table. Two charts rather than one with two series: interactions outnumber
 * uploads by far, and on a shared scale the uploads would lie flat on the axis.
 */
export function ActivityCharts({ daily }: { daily: AdminStats['daily'] }) {
  const theme = useTheme();
  const series = activitySeries(daily);
  return (
    <Box
      sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: '1fr 1fr' } }}
    >
      <ChartPanel
        title="Caricamenti al giorno"
        summary={`${formatCount(series.totalUploads)} negli ultimi 30 giorni`}
      >
        <BarChart
          height={CHART_HEIGHT}
          localeText={CHART_TEXTS}
          xAxis={[
            { scaleType: 'band', data: series.days, valueFormatter: dayLabel, label: 'Giorno' },
          ]}
          yAxis={[{ label: 'Caricamenti', tickMinStep: 1, width: 56 }]}
          series={[
            { data: series.uploads, label: 'Caricamenti', color: theme.palette.secondary.main },
          ]}
          grid={{ horizontal: true }}
          borderRadius={3}
        />
      </ChartPanel>
      <ChartPanel
        title="Interazioni al giorno"
        summary={`${formatCount(series.totalInteractions)} negli ultimi 30 giorni`}
      >
        <LineChart
          height={CHART_HEIGHT}
          localeText={CHART_TEXTS}
          xAxis={[
            { scaleType: 'point', data: series.days, valueFormatter: dayLabel, label: 'Giorno' },
          ]}
          yAxis={[{ label: 'Interazioni', tickMinStep: 1, width: 56 }]}
          series={[
            {
              data: series.interactions,
              label: 'Interazioni',
              color: theme.palette.info.light,
              area: true,
              showMark: false,
              // Straight segments: a smoothed curve would suggest values between the days.
              curve: 'linear',
            },
          ]}
          grid={{ horizontal: true }}
          // A solid area would hide the grid lines the values are read against.
          sx={{ [`& .${lineClasses.area}`]: { fillOpacity: 0.25 } }}
        />
      </ChartPanel>
    </Box>
  );
}
