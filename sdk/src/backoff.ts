/**
 * Reconnection delays: exponential backoff with "equal jitter". Attempt n waits between half and
 * all of min(maxMs, initialMs * 2^n), so many clients dropped at once do not reconnect in step.
 */
export function backoffDelay(attempt: number, initialMs: number, maxMs: number, random: () => number): number {
  const exponent = Math.min(Math.max(attempt, 0), 30);
  const ceiling = Math.min(maxMs, initialMs * 2 ** exponent);
  const r = Math.min(Math.max(random(), 0), 1);
  return Math.round(ceiling / 2 + (ceiling / 2) * r);
}
