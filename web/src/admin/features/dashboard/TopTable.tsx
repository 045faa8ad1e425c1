import {
  Paper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useId, type ReactNode } from 'react';

export interface TopColumn<Row> {
  header: string;
  /** Figures align right so their digits line up. */
  numeric?: boolean;
  render: (row: Row) => ReactNode;
}

interface TopTableProps<Row> {
  title: string;
  /** One sentence under the title saying how to read the table. */
  caption?: string;
  columns: readonly TopColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row, index: number) => string | number;
  emptyText: string;
}

/*
 * The dashboard's rankings are plain compact tables, not the admin Data Grid: they are read,
 * not worked on. Twenty fixed rows already in rank order need no paging, sorting, selection or
 * toolbar, and three 600 px grids would bury the figures an administrator came to glance at.
 */
export function TopTable<Row>({
  title,
  caption,
  columns,
  rows,
  rowKey,
  emptyText,
}: TopTableProps<Row>) {
  const titleId = useId();
  return (
    <Paper
      component="section"
      aria-labelledby={titleId}
      variant="outlined"
      sx={{ p: 2, minWidth: 0 }}
    >
      <Typography id={titleId} variant="h6" component="h2">
        {title}
      </Typography>
      {caption === undefined ? null : (
        <Typography variant="body2" color="text.secondary">
          {caption}
        </Typography>
      )}
      {rows.length === 0 ? (
        <Typography color="text.secondary" sx={{ py: 3 }}>
          {emptyText}
        </Typography>
      ) : (
        // Narrow phones scroll the table sideways instead of squeezing the figures.
        <TableContainer sx={{ mt: 1, overflowX: 'auto' }}>
          <Table
            size="small"
            aria-labelledby={titleId}
            // Tighter cells on phones so every column, the total above all, fits the screen.
            sx={{
              '& .MuiTableCell-root': {
                px: { xs: 0.75, sm: 2 },
                fontSize: { xs: '0.8125rem', sm: undefined },
              },
            }}
          >
            <TableHead>
              <TableRow>
                <TableCell sx={{ width: 32 }}>#</TableCell>
                {columns.map((column) => (
                  <TableCell
                    key={column.header}
                    align={column.numeric === true ? 'right' : 'left'}
                    sx={{ lineHeight: 1.3 }}
                  >
                    {column.header}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((row, index) => (
                <TableRow key={rowKey(row, index)} hover>
                  <TableCell sx={{ color: 'text.secondary' }}>{index + 1}</TableCell>
                  {columns.map((column) => (
                    <TableCell
                      key={column.header}
                      align={column.numeric === true ? 'right' : 'left'}
                      // Names are read in full: on a phone a long one wraps between its
                      // words (a username after its dots, BreakableName) instead of ending in
                      // an ellipsis; a single word wider than the column widens the table,
                      // which then scrolls sideways in its box.
                      sx={
                        column.numeric === true ? { fontVariantNumeric: 'tabular-nums' } : undefined
                      }
                    >
                      {column.render(row)}
                    </TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Paper>
  );
}
