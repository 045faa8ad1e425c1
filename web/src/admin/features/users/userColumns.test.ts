import type { GridColDef } from '@mui/x-data-grid';
import { describe, expect, it } from 'vitest';
import type { AdminUser } from '../../types.js';
import { userColumns } from './userColumns.js';

const columns = userColumns({ onEdit: () => undefined, onDelete: () => undefined, selfId: 1 });

/** What the grid's CSV export writes for `value` in the column named `field` (its formatter). */
function exported(field: keyof AdminUser, value: unknown): unknown {
  const column: GridColDef<AdminUser> | undefined = columns.find((c) => c.field === field);
  const format = column?.valueFormatter as ((value: unknown) => unknown) | undefined;
  return format === undefined ? value : format(value);
}

describe('the users grid’s CSV export', () => {
  it('writes the account state in the words the Stato column shows, not vero/falso', () => {
    expect(exported('is_active', true)).toBe('Attivo');
    expect(exported('is_active', false)).toBe('Disattivato');
  });
});
