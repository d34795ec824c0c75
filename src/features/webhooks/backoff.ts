/** The longest wait between two attempts of one event, however many failed before. */
export const maxRetryDelayMs = 3_600_000;

/**
 * How long to wait after an event's `attempts`-th failed attempt: exponential from `baseMs`
 * (doubling per attempt, capped at an hour), with jitter over the upper half of that ceiling, so
 * receivers that fail together are not all retried at the same moment, and each wait is still at
 * least half the exponential one. `random` is in [0, 1) (Math.random; tests pass their own).
 */
export function retryDelayMs(attempts: number, baseMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(maxRetryDelayMs, baseMs * 2 ** Math.min(Math.max(attempts, 1) - 1, 20));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
