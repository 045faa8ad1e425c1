/** How an image's moderation status reads in the back-office (SPEC §2, D4): grids, chips. */
export interface StatusLook {
  label: string;
  color: 'warning' | 'success' | 'error' | 'default';
}

const LOOKS: Record<string, StatusLook> = {
  pending: { label: 'In attesa', color: 'warning' },
  approved: { label: 'Approvata', color: 'success' },
  rejected: { label: 'Rifiutata', color: 'error' },
};

/** The chip for a status; a value the client does not know yet is shown as it came. */
export function statusLook(status: string): StatusLook {
  return LOOKS[status] ?? { label: status, color: 'default' };
}
