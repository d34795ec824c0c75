import type { EnvironmentConfig } from '../../engine/index.js';
import type { ConfigSource, EnvironmentRevision, LoadedEnvironment } from '../../runtime/config-source.js';
import type { TelemetryBatch } from '../../runtime/telemetry-buffer.js';
import type { TelemetryStore } from '../../runtime/telemetry-store.js';

/** In-memory ConfigSource for unit tests: environments are set and changed directly. */
export class FakeConfigSource implements ConfigSource {
  readonly environments = new Map<string, LoadedEnvironment>();
  loads = 0;

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
    return this.environments.get(environmentUlid);
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
    return { flags: [], defaultReports: [], contexts: [] };
  }
}
