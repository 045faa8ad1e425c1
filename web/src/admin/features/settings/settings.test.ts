import { describe, expect, it } from 'vitest';
import { INVALID_SHAPE_MESSAGE } from '../../shape.js';
import type { ServerSettings } from '../../types.js';
import { parseSettings } from './settings.js';
import {
  bytesToMegabytes,
  draftChanges,
  draftOf,
  megabytesToBytes,
  type SettingsDraft,
} from './settingsForm.js';

const SAVED: ServerSettings = {
  registrations_open: true,
  upload_max_bytes: 5 * 1024 * 1024,
  moderation_emails: true,
};

describe('the upload limit in megabytes', () => {
  it('shows bytes as megabytes with an Italian comma', () => {
    expect(bytesToMegabytes(5 * 1024 * 1024)).toBe('5');
    expect(bytesToMegabytes(2.5 * 1024 * 1024)).toBe('2,5');
    expect(bytesToMegabytes(100 * 1024)).toBe('0,1');
  });

  it('reads a comma or a point, and refuses what is not a number', () => {
    expect(megabytesToBytes('2,5')).toBe(2621440);
    expect(megabytesToBytes(' 2.5 ')).toBe(2621440);
    expect(megabytesToBytes('5')).toBe(5242880);
    expect(megabytesToBytes('0,1')).toBe(104858);
    for (const text of ['', ' ', 'cinque', '-1', '2,5,1', '1e3', '2 MB']) {
      expect(megabytesToBytes(text)).toBeNull();
    }
  });
});

describe('what the settings form sends', () => {
  const draft = (changes: Partial<SettingsDraft>): SettingsDraft => ({
    ...draftOf(SAVED),
    ...changes,
  });

  it('sends nothing while nothing changed', () => {
    expect(draftChanges(SAVED, draftOf(SAVED))).toEqual({ valid: true, changes: {} });
    // The same limit typed differently is no change either.
    expect(draftChanges(SAVED, draft({ uploadMegabytes: '5,0' }))).toEqual({
      valid: true,
      changes: {},
    });
  });

  it('sends only the settings that changed', () => {
    expect(draftChanges(SAVED, draft({ registrations_open: false }))).toEqual({
      valid: true,
      changes: { registrations_open: false },
    });
    expect(
      draftChanges(SAVED, draft({ moderation_emails: false, uploadMegabytes: '2,5' })),
    ).toEqual({ valid: true, changes: { moderation_emails: false, upload_max_bytes: 2621440 } });
  });

  it('leaves a limit shown rounded alone until it is edited', () => {
    const saved = { ...SAVED, upload_max_bytes: 100 * 1024 };
    expect(draftChanges(saved, draftOf(saved))).toEqual({ valid: true, changes: {} });
  });

  it('passes out-of-range limits to the server, which says why it refuses them', () => {
    expect(draftChanges(SAVED, draft({ uploadMegabytes: '10' }))).toEqual({
      valid: true,
      changes: { upload_max_bytes: 10 * 1024 * 1024 },
    });
  });

  it('cannot send a limit that is not a number', () => {
    expect(draftChanges(SAVED, draft({ uploadMegabytes: 'tanto' }))).toEqual({ valid: false });
  });
});

describe('the settings answer', () => {
  it('keeps the three settings', () => {
    expect(parseSettings({ ...SAVED, extra: 1 })).toEqual(SAVED);
  });

  it.each([
    ['a list', []],
    ['a missing setting', { registrations_open: true, upload_max_bytes: 1 }],
    ['a flag as text', { ...SAVED, registrations_open: 'true' }],
    ['a limit as text', { ...SAVED, upload_max_bytes: '5242880' }],
  ])('refuses %s', (_case, value) => {
    expect(() => parseSettings(value)).toThrow(INVALID_SHAPE_MESSAGE);
  });
});
