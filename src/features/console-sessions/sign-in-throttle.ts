/**
 * Failed sign-ins per account (email) and per client IP in a sliding window. Kept per instance:
 * behind several instances an attacker gets at most the limit times the instance count.
 */
export class SignInLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  private recent(key: string): number[] {
    const since = this.now() - this.windowMs;
    const kept = (this.failures.get(key) ?? []).filter((t) => t > since);
    if (kept.length === 0) this.failures.delete(key);
    else this.failures.set(key, kept);
    return kept;
  }

  /** Seconds until another attempt is allowed for any of the keys, or 0. */
  retryAfter(keys: string[]): number {
    let wait = 0;
    for (const key of keys) {
      const times = this.recent(key);
      if (times.length >= this.limit) wait = Math.max(wait, Math.ceil(((times[0] as number) + this.windowMs - this.now()) / 1000));
    }
    return wait;
  }

  fail(keys: string[]): void {
    for (const key of keys) this.failures.set(key, [...this.recent(key), this.now()]);
    // Bounded memory: a flood of distinct keys drops the oldest.
    if (this.failures.size > 100_000) this.failures.delete(this.failures.keys().next().value as string);
  }

  succeed(keys: string[]): void {
    for (const key of keys) this.failures.delete(key);
  }
}
