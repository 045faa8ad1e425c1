import type { ServerSettings } from '../../types.js';

const MB = 1024 * 1024;

const mbFormat = new Intl.NumberFormat('it-IT', { maximumFractionDigits: 2, useGrouping: false });

/** Bytes as the administrator edits them: megabytes with an Italian comma, '2,5'. */
export function bytesToMegabytes(bytes: number): string {
  return mbFormat.format(bytes / MB);
}

/** '2,5' or '2.5' megabytes in bytes; null when the text is not a plain positive number. */
export function megabytesToBytes(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d+(?:[.,]\d+)?$/.test(trimmed)) return null;
  return Math.round(Number(trimmed.replace(',', '.')) * MB);
}

/** What the form holds: the switches, and the limit as typed. */
export interface SettingsDraft {
  registrations_open: boolean;
  moderation_emails: boolean;
  uploadMegabytes: string;
}

export function draftOf(settings: ServerSettings): SettingsDraft {
  return {
    registrations_open: settings.registrations_open,
    moderation_emails: settings.moderation_emails,
    uploadMegabytes: bytesToMegabytes(settings.upload_max_bytes),
  };
}

export type DraftChanges =
  | { valid: true; changes: Partial<ServerSettings> }
  /** The limit is not a number: nothing can be sent until it is. */
  | { valid: false };

/**
 * Only the settings the administrator changed, so saving one never overwrites another that a
 * second administrator changed meanwhile (the server takes any subset). The limit counts as
 * unchanged while its text is the one shown, since 0,1 MB on screen may stand for 100 KB.
 */
export function draftChanges(saved: ServerSettings, draft: SettingsDraft): DraftChanges {
  const changes: Partial<ServerSettings> = {};
  if (draft.registrations_open !== saved.registrations_open) {
    changes.registrations_open = draft.registrations_open;
  }
  if (draft.moderation_emails !== saved.moderation_emails) {
    changes.moderation_emails = draft.moderation_emails;
  }
  if (draft.uploadMegabytes.trim() !== bytesToMegabytes(saved.upload_max_bytes)) {
    const bytes = megabytesToBytes(draft.uploadMegabytes);
    if (bytes === null) return { valid: false };
    if (bytes !== saved.upload_max_bytes) changes.upload_max_bytes = bytes;
  }
  return { valid: true, changes };
}
