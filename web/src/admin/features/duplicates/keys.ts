import type { QueryClient } from '@tanstack/react-query';

/** Query and mutation keys of the duplicates screen. */
export const duplicateKeys = {
  all: ['admin', 'duplicates'] as const,
  groups: ['admin', 'duplicates', 'groups'] as const,
  /** Every delete and dismissal: while one runs the page's buttons wait. */
  change: ['admin', 'duplicates', 'change'] as const,
};

/**
 * After a delete or a dismissal: the groups reload from the server (SPEC §2), and every other
 * admin list and public gallery the deleted image appeared in.
 */
export async function refreshAfterChange(queryClient: QueryClient): Promise<void> {
  await Promise.all(
    [['admin'], ['images'], ['categories'], ['tags']].map((queryKey) =>
      queryClient.invalidateQueries({ queryKey }),
    ),
  );
}
