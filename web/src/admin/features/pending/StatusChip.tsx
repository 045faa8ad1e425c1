import { Chip } from '@mui/material';

const STATUS: Record<string, { label: string; color: 'warning' | 'success' | 'error' }> = {
  pending: { label: 'In attesa', color: 'warning' },
  approved: { label: 'Approvata', color: 'success' },
  rejected: { label: 'Rifiutata', color: 'error' },
};

/** 'In attesa' for a pending image (SPEC §2); the other states have names of their own. */
export function StatusChip({ status }: { status: string }) {
  const known = STATUS[status];
  return (
    <Chip
      size="small"
      label={known?.label ?? status}
      color={known?.color ?? 'default'}
      variant="outlined"
    />
  );
}
