import type { EnvironmentConfig } from '../../src/engine/index.js';
import type { ChangedFlag, ConfigSource, EnvironmentRevision, LoadedChanges, LoadedEnvironment } from '../../src/runtime/config-source.js';
import type { TelemetryBatch } from '../../src/runtime/telemetry-buffer.js';
import type { TelemetryStore } from '../../src/runtime/telemetry-store.js';

/** In-memory ConfigSource for unit tests: environments are set and changed directly. */
export class FakeConfigSource implements ConfigSource {
  readonly environments = new Map<string, LoadedEnvironment>();
  /** Whole-environment loads. */
  loads = 0;
  /** Loads of changed flags only. */
  flagLoads = 0;
  /** Changed flag keys by environment and revision (recorded by `change`). */
  private readonly changeLog = new Map<string, Map<number, string[]>>();

  /** Sets (or replaces) an environment; its revision is the config's. */
  set(environment: { ulid: string; key?: string; projectUlid?: string; config: EnvironmentConfig; flagUlids?: Map<string, string> }): void {
    this.environments.set(environment.ulid, {
      environmentUlid: environment.ulid,
      environmentKey: environment.key ?? environment.ulid,
      projectUlid: environment.projectUlid ?? 'prj_test',
      revision: environment.config.revision,
      config: environment.config,
      flagUlids: environment.flagUlids ?? new Map(environment.config.flags.map((f) => [f.key, `flg_${f.key}`])),
    });
  }

  /**
   * Replaces an environment's configuration as a change of these flags only (the new config's
   * revision): loadChangesSince then returns just them, as revision_changes makes the Knex source do.
   */
  change(ulid: string, config: EnvironmentConfig, changedFlagKeys: string[]): void {
    const current = this.environments.get(ulid);
    const flagUlids = new Map(config.flags.map((f) => [f.key, current?.flagUlids.get(f.key) ?? `flg_${f.key}`]));
    this.set({ ulid, key: current?.environmentKey, projectUlid: current?.projectUlid, config, flagUlids });
    const log = this.changeLog.get(ulid) ?? new Map<number, string[]>();
    log.set(config.revision, changedFlagKeys);
    this.changeLog.set(ulid, log);
  }

  delete(ulid: string): void {
    this.environments.delete(ulid);
  }

  async listRevisions(): Promise<EnvironmentRevision[]> {
    return [...this.environments.values()].map((e) => ({ ulid: e.environmentUlid, revision: e.revision }));
  }

  async revisionOf(environmentUlid: string): Promise<number | undefined> {
    return this.environments.get(environmentUlid)?.revision;
  }

  async load(environmentUlid: string): Promise<LoadedEnvironment | undefined> {
    this.loads++;
    const env = this.environments.get(environmentUlid);
    if (!env) return undefined;
    // Each flag's newest recorded change, as revision_changes gives the Knex source.
    const flags = new Map<string, number>();
    for (const [revision, keys] of this.changeLog.get(environmentUlid) ?? []) {
      for (const key of keys) {
        const ulid = env.flagUlids.get(key) ?? `flg_${key}`;
        flags.set(ulid, Math.max(flags.get(ulid) ?? 0, revision));
      }
    }
    return { ...env, changes: { flags, segments: 0 } };
  }

  async loadChangesSince(environmentUlid: string, since: number): Promise<LoadedChanges | undefined> {
    const env = this.environments.get(environmentUlid);
    if (!env) return undefined;
    const log = this.changeLog.get(environmentUlid);
    const keys = new Set<string>();
    for (let revision = since + 1; revision <= env.revision; revision++) {
      const changed = log?.get(revision);
      if (!changed) {
        this.loads++;
        return { kind: 'full', loaded: env };
      }
      for (const key of changed) keys.add(key);
    }
    this.flagLoads++;
    const flags = new Map<string, ChangedFlag | null>();
    for (const key of keys) {
      const config = env.config.flags.find((f) => f.key === key);
      let changedAt = 0;
      for (const [revision, changed] of log ?? [])
        if (revision <= env.revision && changed.includes(key)) changedAt = Math.max(changedAt, revision);
      flags.set(env.flagUlids.get(key) ?? `flg_${key}`, config ? { key, config, revision: changedAt } : null);
    }
    return { kind: 'flags', environmentUlid, revision: env.revision, flags };
  }
}

/** In-memory TelemetryStore: keeps every written batch; can be told to fail. */
export class FakeTelemetryStore implements TelemetryStore {
  readonly batches: TelemetryBatch[] = [];
  failNext = false;

  async write(batch: TelemetryBatch): Promise<TelemetryBatch> {
    if (this.failNext) {
      this.failNext = false;
      throw new Error('database unavailable');
    }
    this.batches.push(batch);
    return { flags: [], defaultReports: [], contexts: [], evaluationHours: [] };
  }
}
