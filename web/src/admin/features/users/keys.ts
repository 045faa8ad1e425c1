import type { QueryClient } from '@tanstack/react-query';

/** Query keys of the users screens; everything under ['admin', 'users']. */
export const userKeys = {
  all: ['admin', 'users'] as const,
  list: ['admin', 'users', 'list'] as const,
  detail: (id: number) => ['admin', 'users', 'detail', id] as const,
};

/**
 * What a change to users makes stale. Usernames and scores also show on the dashboard and in
 * the images, pending and duplicates lists, so every admin query is marked (only the mounted
 * ones refetch). An edit renames uploads on public pages; a deletion erases the user's images,
 * which moves category and tag counts too.
 */
export function invalidateAfterUserChange(
  queryClient: QueryClient,
  change: 'create' | 'update' | 'delete',
): Promise<void> {
  const keys: (readonly string[])[] = [['admin']];
  if (change !== 'create') keys.push(['users'], ['images']);
  if (change === 'delete') keys.push(['categories'], ['tags']);
  return Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey }))).then(
    () => undefined,
  );
}
