import type { CredentialStore, EnvironmentKeyRecord } from './credential-store.js';
import type { PublicPrincipal } from './principal.js';
import { digestSecret, looksLikeSecret, textsEqual } from './secrets.js';
import type { Db } from '../storage/db.js';

export interface EnvironmentKeyCacheDeps {
  /** The pool: the cache reads outside any request's transaction. */
  db: Db;
  store: CredentialStore;
}

/**
 * Environment keys held in memory by digest, so authenticating an evaluation request reads no
 * database. A cheap signature query (count and newest change) is polled; when it moves, the
 * whole set is reloaded, so a revoked key stops working within one poll interval everywhere.
 */
export class EnvironmentKeyCache {
  private byDigest = new Map<string, PublicPrincipal>();
  /** The key each open connection sent last and what it resolved to (see resolveOn). */
  private readonly lastOnConnection = new WeakMap<object, LastKey>();
  private signature = '';
  /** Refreshes run one after another, so an older load never replaces a newer one. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: EnvironmentKeyCacheDeps) {}

  resolve(secret: string | undefined): PublicPrincipal | undefined {
    if (!secret || !looksLikeSecret(secret, ['srv_', 'mob_', 'cli_'])) return undefined;
    // The digest is the map key: equal digests are the only way to match, so no secret is compared directly.
    return this.byDigest.get(digestSecret(secret));
  }

  /**
   * `resolve` for a request on `connection` (its socket). What this buys: a keep-alive connection
   * sends the same key on every request, and comparing it with the one the connection sent last
   * (in constant time) spares the SHA-256 digest, about 3 % of a one-flag evaluation's CPU. The
   * remembered answer holds only while the key set it came from is current, so a revoked key
   * stops working at the same moment as through `resolve`; the secret is held in memory only
   * while its connection is open, never stored.
   */
  resolveOn(connection: object, secret: string | undefined): PublicPrincipal | undefined {
    if (!secret) return undefined;
    const last = this.lastOnConnection.get(connection);
    if (last !== undefined && last.keys === this.byDigest && textsEqual(last.secret, secret)) return last.principal;
    const principal = this.resolve(secret);
    if (principal) this.lastOnConnection.set(connection, { secret, keys: this.byDigest, principal });
    return principal;
  }

  /**
   * Reloads when the keys changed since the last look; returns whether it reloaded. Called by the
   * poll and, awaited, after every management write on this instance (a key created or revoked
   * here works, or stops working, from the moment the write answers).
   */
  refreshIfChanged(): Promise<boolean> {
    const run = this.queue.then(
      () => this.compareAndReload(),
      () => this.compareAndReload(),
    );
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async compareAndReload(): Promise<boolean> {
    const signature = await this.deps.store.environmentKeysSignature(this.deps.db);
    if (signature === this.signature) return false;
    await this.reload();
    this.signature = signature;
    return true;
  }

  async reload(): Promise<void> {
    const records = await this.deps.store.listActiveEnvironmentKeys(this.deps.db);
    const next = new Map<string, PublicPrincipal>();
    for (const record of records) next.set(record.digest, toPrincipal(record));
    this.byDigest = next;
  }
}

interface LastKey {
  secret: string;
  /** The key set `principal` was read from: a reload replaces it. */
  keys: Map<string, PublicPrincipal>;
  principal: PublicPrincipal;
}

function toPrincipal(record: EnvironmentKeyRecord): PublicPrincipal {
  return {
    keyUlid: record.ulid,
    kind: record.kind,
    environmentUlid: record.environmentUlid,
    environmentKey: record.environmentKey,
    projectUlid: record.projectUlid,
  };
}
