import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.js';
import type { ServerSettings } from '../../types.js';
import { parseSettings, settingsQuery } from './settings.js';

/** PUT /admin/settings with the changed settings only; answers all of them as now in force. */
export async function updateSettings(changes: Partial<ServerSettings>): Promise<ServerSettings> {
  return parseSettings(await api<unknown>('/admin/settings', { method: 'PUT', body: changes }));
}

export function useUpdateSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSettings,
    onSuccess: (settings) => {
      // The answer is the new state: the form shows it at once, and the reload (SPEC §2)
      // confirms it from the server.
      queryClient.setQueryData(settingsQuery.queryKey, settings);
      void queryClient.invalidateQueries({ queryKey: settingsQuery.queryKey });
    },
  });
}
