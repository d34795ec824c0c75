/**
 * Fixed-window request counts kept in this instance's memory, so a rate-limit decision is a
 * synchronous lookup. With Redis, a background exchange (redis-exchange.ts) sends each window's
 * new requests and learns the total of every instance; a decision then counts that total plus
 * what this instance has not yet reported. Without Redis (or while it does not answer) the
 * decision rests on this instance's own requests.
 */
interface Window {
  /** When the window ends (ms): it is forgotten afterwards. */
  endsAt: number;
  /** The total of every instance, as Redis last reported it (this instance's reported requests included). */
  shared: number;
  /** Requests counted here and sent in the exchange still in flight. */
  sending: number;
  /** Requests counted here and not sent yet. */
  unsent: number;
}

/** One window's requests handed to an exchange: `delta` new ones, `ttlMs` until its key may expire. */
export interface WindowDelta {
  key: string;
  delta: number;
  ttlMs: number;
}

export class WindowCounts {
  private readonly windows = new Map<string, Window>();

  /** Counts one request in `key`'s window (ending at `endsAt`) and returns the window's count including it. */
  hit(key: string, endsAt: number): number {
    let window = this.windows.get(key);
    if (window === undefined) {
      window = { endsAt, shared: 0, sending: 0, unsent: 0 };
      this.windows.set(key, window);
    }
    window.unsent += 1;
    return window.shared + window.sending + window.unsent;
  }

  /** Every window still open at `nowMs` with its unsent requests (0 too: the exchange learns the others' counts). */
  takeBatch(nowMs: number): WindowDelta[] {
    const batch: WindowDelta[] = [];
    for (const [key, window] of this.windows) {
      if (window.endsAt <= nowMs) continue;
      window.sending = window.unsent;
      window.unsent = 0;
      batch.push({ key, delta: window.sending, ttlMs: window.endsAt - nowMs });
    }
    return batch;
  }

  /**
   * The end of an exchange: with `totals` (one per entry of `batch`) the shared counts are known;
   * without (it failed), the requests sent go back to unsent, to be sent by the next exchange.
   */
  settle(batch: readonly WindowDelta[], totals?: readonly number[]): void {
    batch.forEach((entry, i) => {
      const window = this.windows.get(entry.key);
      if (window === undefined) return;
      const total = totals?.[i];
      if (total !== undefined && Number.isFinite(total)) window.shared = Math.max(window.shared, total);
      else window.unsent += window.sending;
      window.sending = 0;
    });
  }

  /** Forgets windows that ended before `nowMs`. */
  sweep(nowMs: number): void {
    for (const [key, window] of this.windows) if (window.endsAt <= nowMs) this.windows.delete(key);
  }

  get size(): number {
    return this.windows.size;
  }
}
