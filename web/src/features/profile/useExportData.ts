import { useMutation } from '@tanstack/react-query';
import { api } from '../../lib/api.js';

/**
 * GET /users/me/export (D9): the account, uploads and own interactions as one JSON file,
 * saved under the same name the server would give it.
 */
export async function downloadMyData(username: string): Promise<void> {
  const data = await api<unknown>('/users/me/export');
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `muri-parlanti-dati-${username.replace(/[^A-Za-z0-9._-]/g, '_')}.json`;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken its copy once the click has been handled.
  setTimeout(() => {
    URL.revokeObjectURL(url);
  }, 10_000);
}

export function useExportData() {
  return useMutation({ mutationFn: downloadMyData });
}
