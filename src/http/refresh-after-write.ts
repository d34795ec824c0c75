import type Koa from 'koa';

/** Where the stages of one request keep their shared deadline (ctx.state). */
interface RefreshState {
  refreshDeadline?: number;
}

/**
 * Runs one of the refreshes a management write awaits before it answers (key cache, environment
 * snapshots), so this instance serves its own change from the next request. The refreshes of one
 * request share one deadline of `budgetMs` (the database timeouts): when the database stops
 * answering just after a write committed, the write still answers within that time instead of
 * after every refresh, and those queued behind a poll, have timed out one by one. A refresh
 * still running at the deadline goes on in the background; its failure is reported by `onError`.
 */
export async function refreshBeforeAnswering(
  ctx: Koa.Context,
  budgetMs: number,
  refresh: () => Promise<unknown>,
  onError: (err: unknown) => void,
): Promise<'refreshed' | 'late'> {
  const state = ctx.state as RefreshState;
  state.refreshDeadline ??= performance.now() + budgetMs;
  const running = refresh().then(
    () => 'refreshed' as const,
    (err: unknown) => {
      onError(err);
      return 'refreshed' as const;
    },
  );
  const remaining = state.refreshDeadline - performance.now();
  if (remaining <= 0) return 'late';
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), remaining)));
  try {
    return await Promise.race([running, late]);
  } finally {
    clearTimeout(timer);
  }
}
