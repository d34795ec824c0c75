/**
 * What both clients share: status and readiness, events, the payload sync, usage reporting and
 * close(). Subclasses decide what a payload is and how flags are evaluated.
 */
import { Emitter } from './emitter.js';
import { apiUrl, httpError, networkError, PayloadSync, type SyncSettings } from './sync.js';
import { UsageReporter, type UsageBody, type UsageStats } from './usage.js';
import { VexilError, type ClientEvents, type ClientStatus, type CommonOptions, type Context, type Logger } from './types.js';

/** CommonOptions with the key and URL optional (a server client may run offline from a bootstrap). */
export type BaseOptions = Omit<CommonOptions, 'apiKey' | 'baseUrl'> & { readonly apiKey?: string; readonly baseUrl?: string };

const defaultLogger: Logger = {
  warn: (message, ...args) => console.warn(message, ...args),
};

export abstract class BaseClient extends Emitter<ClientEvents> {
  protected statusValue: ClientStatus = 'not_ready';
  protected readonly sync: PayloadSync | undefined;
  protected readonly usage: UsageReporter | undefined;
  protected readonly options: BaseOptions;
  private readonly logger: Logger | null;
  private readonly fetchImpl: typeof fetch;
  private readonly requestTimeoutMs: number;
  /** Settled once the first attempt to reach the service is over (or there is nothing to reach). */
  private firstAttempt: Promise<void>;
  private settleFirstAttempt!: () => void;
  private started = false;
  /** When each error message was last logged (bounded). */
  private readonly logged = new Map<string, number>();
  /** The most recent error, until the next success. */
  lastError: VexilError | undefined;

  protected constructor(options: BaseOptions, offline: boolean) {
    super();
    this.options = options;
    this.logger = options.logger === undefined ? defaultLogger : options.logger;
    this.fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.requestTimeoutMs = Math.max(options.requestTimeoutMs ?? 10_000, 1);
    this.firstAttempt = new Promise((resolve) => {
      this.settleFirstAttempt = resolve;
    });
    if (!offline) {
      if (typeof options.baseUrl !== 'string' || options.baseUrl === '') {
        throw new TypeError('Vexil: `baseUrl` is required (or use `offline: true` with a bootstrap).');
      }
      if (typeof options.apiKey !== 'string' || options.apiKey === '') {
        throw new TypeError('Vexil: `apiKey` is required.');
      }
      const settings: SyncSettings = {
        baseUrl: options.baseUrl,
        apiKey: options.apiKey,
        fetch: this.fetchImpl,
        stream: options.stream ?? true,
        pollIntervalMs: Math.max(options.pollIntervalMs ?? 30_000, 1000),
        requestTimeoutMs: this.requestTimeoutMs,
        streamIdleTimeoutMs: Math.max(options.streamIdleTimeoutMs ?? 45_000, 100),
        initialDelayMs: Math.max(options.reconnect?.initialDelayMs ?? 500, 1),
        maxDelayMs: Math.max(options.reconnect?.maxDelayMs ?? 30_000, 1),
        random: options.random ?? Math.random,
      };
      this.sync = new PayloadSync(settings, {
        headers: () => this.requestHeaders(),
        etag: () => this.currentEtag(),
        applyPayload: (body, etag) => this.applyPayload(body, etag, 'service'),
        succeeded: () => this.markSucceeded(),
        failed: (error) => this.markFailed(error),
      });
      if (options.usage !== false) {
        this.usage = new UsageReporter(
          (key, body) => this.sendUsage(key, body),
          options.usage ?? {},
          (error) => this.reportError(networkError('POST /v1/flags/{key}/usage', error)),
        );
      }
    }
  }

  /** See ClientStatus. */
  get status(): ClientStatus {
    return this.statusValue;
  }

  /** Whether flags are being served from a payload (the service's, the bootstrap or the cache). */
  isReady(): boolean {
    return this.statusValue === 'ready' || this.statusValue === 'stale' || (this.statusValue === 'closed' && this.hasPayload());
  }

  /** Usage counters (sent, dropped, failed requests). */
  get usageStats(): UsageStats | undefined {
    return this.usage?.stats;
  }

  /**
   * Without `timeoutMs`: resolves once the first attempt to reach the service is over, true when
   * the service's payload is being served (status `ready`). With `timeoutMs`: resolves true as
   * soon as the payload is served within that time (the client keeps retrying meanwhile), false
   * only when the time runs out (the client then serves its bootstrap or defaults and keeps
   * retrying in the background). Never rejects.
   */
  async ready(timeoutMs?: number): Promise<boolean> {
    if (this.statusValue === 'ready') return true;
    if (timeoutMs === undefined) {
      await this.firstAttempt;
      return this.isConfirmed();
    }
    return new Promise<boolean>((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        offReady();
        resolve(this.isConfirmed());
      };
      const offReady = this.on('ready', finish);
      const timer = setTimeout(finish, Math.max(timeoutMs, 0));
    });
  }

  private isConfirmed(): boolean {
    return this.statusValue === 'ready';
  }

  /** Fetches the payload now (If-None-Match); resolves true when the service answered. */
  async refresh(): Promise<boolean> {
    if (this.sync === undefined || this.statusValue === 'closed') return false;
    return this.sync.refresh();
  }

  /** Sends pending usage counts now. */
  async flushUsage(): Promise<void> {
    await this.usage?.flush();
  }

  /** Stops syncing and sends pending usage. The last payload is still served afterwards. */
  async close(): Promise<void> {
    if (this.statusValue === 'closed') return;
    this.statusValue = 'closed';
    this.sync?.stop();
    this.settleFirstAttempt();
    await this.usage?.stop();
  }

  /** Starts the sync (once); subclasses call it from their constructor or start step. */
  protected startSync(): void {
    if (this.started || this.statusValue === 'closed') return;
    this.started = true;
    if (this.sync === undefined) {
      this.settleFirstAttempt();
      return;
    }
    this.usage?.start();
    void this.sync.start().finally(() => this.settleFirstAttempt());
  }

  protected countUse(key: string, context: Context | null): void {
    if (this.usage !== undefined && this.statusValue !== 'closed') this.usage.count(key, context);
  }

  /** A weighted split of the flag served this context (local evaluation): for its exposure counts. */
  protected countExposure(key: string, context: Context): void {
    if (this.usage !== undefined && this.statusValue !== 'closed') this.usage.expose(key, context);
  }

  protected markSucceeded(): void {
    if (this.statusValue === 'closed') return;
    this.lastError = undefined;
    if (!this.hasPayload()) return;
    if (this.statusValue !== 'ready') {
      this.statusValue = 'ready';
      this.emit('ready');
    }
  }

  protected markFailed(error: VexilError): void {
    if (this.statusValue === 'closed') return;
    this.reportError(error);
    if (this.statusValue === 'ready') {
      this.statusValue = 'stale';
      this.emit('stale', error);
    }
  }

  protected reportError(error: VexilError): void {
    this.lastError = error;
    if (this.listenerCount('error') > 0) {
      this.emit('error', error);
      return;
    }
    // the same failure repeats on every retry during an outage: log it once a minute
    const now = Date.now();
    const last = this.logged.get(error.message);
    if (last !== undefined && now - last < 60_000) return;
    if (this.logged.size >= 50) this.logged.clear();
    this.logged.set(error.message, now);
    this.logger?.warn(`[vexil] ${error.message}`);
  }

  /** Subclasses apply a payload from the service, the bootstrap or the cache; throw VexilError when unusable. */
  protected abstract applyPayload(body: unknown, etagHeader: string | null, source: 'service' | 'bootstrap' | 'storage'): void;
  protected abstract hasPayload(): boolean;
  protected abstract currentEtag(): string | undefined;
  protected abstract requestHeaders(): Record<string, string>;

  private async sendUsage(flagKey: string, body: UsageBody): Promise<'sent' | 'retry' | 'drop'> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.requestTimeoutMs);
    (timer as { unref?: () => void }).unref?.();
    try {
      const res = await this.fetchImpl(apiUrl(this.options.baseUrl ?? '', `/v1/flags/${encodeURIComponent(flagKey)}/usage`), {
        method: 'POST',
        headers: { 'x-vexil-api-key': this.options.apiKey ?? '', 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
        signal: controller.signal,
      });
      void res.body?.cancel().catch(() => {});
      if (res.ok) return 'sent';
      if (res.status === 429 || res.status >= 500) {
        this.reportError(new VexilError('USAGE', httpError(res, 'POST /v1/flags/{key}/usage').message, res.status));
        return 'retry';
      }
      // 404: the flag was deleted meanwhile; 400/401/413: the report can never succeed
      if (res.status !== 404) {
        this.reportError(new VexilError('USAGE', httpError(res, 'POST /v1/flags/{key}/usage').message, res.status));
      }
      return 'drop';
    } catch (error) {
      this.reportError(new VexilError('USAGE', networkError('POST /v1/flags/{key}/usage', error).message));
      return 'retry';
    } finally {
      clearTimeout(timer);
    }
  }
}
