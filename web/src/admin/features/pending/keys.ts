import type { QueryClient } from '@tanstack/react-query';

/** Query and mutation keys of the pending images screen. */
export const pendingKeys = {
  all: ['admin', 'pending'] as const,
  list: ['admin', 'pending', 'list'] as const,
  categories: ['admin', 'pending', 'categories'] as const,
  tags: ['admin', 'pending', 'tags'] as const,
  hints: (id: number) => ['admin', 'pending', 'hints', id] as const,
  /** Every approve and reject: while one runs the page disables the others (SPEC §4). */
  decision: ['admin', 'pending', 'decision'] as const,
};

/**
 * After a decision (or a failed one: another administrator may have decided first) everything
 * it touches reloads: every admin list and count, and the public galleries, categories and
 * tags the approved image now appears in.
 */
export async function refreshAfterDecision(queryClient: QueryClient): Promise<void> {
  await Promise.all(
    [['admin'], ['images'], ['categories'], ['tags']].map((queryKey) =>
      queryClient.invalidateQueries({ queryKey }),
    ),
  );
}
