import type { ResourceAccess } from '../../src/auth/principal.js';
import { NotFoundError } from '../../src/http/errors.js';
import type { EnvironmentRef, FlagRef, ProjectRef } from '../../src/features/shared/lookup.js';
import type {
  ContextObservationRecord,
  DefaultReportRecord,
  EvaluationHourRecord,
  ExposureRecord,
  FlagTelemetryRecord,
  InsightsStore,
  ProjectFlagRecord,
} from '../../src/features/insights/store-types.js';

/** In-memory InsightsStore for unit tests. */
export class FakeInsightsStore implements InsightsStore {
  project: ProjectRef = { ulid: 'prj_1', key: 'shop', name: 'Shop' };
  environments: EnvironmentRef[] = [
    { ulid: 'env_1', key: 'production', name: 'Production', project_ulid: 'prj_1', comments_required: false, confirmation_required: false },
  ];
  flags: Array<ProjectFlagRecord & { type: FlagRef['type'] }> = [];
  telemetry = new Map<string, FlagTelemetryRecord>();
  /** Management change times per flag ulid and environment ulid. */
  updates = new Map<string, string>();
  reports = new Map<string, DefaultReportRecord[]>();
  observations = new Map<string, ContextObservationRecord[]>();
  /** Exposure sketches by `${flagUlid}/${environmentUlid}`. */
  exposureRecords = new Map<string, ExposureRecord[]>();
  /** Hourly evaluation counts by `${flagUlid}/${environmentUlid}`. */
  evaluationHourRecords = new Map<string, EvaluationHourRecord[]>();

  private environment(access: ResourceAccess, projectKey: string, environmentKey: string): EnvironmentRef {
    if (projectKey !== this.project.key || !access.canSeeProject(this.project.ulid)) {
      throw new NotFoundError(`Project "${projectKey}" not found.`);
    }
    const environment = this.environments.find((e) => e.key === environmentKey);
    if (!environment || !access.canSeeEnvironment(this.project.ulid, environment.ulid)) {
      throw new NotFoundError(`Environment "${environmentKey}" not found.`);
    }
    return environment;
  }

  async findFlagEnvironment(access: ResourceAccess, params: { projectKey: string; flagKey: string; environmentKey: string }) {
    const environment = this.environment(access, params.projectKey, params.environmentKey);
    const flag = this.flags.find((f) => f.key === params.flagKey);
    if (!flag) throw new NotFoundError(`Flag "${params.flagKey}" not found.`);
    return {
      project: this.project,
      environment,
      flag: { ulid: flag.ulid, key: flag.key, name: flag.name, type: flag.type, project_ulid: this.project.ulid },
    };
  }

  async findEnvironment(access: ResourceAccess, params: { projectKey: string; environmentKey: string }) {
    return { project: this.project, environment: this.environment(access, params.projectKey, params.environmentKey) };
  }

  async flagTelemetry(flagUlid: string, environmentUlid: string) {
    return this.telemetry.get(`${flagUlid}|${environmentUlid}`);
  }

  async lastUsed(environmentUlid: string) {
    const out = new Map<string, string | null>();
    for (const [key, row] of this.telemetry) {
      const [flagUlid, envUlid] = key.split('|') as [string, string];
      if (envUlid === environmentUlid) out.set(flagUlid, row.last_used_at);
    }
    return out;
  }

  async lastUpdated(flagUlids: readonly string[], environmentUlid: string) {
    const out = new Map<string, string>();
    for (const ulid of flagUlids) {
      const flag = this.flags.find((f) => f.ulid === ulid);
      const change = this.updates.get(`${ulid}|${environmentUlid}`);
      const latest = [flag?.updated_at, change]
        .filter((v): v is string => v !== undefined)
        .sort()
        .at(-1);
      if (latest) out.set(ulid, latest);
    }
    return out;
  }

  async projectFlags() {
    return this.flags.map(({ type: _type, ...flag }) => flag);
  }

  async defaultReports(environmentUlid: string) {
    return [...(this.reports.get(environmentUlid) ?? [])];
  }

  async contextObservations(environmentUlid: string) {
    return [...(this.observations.get(environmentUlid) ?? [])];
  }

  async exposures(flagUlid: string, environmentUlid: string, fromDay: string) {
    return (this.exposureRecords.get(`${flagUlid}/${environmentUlid}`) ?? []).filter((r) => r.day >= fromDay).map((r) => ({ ...r }));
  }

  async evaluationHours(flagUlid: string, environmentUlid: string, fromHour: string) {
    return (this.evaluationHourRecords.get(`${flagUlid}/${environmentUlid}`) ?? [])
      .filter((r) => r.hour >= fromHour)
      .map((r) => ({ ...r }));
  }
}
