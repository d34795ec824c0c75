import type { Logger } from 'pino';
import type { ConfigSource, EnvironmentRevision, LoadedChanges } from './config-source.js';
import { applyFlagChanges, buildEnvironmentSnapshot, type EnvironmentSnapshot } from './environment-snapshot.js';

export { EnvironmentSnapshot, buildEnvironmentSnapshot } from './environment-snapshot.js';

export type SnapshotListener = (environmentUlid: string, entry: EnvironmentSnapshot | undefined) => void;

/**
 * Compiled snapshots of every environment, in memory, keyed by revision. The poller (refresh)
 * reads `environments.ulid, revision` and rebuilds the snapshots whose revision moved, so the
 * evaluation path never reads the database. A rebuild reloads only the flags changed since the
 * revision held (revision_changes), or the whole environment when that is not known. An environment not yet known (created a moment
 * ago, before the next poll) is loaded on first use.
 */
export class SnapshotCache {
  private entries = new Map<string, EnvironmentSnapshot>();
  private loading = new Map<string, Promise<EnvironmentSnapshot | undefined>>();
  private refreshing: Promise<EnvironmentRevision[]> | undefined;
  private listeners = new Set<SnapshotListener>();
  private refreshedOnce = false;

  constructor(
    private readonly source: ConfigSource,
    private readonly logger: Logger,
  ) {}

  /** The cached snapshot, without any I/O. */
  get(environmentUlid: string): EnvironmentSnapshot | undefined {
    return this.entries.get(environmentUlid);
  }

  /** The cached snapshot, or (first use of an environment) loaded now. */
  async getOrLoad(environmentUlid: string): Promise<EnvironmentSnapshot | undefined> {
    return this.entries.get(environmentUlid) ?? this.rebuild(environmentUlid);
  }

  /**
   * The snapshot at the database's current revision (one cheap query): for management previews,
   * which must reflect a change the caller has just made.
   */
  async getFresh(environmentUlid: string): Promise<EnvironmentSnapshot | undefined> {
    const revision = await this.source.revisionOf(environmentUlid);
    if (revision === undefined) return undefined;
    const current = this.entries.get(environmentUlid);
    if (current && current.revision >= revision) return current;
    const entry = await this.rebuild(environmentUlid);
    // A load already running when the change committed may predate it: load once more.
    if (entry && entry.revision < revision) return this.rebuild(environmentUlid);
    return entry;
  }

  /** Called with the environment's new snapshot (undefined: the environment is gone). */
  onChange(listener: SnapshotListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Every cached snapshot. */
  all(): IterableIterator<EnvironmentSnapshot> {
    return this.entries.values();
  }

  /** Whether a refresh has loaded every environment (the instance can serve them all from memory). */
  get loaded(): boolean {
    return this.refreshedOnce;
  }

  /** Number of cached environments. */
  get size(): number {
    return this.entries.size;
  }

  /**
   * One poll: rebuild every environment whose revision changed; forget deleted ones. Returns
   * the environments that changed (revision -1: deleted). A call while a poll runs shares it.
   */
  refresh(): Promise<EnvironmentRevision[]> {
    this.refreshing ??= this.doRefresh().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  /** A poll that starts after the one running now (if any) ends, so it sees a change just committed. */
  refreshAfterCurrent(): Promise<EnvironmentRevision[]> {
    const running = this.refreshing;
    if (!running) return this.refresh();
    return running.then(
      () => this.refresh(),
      () => this.refresh(),
    );
  }

  /** Whether any of these environment revisions is newer than the snapshot held (or unknown here). */
  isBehind(revisions: readonly EnvironmentRevision[]): boolean {
    return revisions.some(({ ulid, revision }) => {
      const current = this.entries.get(ulid);
      return revision < 0 ? current !== undefined : !current || current.revision < revision;
    });
  }

  private async doRefresh(): Promise<EnvironmentRevision[]> {
    const revisions = await this.source.listRevisions();
    const present = new Set<string>();
    const failures: unknown[] = [];
    const changed: EnvironmentRevision[] = [];
    for (const { ulid, revision } of revisions) {
      present.add(ulid);
      const current = this.entries.get(ulid);
      if (current && current.revision >= revision) continue;
      try {
        const entry = await this.rebuild(ulid);
        if (entry) changed.push({ ulid, revision: entry.revision });
      } catch (error) {
        failures.push(error);
        this.logger.error({ err: error, environment: ulid }, 'environment snapshot could not be rebuilt');
      }
    }
    for (const ulid of [...this.entries.keys()]) {
      if (!present.has(ulid)) {
        this.entries.delete(ulid);
        this.emit(ulid, undefined);
        changed.push({ ulid, revision: -1 });
      }
    }
    if (failures.length > 0 && failures.length === revisions.length) throw failures[0];
    if (failures.length === 0) this.refreshedOnce = true;
    return changed;
  }

  /** Loads and compiles one environment (or its changed flags); concurrent callers share one load. */
  private rebuild(environmentUlid: string): Promise<EnvironmentSnapshot | undefined> {
    let pending = this.loading.get(environmentUlid);
    if (!pending) {
      const held = this.entries.get(environmentUlid);
      const load: Promise<LoadedChanges | undefined> = held
        ? this.source.loadChangesSince(environmentUlid, held.revision)
        : this.source.load(environmentUlid).then((loaded) => loaded && { kind: 'full', loaded });
      pending = load
        .then((changes) => {
          if (!changes) {
            if (this.entries.delete(environmentUlid)) this.emit(environmentUlid, undefined);
            return undefined;
          }
          const current = this.entries.get(environmentUlid);
          const revision = changes.kind === 'full' ? changes.loaded.revision : changes.revision;
          // Revisions only grow: never replace a newer snapshot with an older load.
          if (current && current.revision >= revision) return current;
          let entry: EnvironmentSnapshot;
          if (changes.kind === 'full') entry = buildEnvironmentSnapshot(changes.loaded);
          // A delta applies to the snapshot it was computed from; anything else reloads in full.
          else if (current && current === held) entry = applyFlagChanges(current, changes);
          else return this.reloadWhole(environmentUlid);
          this.entries.set(environmentUlid, entry);
          this.emit(environmentUlid, entry);
          return entry;
        })
        .finally(() => this.loading.delete(environmentUlid));
      this.loading.set(environmentUlid, pending);
    }
    return pending;
  }

  private async reloadWhole(environmentUlid: string): Promise<EnvironmentSnapshot | undefined> {
    const loaded = await this.source.load(environmentUlid);
    if (!loaded) return undefined;
    const current = this.entries.get(environmentUlid);
    if (current && current.revision >= loaded.revision) return current;
    const entry = buildEnvironmentSnapshot(loaded);
    this.entries.set(environmentUlid, entry);
    this.emit(environmentUlid, entry);
    return entry;
  }

  private emit(environmentUlid: string, entry: EnvironmentSnapshot | undefined): void {
    for (const listener of this.listeners) {
      try {
        listener(environmentUlid, entry);
      } catch (error) {
        this.logger.error({ err: error }, 'snapshot listener failed');
      }
    }
  }
}
