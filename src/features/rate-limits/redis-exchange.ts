import { createClient } from 'redis';
import type { Clock } from '../../clock.js';
import type { RedisHealth } from './redis-health.js';
import type { WindowCounts, WindowDelta } from './window-counts.js';

/** The part of a MULTI the exchange uses. */
export interface ExchangeMulti {
  incrBy(key: string, increment: number): ExchangeMulti;
  pExpire(key: string, ms: number): ExchangeMulti;
  exec(): Promise<unknown[]>;
}

/** The part of node-redis's client the exchange uses. */
export interface ExchangeClient {
  readonly isReady: boolean;
  readonly isOpen: boolean;
  connect(): Promise<unknown>;
  close(): Promise<void>;
  destroy(): void;
  ping(): Promise<unknown>;
  multi(): ExchangeMulti;
  on(event: 'error', listener: (error: unknown) => void): unknown;
}

export interface ExchangeSettings {
  /** Prefix of the counters' keys in Redis. */
  prefix: string;
  /** How often counts are exchanged (VEXIL_RATE_LIMIT_SYNC_MS). */
  intervalMs: number;
  /** An exchange not answered within this time marks Redis down (VEXIL_REDIS_TIMEOUT_MS). */
  timeoutMs: number;
}

/**
 * Shares this instance's rate-limit counts through Redis in the background. Every interval one
 * MULTI adds each open window's new requests to its key (INCRBY, PEXPIRE) and reads back the
 * totals of every instance; with no open window it sends a PING, so Redis health is known either
 * way. One exchange at a time: while Redis does not answer, requests keep being counted locally and
 * are sent once it answers (a timed-out exchange is never sent twice). Nothing here is awaited by
 * a request.
 */
export class RedisCountExchange {
  private timer: ReturnType<typeof setInterval> | undefined;
  private inFlight: Promise<void> | undefined;
  private sentAt = 0;
  /** The last answer (or the start): a connection still opening is reported down only once it could have opened. */
  private answeredAt = 0;
  private answered = false;

  constructor(
    private readonly client: ExchangeClient,
    private readonly counts: WindowCounts,
    private readonly health: RedisHealth,
    private readonly clock: Clock,
    private readonly settings: ExchangeSettings,
  ) {
    client.on('error', (error) => health.down('connection error', error));
  }

  start(): void {
    if (this.timer) return;
    this.answeredAt = Date.now();
    this.client.connect().catch((error: unknown) => this.health.down('could not connect', error));
    this.timer = setInterval(() => this.tick(), this.settings.intervalMs);
    this.timer.unref();
  }

  /** Stops exchanging; a frozen Redis is let go after one timeout instead of holding the shutdown. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    const closing = this.client.isReady ? this.client.close().catch(() => undefined) : Promise.resolve();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), this.settings.timeoutMs);
    });
    const outcome = await Promise.race([closing, late]);
    clearTimeout(timer);
    if (outcome === 'late' || this.client.isOpen) this.client.destroy();
  }

  /** One step: report an overdue exchange, or start the next one. */
  tick(): void {
    const inFlight = this.inFlight;
    if (inFlight) {
      // Before the first answer the process is starting (slow first turns): allow a connection's time.
      const limit = this.answered ? this.settings.timeoutMs : Math.max(this.settings.timeoutMs, CONNECT_TIMEOUT_MS);
      if (Date.now() - this.sentAt > limit) {
        // After this turn's input is read: an answer that came while the process was busy counts.
        setImmediate(() => {
          if (this.inFlight === inFlight) this.health.down(`no answer within ${this.settings.timeoutMs} ms`);
        });
      }
      return;
    }
    if (!this.client.isReady) {
      if (Date.now() - this.answeredAt > Math.max(this.settings.timeoutMs, CONNECT_TIMEOUT_MS)) this.health.down('not connected');
      return;
    }
    const batch = this.counts.takeBatch(this.clock.now().getTime());
    this.sentAt = Date.now();
    this.inFlight = this.send(batch)
      .then(
        (totals) => {
          this.counts.settle(batch, totals);
          this.answeredAt = Date.now();
          this.answered = true;
          this.health.up();
        },
        (error: unknown) => {
          this.counts.settle(batch);
          this.health.down('exchange failed', error);
        },
      )
      .finally(() => {
        this.inFlight = undefined;
      });
  }

  private async send(batch: readonly WindowDelta[]): Promise<number[]> {
    if (batch.length === 0) {
      await this.client.ping();
      return [];
    }
    let multi = this.client.multi();
    // The window is part of the key; the expiry only cleans up (a little after the window ends).
    for (const entry of batch)
      multi = multi.incrBy(this.settings.prefix + entry.key, entry.delta).pExpire(this.settings.prefix + entry.key, entry.ttlMs + 1000);
    const replies = await multi.exec();
    return batch.map((_, i) => Number(replies[2 * i]));
  }
}

/** Longest wait for a connection to Redis to open. */
const CONNECT_TIMEOUT_MS = 2000;

/** The node-redis client for REDIS_URL: fails fast while disconnected instead of queueing. */
export function createExchangeClient(url: string): ExchangeClient {
  return createClient({
    url,
    disableOfflineQueue: true,
    socket: { connectTimeout: CONNECT_TIMEOUT_MS, reconnectStrategy: (retries: number) => Math.min(100 * 2 ** retries, 5000) },
  }) as unknown as ExchangeClient;
}
