import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.js';
import { expectObject, InvalidShapeError } from '../../shape.js';
import type { ServerSettings } from '../../types.js';

/** The settings answer when every setting is there with its type; otherwise the shape error. */
export function parseSettings(value: unknown): ServerSettings {
  const settings = expectObject<Record<string, unknown>>(
    value,
    'registrations_open',
    'upload_max_bytes',
    'moderation_emails',
  );
  const { registrations_open, upload_max_bytes, moderation_emails } = settings;
  if (
    typeof registrations_open !== 'boolean' ||
    typeof moderation_emails !== 'boolean' ||
    typeof upload_max_bytes !== 'number'
  ) {
    throw new InvalidShapeError();
  }
  return { registrations_open, upload_max_bytes, moderation_emails };
}

/** GET /admin/settings: the settings the server enforces now (D7). */
export async function fetchSettings(signal?: AbortSignal): Promise<ServerSettings> {
  return parseSettings(await api<unknown>('/admin/settings', { signal }));
}

export const settingsQuery = queryOptions({
  queryKey: ['admin', 'settings'],
  queryFn: ({ signal }) => fetchSettings(signal),
  // Another administrator may have changed them: the form starts from what is in force.
  staleTime: 0,
});

export const useSettings = () => useQuery(settingsQuery);
