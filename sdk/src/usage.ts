/**
 * "Flag used" reporting: evaluations are counted in memory per flag key (O(1), no allocation
 * after a flag's first use) and sent in batches, one POST /v1/flags/{key}/usage per flag with
 * `{count, context}` where context is the latest use's context. Memory is bounded: at most
 * `maxPendingFlags` flags are counted between two sends (uses of further flags are dropped and
 * counted in `stats.dropped`); counts above 10 000 (the document's maximum) are sent in several
 * requests; at most `maxRequestsPerFlush` requests go out per send and the rest waits.
 * Failed sends (network, 5xx, 429) are put back; refused ones (other 4xx) are dropped.
 *
 * Contexts that received a value of a weighted split (`expose`) go along as `contexts`, up to
 * MAX_EXPOSED_CONTEXTS distinct ones per flag and send, for the flag's exposure counts.
 */
import { usageContext } from './context.js';
import type { Context, UsageOptions } from './types.js';

export const MAX_USAGE_COUNT = 10_000;
/** Distinct contexts per flag and report carried for exposure counts (the document's maximum). */
export const MAX_EXPOSED_CONTEXTS = 100;

interface Pending {
  count: number;
  context: Context | null;
  /** Contexts a split served since the last send, by type and identifier. */
  exposed: Map<string, Context> | null;
}

export interface UsageBody {
  count: number;
  context?: Context;
  contexts?: Context[];
}

/** Sends one report; resolves to `retry` when it may succeed later, `drop` when refused. */
export type UsageSender = (flagKey: string, body: UsageBody) => Promise<'sent' | 'retry' | 'drop'>;

export interface UsageStats {
  /** Uses reported to the service. */
  sent: number;
  /** Uses not counted because the buffer was full, or refused by the service. */
  dropped: number;
  /** Report requests that failed and were put back. */
  failedRequests: number;
}

export class UsageReporter {
  private pending = new Map<string, Pending>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private flushing: Promise<void> | undefined;
  private readonly intervalMs: number;
  private readonly maxPendingFlags: number;
  private readonly maxRequestsPerFlush: number;
  private readonly sendContext: boolean;
  readonly stats: UsageStats = { sent: 0, dropped: 0, failedRequests: 0 };

  constructor(
    private readonly send: UsageSender,
    options: UsageOptions = {},
    private readonly onError: (error: unknown) => void = () => {},
  ) {
    this.intervalMs = Math.max(options.intervalMs ?? 30_000, 10);
    this.maxPendingFlags = Math.max(options.maxPendingFlags ?? 10_000, 1);
    this.maxRequestsPerFlush = Math.max(options.maxRequestsPerFlush ?? 500, 1);
    this.sendContext = options.sendContext ?? true;
  }

  /** Number of flags with pending counts. */
  get size(): number {
    return this.pending.size;
  }

  /** Counts one use of a flag. */
  count(flagKey: string, context: Context | null): void {
    let entry = this.pending.get(flagKey);
    if (entry === undefined) {
      if (this.pending.size >= this.maxPendingFlags) {
        this.stats.dropped++;
        return;
      }
      entry = { count: 0, context: null, exposed: null };
      this.pending.set(flagKey, entry);
    }
    entry.count++;
    if (context !== null && this.sendContext) entry.context = context;
  }

  /** Notes that a split of the flag served this context (after count() for the same use). */
  expose(flagKey: string, context: Context): void {
    if (!this.sendContext) return;
    const entry = this.pending.get(flagKey);
    if (entry === undefined) return;
    entry.exposed ??= new Map();
    if (entry.exposed.size >= MAX_EXPOSED_CONTEXTS) return;
    const key = `${context.type}\u0000${context.identifier}`;
    if (!entry.exposed.has(key)) entry.exposed.set(key, context);
  }

  start(): void {
    if (this.timer !== undefined) return;
    this.timer = setInterval(() => void this.flush(), this.intervalMs);
    (this.timer as { unref?: () => void }).unref?.();
  }

  /** Stops the timer and sends what is pending. */
  async stop(): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  /** Sends the pending counts now (one send at a time; a call during a send waits for it, then sends). */
  async flush(): Promise<void> {
    while (this.flushing !== undefined) await this.flushing;
    if (this.pending.size === 0) return;
    this.flushing = this.flushOnce().finally(() => {
      this.flushing = undefined;
    });
    await this.flushing;
  }

  private requeue(flagKey: string, count: number, context: Context | null, exposed: readonly Context[] = []): void {
    let entry = this.pending.get(flagKey);
    if (entry === undefined) {
      if (this.pending.size >= this.maxPendingFlags) {
        this.stats.dropped += count;
        return;
      }
      entry = { count: 0, context: null, exposed: null };
      this.pending.set(flagKey, entry);
    }
    entry.count += count;
    if (entry.context === null) entry.context = context;
    for (const c of exposed) {
      entry.exposed ??= new Map();
      const key = `${c.type}\u0000${c.identifier}`;
      if (entry.exposed.size < MAX_EXPOSED_CONTEXTS && !entry.exposed.has(key)) entry.exposed.set(key, c);
    }
  }

  private async flushOnce(): Promise<void> {
    const batch = this.pending;
    this.pending = new Map();
    let budget = this.maxRequestsPerFlush;
    const work: { key: string; body: UsageBody; context: Context | null }[] = [];
    for (const [key, entry] of batch) {
      let remaining = entry.count;
      const context = entry.context === null ? undefined : usageContext(entry.context);
      // The exposed contexts go with the flag's first request (those that fit the document).
      let contexts: Context[] | undefined = [];
      for (const c of entry.exposed?.values() ?? []) {
        const fit = usageContext(c);
        if (fit !== undefined) contexts.push(fit);
      }
      while (remaining > 0) {
        if (budget === 0) {
          this.requeue(key, remaining, entry.context, contexts);
          break;
        }
        const count = Math.min(remaining, MAX_USAGE_COUNT);
        remaining -= count;
        budget--;
        const body: UsageBody = context === undefined ? { count } : { count, context };
        if (contexts !== undefined && contexts.length > 0) body.contexts = contexts;
        contexts = undefined;
        work.push({ key, body, context: entry.context });
      }
    }
    // a few requests at a time
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < work.length) {
        const item = work[next++]!;
        let outcome: 'sent' | 'retry' | 'drop';
        try {
          outcome = await this.send(item.key, item.body);
        } catch (error) {
          this.onError(error);
          outcome = 'retry';
        }
        if (outcome === 'sent') this.stats.sent += item.body.count;
        else if (outcome === 'drop') this.stats.dropped += item.body.count;
        else {
          this.stats.failedRequests++;
          this.requeue(item.key, item.body.count, item.context, item.body.contexts);
        }
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
  }
}
