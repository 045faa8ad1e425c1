import type { GridColDef } from '@mui/x-data-grid';
import { describe, expect, it } from 'vitest';
import { italianNumberColumns } from './AdminGrid.js';

type Row = { id_image: number; likes: number; size: number };

/** What the grid shows (and its CSV holds) for `value` in the column named `field`. */
function shown(columns: GridColDef<Row>[], field: string, value: unknown): unknown {
  const column = columns.find((candidate) => candidate.field === field);
  const format = column?.valueFormatter as ((value: unknown) => unknown) | undefined;
  return format === undefined ? value : format(value);
}

describe('the admin grids’ numbers', () => {
  const columns = italianNumberColumns<Row>([
    { field: 'id_image', headerName: 'ID', type: 'number' },
    { field: 'likes', headerName: 'Mi piace', type: 'number' },
    { field: 'size', type: 'number', valueFormatter: () => '1,00 KB' },
    { field: 'titolo_img' },
  ]);

  it('writes counts the Italian way whatever the browser’s language', () => {
    expect(shown(columns, 'likes', 12345)).toBe('12.345');
    expect(shown(columns, 'likes', 0)).toBe('0');
  });

  it('writes identifiers bare', () => {
    expect(shown(columns, 'id_image', 10000)).toBe('10000');
  });

  it('keeps a column’s own formatter and leaves other columns alone', () => {
    expect(shown(columns, 'size', 1024)).toBe('1,00 KB');
    expect(columns[3]).toEqual({ field: 'titolo_img' });
  });
});
