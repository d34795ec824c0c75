/**
 * Keeping a payload current: GET /v1/payload with If-None-Match, GET /v1/stream (Server-Sent
 * Events read with fetch, because EventSource cannot send the key header), polling while the
 * stream is disabled or down, and stream reconnection with exponential backoff and jitter.
 *
 * Runs on fetch, AbortController, TextDecoder and timers only, so it works in Node 20 and in
 * browsers. Nothing here is on the evaluation path: evaluations read what was last applied.
 */
import { backoffDelay } from './backoff.js';
import { SseParser } from './sse.js';
import { VexilError } from './types.js';

export interface SyncHooks {
  /** Headers added to payload and stream requests (the client-side context headers). */
  headers(): Record<string, string>;
  /** ETag of the payload currently served (If-None-Match, and compared with stream announcements). */
  etag(): string | undefined;
  /** Applies a 200 body; throws a VexilError when it cannot be used. */
  applyPayload(body: unknown, etagHeader: string | null): void;
  /** The service confirmed the payload (200 applied, 304, or a stream announcement of our ETag). */
  succeeded(): void;
  /** A request failed or a payload was unusable. */
  failed(error: VexilError): void;
}

export interface SyncSettings {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly fetch: typeof fetch;
  readonly stream: boolean;
  readonly pollIntervalMs: number;
  readonly requestTimeoutMs: number;
  readonly streamIdleTimeoutMs: number;
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  readonly random: () => number;
}

type Timer = ReturnType<typeof setTimeout>;

function unref(timer: Timer): Timer {
  (timer as { unref?: () => void }).unref?.();
  return timer;
}

export function apiUrl(baseUrl: string, path: string): string {
  return baseUrl.replace(/\/+$/, '') + path;
}

function retryAfterSeconds(res: Response): number | undefined {
  const raw = res.headers.get('retry-after');
  if (raw === null) return undefined;
  const n = Number(raw);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** The VexilError for a non-success response. */
export function httpError(res: Response, what: string): VexilError {
  if (res.status === 401) return new VexilError('UNAUTHORIZED', `${what}: the API key was refused (401).`, 401);
  if (res.status === 429) {
    const after = retryAfterSeconds(res);
    return new VexilError('RATE_LIMITED', `${what}: rate limited (429${after === undefined ? '' : `, retry after ${after} s`}).`, 429);
  }
  return new VexilError('HTTP', `${what}: unexpected status ${res.status}.`, res.status);
}

export function networkError(what: string, cause: unknown): VexilError {
  if (cause instanceof VexilError) return cause;
  const detail = cause instanceof Error ? cause.message : String(cause);
  return new VexilError('NETWORK', `${what}: ${detail}`, undefined, { cause });
}

export class PayloadSync {
  private running = false;
  /** Incremented by stop() and restart(): work of an older generation is discarded. */
  private generation = 0;
  private fetchController: AbortController | undefined;
  private streamController: AbortController | undefined;
  private inFlight: Promise<boolean> | undefined;
  private refetchWanted = false;
  private pollTimer: Timer | undefined;
  private sleepTimer: Timer | undefined;
  private wake: (() => void) | undefined;
  private attempt = 0;
  /** True while the stream is open and has announced an ETag. */
  streamConnected = false;
  /** Stream connection attempts so far (tests and diagnostics). */
  streamAttempts = 0;

  constructor(
    private readonly settings: SyncSettings,
    private readonly hooks: SyncHooks,
  ) {}

  get isRunning(): boolean {
    return this.running;
  }

  /** Starts syncing; resolves with the result of the first payload request. */
  start(): Promise<boolean> {
    return this.restart();
  }

  /**
   * Drops every request in progress, fetches the payload now and (re)opens the stream. Used at
   * start and when the client-side context changes. Resolves with the payload request's result.
   */
  restart(): Promise<boolean> {
    this.cancelAll();
    this.running = true;
    const gen = this.generation;
    this.attempt = 0;
    const first = this.refresh();
    void first.then(() => {
      if (!this.running || gen !== this.generation) return;
      if (this.settings.stream) void this.streamLoop(gen);
      else this.schedulePoll(gen);
    });
    return first;
  }

  /** Stops everything: requests are aborted, timers cleared. */
  stop(): void {
    this.cancelAll();
    this.running = false;
  }

  private cancelAll(): void {
    this.generation++;
    this.fetchController?.abort();
    this.streamController?.abort();
    this.fetchController = undefined;
    this.streamController = undefined;
    this.inFlight = undefined;
    this.refetchWanted = false;
    this.streamConnected = false;
    if (this.pollTimer !== undefined) clearTimeout(this.pollTimer);
    this.pollTimer = undefined;
    if (this.sleepTimer !== undefined) clearTimeout(this.sleepTimer);
    this.sleepTimer = undefined;
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  /**
   * Fetches the payload now (If-None-Match with the current ETag). Calls made while a request is
   * in flight share it, and one more request follows it so a change announced meanwhile is seen.
   */
  refresh(): Promise<boolean> {
    if (!this.running) return Promise.resolve(false);
    if (this.inFlight !== undefined) {
      this.refetchWanted = true;
      return this.inFlight;
    }
    const gen = this.generation;
    const p = this.fetchLoop(gen).finally(() => {
      if (this.inFlight === p) this.inFlight = undefined;
    });
    this.inFlight = p;
    return p;
  }

  private async fetchLoop(gen: number): Promise<boolean> {
    let ok: boolean;
    do {
      this.refetchWanted = false;
      ok = await this.fetchOnce(gen);
    } while (ok && this.refetchWanted && this.running && gen === this.generation);
    return ok;
  }

  private async fetchOnce(gen: number): Promise<boolean> {
    const controller = new AbortController();
    this.fetchController = controller;
    const timer = unref(
      setTimeout(() => controller.abort(new VexilError('NETWORK', 'GET /v1/payload: timed out.')), this.settings.requestTimeoutMs),
    );
    try {
      const headers: Record<string, string> = {
        ...this.hooks.headers(),
        'x-vexil-api-key': this.settings.apiKey,
        accept: 'application/json',
      };
      const etag = this.hooks.etag();
      if (etag !== undefined) headers['if-none-match'] = etag;
      const res = await this.settings.fetch(apiUrl(this.settings.baseUrl, '/v1/payload'), {
        method: 'GET',
        headers,
        signal: controller.signal,
        cache: 'no-store',
      });
      if (gen !== this.generation) {
        void res.body?.cancel().catch(() => {});
        return false;
      }
      if (res.status === 304) {
        void res.body?.cancel().catch(() => {});
        this.hooks.succeeded();
        return true;
      }
      if (res.status !== 200) {
        void res.body?.cancel().catch(() => {});
        throw httpError(res, 'GET /v1/payload');
      }
      const text = await res.text();
      if (gen !== this.generation) return false;
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch (cause) {
        throw new VexilError('INVALID_PAYLOAD', 'GET /v1/payload: the body is not JSON.', 200, { cause });
      }
      this.hooks.applyPayload(body, res.headers.get('etag'));
      this.hooks.succeeded();
      return true;
    } catch (error) {
      if (gen !== this.generation || !this.running) return false;
      const reason = controller.signal.aborted ? controller.signal.reason : error;
      this.hooks.failed(networkError('GET /v1/payload', reason));
      return false;
    } finally {
      clearTimeout(timer);
      if (this.fetchController === controller) this.fetchController = undefined;
    }
  }

  private schedulePoll(gen: number): void {
    if (this.pollTimer !== undefined || !this.running || gen !== this.generation) return;
    this.pollTimer = unref(
      setTimeout(() => {
        this.pollTimer = undefined;
        if (!this.running || gen !== this.generation) return;
        if (this.settings.stream && this.streamConnected) return;
        void this.refresh().finally(() => {
          if (this.settings.stream && this.streamConnected) return;
          this.schedulePoll(gen);
        });
      }, this.settings.pollIntervalMs),
    );
  }

  private stopPolling(): void {
    if (this.pollTimer !== undefined) clearTimeout(this.pollTimer);
    this.pollTimer = undefined;
  }

  private sleep(ms: number, gen: number): Promise<void> {
    return new Promise((resolve) => {
      if (!this.running || gen !== this.generation) {
        resolve();
        return;
      }
      this.wake = resolve;
      this.sleepTimer = unref(
        setTimeout(() => {
          this.sleepTimer = undefined;
          this.wake = undefined;
          resolve();
        }, ms),
      );
    });
  }

  private async streamLoop(gen: number): Promise<void> {
    while (this.running && gen === this.generation) {
      const heard = await this.streamOnce(gen);
      if (!this.running || gen !== this.generation) return;
      this.streamConnected = false;
      if (heard) this.attempt = 0;
      // while disconnected, poll (the first reconnection is usually sooner than the first poll)
      this.schedulePoll(gen);
      const delay = backoffDelay(this.attempt++, this.settings.initialDelayMs, this.settings.maxDelayMs, this.settings.random);
      await this.sleep(delay, gen);
    }
  }

  /** One stream connection; resolves when it ends, with whether it announced anything. */
  private async streamOnce(gen: number): Promise<boolean> {
    const controller = new AbortController();
    this.streamController = controller;
    this.streamAttempts++;
    let heard = false;
    let idleTimer: Timer | undefined;
    const resetIdle = (): void => {
      if (idleTimer !== undefined) clearTimeout(idleTimer);
      idleTimer = unref(
        setTimeout(
          () =>
            controller.abort(new VexilError('NETWORK', `GET /v1/stream: nothing received for ${this.settings.streamIdleTimeoutMs} ms.`)),
          this.settings.streamIdleTimeoutMs,
        ),
      );
    };
    resetIdle();
    try {
      const res = await this.settings.fetch(apiUrl(this.settings.baseUrl, '/v1/stream'), {
        method: 'GET',
        headers: { ...this.hooks.headers(), 'x-vexil-api-key': this.settings.apiKey, accept: 'text/event-stream' },
        signal: controller.signal,
        cache: 'no-store',
      });
      if (gen !== this.generation) {
        void res.body?.cancel().catch(() => {});
        return false;
      }
      if (res.status !== 200 || res.body === null) {
        void res.body?.cancel().catch(() => {});
        throw httpError(res, 'GET /v1/stream');
      }
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      const parser = new SseParser();
      for (;;) {
        const { done, value } = await reader.read();
        if (done || gen !== this.generation) break;
        resetIdle();
        for (const event of parser.feed(decoder.decode(value, { stream: true }))) {
          if (event.event !== 'etag') continue;
          let etag: unknown;
          try {
            etag = (JSON.parse(event.data) as { etag?: unknown }).etag;
          } catch {
            continue;
          }
          if (typeof etag !== 'string') continue;
          heard = true;
          if (!this.streamConnected) {
            this.streamConnected = true;
            this.stopPolling();
          }
          if (etag === this.hooks.etag()) this.hooks.succeeded();
          else void this.refresh();
        }
      }
      void reader.cancel().catch(() => {});
      return heard;
    } catch (error) {
      if (gen !== this.generation || !this.running) return heard;
      const reason = controller.signal.aborted ? controller.signal.reason : error;
      this.hooks.failed(networkError('GET /v1/stream', reason));
      return heard;
    } finally {
      if (idleTimer !== undefined) clearTimeout(idleTimer);
      if (this.streamController === controller) this.streamController = undefined;
      controller.abort();
    }
  }
}
