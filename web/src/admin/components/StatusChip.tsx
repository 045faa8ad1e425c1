import { Chip } from '@mui/material';
import { statusLook } from '../status.js';

/** An image's moderation status as a chip: 'In attesa' for a pending one (SPEC §2). */
export function StatusChip({ status }: { status: string }) {
  const look = statusLook(status);
  return <Chip size="small" label={look.label} color={look.color} variant="outlined" />;
}
