import {
  DataGrid,
  type GridColDef,
  type GridRowSelectionModel,
  type GridValidRowModel,
} from '@mui/x-data-grid';
import { itIT } from '@mui/x-data-grid/locales';
import { useMemo } from 'react';
import { formatCount, formatDateTime } from '../../lib/format.js';

/** SPEC §9: page sizes 10/25/50/100, 25 first. */
export const PAGE_SIZES = [10, 25, 50, 100];

const localeText = itIT.components.MuiDataGrid.defaultProps.localeText;

/**
 * The toolbar's CSV export, for the spreadsheet an Italian administrator opens it with: Excel
 * in Italian splits columns on ';' (its list separator; a ',' file lands in one column, and
 * the dates' own comma would split them) and reads a file without the UTF-8 byte order mark as
 * Windows-1252, so 'Città' came out 'CittÃ '.
 */
const CSV_OPTIONS = { delimiter: ';', utf8WithBom: true } as const;

export const EMPTY_SELECTION: GridRowSelectionModel = { type: 'include', ids: new Set() };

/**
 * The selection after a bulk action: only the rows it could not handle, so the administrator
 * sees them and can try again.
 */
export function selectionOf(ids: readonly number[]): GridRowSelectionModel {
  return { type: 'include', ids: new Set(ids) };
}

/** The ids a selection model stands for, whether it lists them or lists the exceptions. */
export function selectedIds<Row extends GridValidRowModel>(
  model: GridRowSelectionModel,
  rows: readonly Row[],
  idOf: (row: Row) => number,
): number[] {
  if (model.type === 'include') return [...model.ids].map(Number);
  return rows.map(idOf).filter((id) => !model.ids.has(id));
}

/** A date column in Italian format, Rome time; 'Errore data' when unparsable (SPEC §2). */
export function dateColumn<Row extends GridValidRowModel>(
  field: string,
  headerName = 'Creato il',
): GridColDef<Row> {
  return {
    field,
    headerName,
    width: 150,
    valueFormatter: (value: unknown) => formatDateTime(typeof value === 'string' ? value : ''),
  };
}

/**
 * Number columns written the Italian way whatever the browser's language: the grid's own
 * formatter is the browser's toLocaleString(), so an English browser showed '2,149' for a
 * score of 2149 and its CSV, opened by an Italian Excel (CSV_OPTIONS), read 2,149 as two
 * point something. Identifiers are written bare ('10000', never '10.000' or '10,000'); a
 * column with a formatter of its own keeps it.
 */
export function italianNumberColumns<Row extends GridValidRowModel>(
  columns: readonly GridColDef<Row>[],
): GridColDef<Row>[] {
  return columns.map((column) => {
    if (column.type !== 'number' || column.valueFormatter !== undefined) return column;
    const isId = column.headerName === 'ID' || column.field.startsWith('id_');
    return {
      ...column,
      valueFormatter: (value: unknown) =>
        typeof value !== 'number' ? '' : isId ? String(value) : formatCount(value),
    };
  });
}

interface AdminGridProps<Row extends GridValidRowModel> {
  rows: readonly Row[];
  columns: readonly GridColDef<Row>[];
  getRowId: (row: Row) => number;
  label: string;
  loading?: boolean;
  selection?: GridRowSelectionModel;
  onSelectionChange?: (model: GridRowSelectionModel) => void;
  rowHeight?: number;
  emptyText?: string;
  /** Rows that no bulk action applies to get no checkbox tick (a row a server always refuses). */
  isRowSelectable?: (row: Row) => boolean;
}

/**
 * Every admin list (SPEC §2): client-side paging 10/25/50/100 (25 first), checkbox selection
 * that a row click does not trigger, a toolbar with columns, filters, export and quick search,
 * height 600 px, Italian texts.
 */
export function AdminGrid<Row extends GridValidRowModel>({
  rows,
  columns,
  getRowId,
  label,
  loading = false,
  selection,
  onSelectionChange,
  rowHeight,
  emptyText,
  isRowSelectable,
}: AdminGridProps<Row>) {
  const shownColumns = useMemo(() => italianNumberColumns(columns), [columns]);
  return (
    <div style={{ height: 600, width: '100%' }}>
      <DataGrid
        rows={rows}
        columns={shownColumns}
        getRowId={getRowId}
        label={label}
        loading={loading}
        showToolbar
        slotProps={{ toolbar: { csvOptions: CSV_OPTIONS } }}
        checkboxSelection
        disableRowSelectionOnClick
        // 'Select all' lists the rows it ticked. As an exclude model ('every row but none') it
        // stood for whatever the list held later: ticking the two matches of a search, then
        // clearing the search, selected every row of the list for the bulk actions, and a
        // reload selected the rows it brought in.
        disableRowSelectionExcludeModel
        // A page holds at most 100 rows: rendering every cell keeps the actions column (last,
        // per SPEC) in the page for keyboards, screen readers and find-in-page, which column
        // virtualisation would leave out until scrolled to.
        disableVirtualization
        pageSizeOptions={PAGE_SIZES}
        initialState={{ pagination: { paginationModel: { pageSize: 25, page: 0 } } }}
        localeText={
          emptyText === undefined ? localeText : { ...localeText, noRowsLabel: emptyText }
        }
        {...(rowHeight === undefined ? {} : { rowHeight })}
        {...(isRowSelectable === undefined
          ? {}
          : { isRowSelectable: (params: { row: Row }) => isRowSelectable(params.row) })}
        {...(selection === undefined ? {} : { rowSelectionModel: selection })}
        {...(onSelectionChange === undefined
          ? {}
          : { onRowSelectionModelChange: onSelectionChange })}
        sx={{
          bgcolor: 'background.paper',
          // The grid hides its page-size menu below 600 px, leaving a phone on 25 rows a page:
          // the menu stays (SPEC's 10/25/50/100 are for every screen), its label, which does
          // not fit beside it, hidden but still naming it.
          '& .MuiDataGrid-footerContainer .MuiTablePagination-input': { display: 'inline-flex' },
          // The actions stay in view at the right edge (SPEC puts them last): with every column
          // of 'Gestione Utenti' or 'Gestione Immagini' a grid is twice as wide as a laptop's
          // screen, and they were out of sight without a sign they were there. The community
          // grid has no pinned columns, so the cells stick by CSS over the scrolled ones.
          '& .MuiDataGrid-cell[data-field="actions"], & .MuiDataGrid-columnHeader[data-field="actions"]':
            {
              position: 'sticky',
              right: 0,
              zIndex: 1,
              bgcolor: 'background.paper',
              boxShadow: '-6px 0 6px -6px rgba(0, 0, 0, 0.8)',
            },
        }}
      />
    </div>
  );
}
