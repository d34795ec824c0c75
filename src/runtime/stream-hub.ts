import type { BackgroundTask } from '../core.js';
import type { EnvironmentSnapshot, SnapshotCache } from './snapshot-cache.js';

/** Where a stream's text goes (an HTTP response in the server, an array in unit tests). */
export interface StreamSink {
  write(text: string): void;
  end(): void;
}

export interface StreamSubscription {
  environmentUlid: string;
  sink: StreamSink;
  /** The ETag this stream announces for a snapshot of its environment. */
  etagFor(entry: EnvironmentSnapshot): string;
  /** False once the stream's key is revoked: the stream is then ended. */
  authorized(): boolean;
}

interface Connection extends StreamSubscription {
  lastEtag: string | undefined;
  closed: boolean;
}

export interface StreamHubOptions {
  /** Comment line interval (DESIGN: 15 s). */
  heartbeatMs: number;
  /** How often each stream's key is checked. */
  authCheckMs: number;
}

export function etagEvent(etag: string): string {
  return `event: etag\ndata: ${JSON.stringify({ etag })}\n\n`;
}

/**
 * Every open GET /v1/stream connection. Announces a new ETag when the environment's snapshot
 * changes (the snapshot cache tells it), sends a heartbeat comment, ends streams whose key was
 * revoked or whose environment was deleted, and ends them all on shutdown.
 */
export class StreamHub implements BackgroundTask {
  readonly name = 'payload-stream-hub';
  readonly holdsConnections = true;
  private byEnvironment = new Map<string, Set<Connection>>();
  private heartbeat: NodeJS.Timeout | undefined;
  private authCheck: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private accepting = true;

  constructor(
    private readonly cache: SnapshotCache,
    private readonly options: StreamHubOptions,
  ) {}

  /** Number of open streams. */
  get size(): number {
    let n = 0;
    for (const set of this.byEnvironment.values()) n += set.size;
    return n;
  }

  start(): void {
    this.accepting = true;
    this.unsubscribe ??= this.cache.onChange((environmentUlid, entry) => this.changed(environmentUlid, entry));
    this.heartbeat ??= setInterval(() => this.beat(), this.options.heartbeatMs);
    this.heartbeat.unref();
    this.authCheck ??= setInterval(() => this.checkKeys(), this.options.authCheckMs);
    this.authCheck.unref();
  }

  async stop(): Promise<void> {
    this.accepting = false;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.authCheck) clearInterval(this.authCheck);
    this.heartbeat = undefined;
    this.authCheck = undefined;
    for (const set of this.byEnvironment.values()) for (const c of set) this.close(c);
    this.byEnvironment.clear();
  }

  /**
   * Registers a stream and sends the current ETag. Returns the function that unregisters it
   * (call it when the client disconnects). While shutting down the stream is ended at once.
   */
  open(subscription: StreamSubscription, current: EnvironmentSnapshot): () => void {
    const connection: Connection = { ...subscription, lastEtag: undefined, closed: false };
    if (!this.accepting) {
      connection.sink.end();
      return () => {};
    }
    let set = this.byEnvironment.get(subscription.environmentUlid);
    if (!set) {
      set = new Set();
      this.byEnvironment.set(subscription.environmentUlid, set);
    }
    set.add(connection);
    // The cache may have moved on while the request was being set up: announce the newest.
    this.announce(connection, this.cache.get(subscription.environmentUlid) ?? current);
    return () => this.remove(connection);
  }

  private announce(connection: Connection, entry: EnvironmentSnapshot): void {
    const etag = connection.etagFor(entry);
    if (etag === connection.lastEtag) return;
    connection.lastEtag = etag;
    connection.sink.write(etagEvent(etag));
  }

  private changed(environmentUlid: string, entry: EnvironmentSnapshot | undefined): void {
    const set = this.byEnvironment.get(environmentUlid);
    if (!set) return;
    for (const connection of [...set]) {
      if (entry === undefined) this.remove(connection, true);
      else this.announce(connection, entry);
    }
  }

  private beat(): void {
    for (const set of this.byEnvironment.values()) for (const c of set) c.sink.write(': heartbeat\n\n');
  }

  private checkKeys(): void {
    for (const set of [...this.byEnvironment.values()]) {
      for (const c of [...set]) if (!c.authorized()) this.remove(c, true);
    }
  }

  private remove(connection: Connection, end = false): void {
    const set = this.byEnvironment.get(connection.environmentUlid);
    set?.delete(connection);
    if (set && set.size === 0) this.byEnvironment.delete(connection.environmentUlid);
    if (end) this.close(connection);
  }

  private close(connection: Connection): void {
    if (connection.closed) return;
    connection.closed = true;
    connection.sink.end();
  }
}
