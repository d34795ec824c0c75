/** Failures of one key: how many, and when the last one was (milliseconds). */
interface Failures {
  count: number;
  lastMs: number;
}

export interface SignInThrottleSettings {
  /** Failures one client address may have on one account before its attempts are delayed. */
  freeFailures: number;
  /** Failures one client address may have over all accounts before its attempts are delayed. */
  freeAddressFailures: number;
  /** Failures are forgotten this long after the last one; also the longest delay. */
  windowMs: number;
}

const firstDelayMs = 1_000;
const maxKeys = 100_000;

/**
 * Console sign-in throttle (OWASP Authentication Cheat Sheet: slow guessing down, never lock
 * the account). Failures are counted per client address, per account and address, and per
 * account; past a number of free failures each further attempt waits a delay that doubles with
 * every failure (1 s, 2 s, 4 s ... up to the window). The account's own count delays only
 * addresses that have failed on that account: someone guessing a person's password from
 * anywhere slows themselves, while the person, from an address that has not been failing,
 * signs in at once. Kept per instance.
 */
export class SignInThrottle {
  private readonly byAddress = new Map<string, Failures>();
  private readonly byAccount = new Map<string, Failures>();
  private readonly byPair = new Map<string, Failures>();

  constructor(
    private readonly settings: SignInThrottleSettings,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds the address must wait before it may try this account again, or 0. */
  retryAfter(account: string, address: string): number {
    const now = this.now();
    const pair = this.recent(this.byPair, pairKey(account, address), now);
    const waits = [
      this.waitMs(this.recent(this.byAddress, address, now), this.settings.freeAddressFailures, now),
      this.waitMs(pair, this.settings.freeFailures, now),
      pair ? this.waitMs(this.recent(this.byAccount, account, now), this.settings.freeFailures, now) : 0,
    ];
    return Math.ceil(Math.max(...waits) / 1000);
  }

  failed(account: string, address: string): void {
    const now = this.now();
    this.count(this.byAddress, address, now);
    this.count(this.byAccount, account, now);
    this.count(this.byPair, pairKey(account, address), now);
  }

  /** The person got in: this address's failures on the account are forgiven. */
  succeeded(account: string, address: string): void {
    this.byPair.delete(pairKey(account, address));
  }

  private waitMs(failures: Failures | undefined, free: number, now: number): number {
    if (!failures || failures.count < free) return 0;
    const delay = Math.min(firstDelayMs * 2 ** Math.min(failures.count - free, 30), this.settings.windowMs);
    return Math.max(0, failures.lastMs + delay - now);
  }

  private recent(map: Map<string, Failures>, key: string, now: number): Failures | undefined {
    const found = map.get(key);
    if (found && now - found.lastMs > this.settings.windowMs) {
      map.delete(key);
      return undefined;
    }
    return found;
  }

  private count(map: Map<string, Failures>, key: string, now: number): void {
    const found = this.recent(map, key, now);
    map.delete(key); // re-inserted last: the map's order is the order of last failure
    map.set(key, { count: (found?.count ?? 0) + 1, lastMs: now });
    // Bounded memory: a flood of distinct keys drops the longest quiet ones.
    if (map.size > maxKeys) map.delete(map.keys().next().value as string);
  }
}

function pairKey(account: string, address: string): string {
  return `${account}\n${address}`;
}
