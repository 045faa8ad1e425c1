import { describe, expect, it } from 'vitest';
import { statusLook } from './status.js';

describe('image status chip', () => {
  it('names the three statuses in Italian', () => {
    expect(statusLook('pending')).toEqual({ label: 'In attesa', color: 'warning' });
    expect(statusLook('approved')).toEqual({ label: 'Approvata', color: 'success' });
    expect(statusLook('rejected')).toEqual({ label: 'Rifiutata', color: 'error' });
  });

  it('shows an unknown status as it came, in a neutral chip', () => {
    expect(statusLook('archived')).toEqual({ label: 'archived', color: 'default' });
  });
});
