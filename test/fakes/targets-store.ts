import type { Knex } from 'knex';
import type { Transactor } from '../../src/features/shared/transactions.js';
import type {
  LockedEnvironment,
  TargetCondition,
  TargetPatch,
  TargetRecord,
  TargetScope,
  TargetStore,
} from '../../src/features/targets/store-types.js';
import { newId } from '../../src/ids.js';

interface FakeEnvironment extends LockedEnvironment {
  key: string;
  project_ulid: string;
  project_key: string;
  revision: number;
}

interface FakeValue {
  ulid: string;
  flag_ulid: string;
  is_default: boolean;
}

interface FakeRule {
  ulid: string;
  target_ulid: string;
  value_ulid: string;
  description: string;
  position: number;
  criteria: Array<{ ulid: string; selector: string; comparer: string; values: string[]; segments: string[] }>;
}

export interface FakeAuditRow {
  subject_ulid: string | undefined;
  action: string;
  actor_type: string | null;
  result: string;
}

interface State {
  environments: Map<string, FakeEnvironment>;
  flags: Map<string, { ulid: string; key: string }>;
  values: Map<string, FakeValue>;
  targets: Map<string, TargetRecord>;
  rules: FakeRule[];
  audit: FakeAuditRow[];
}

function matches(t: TargetRecord, c: TargetCondition): boolean {
  if (c.status && !c.status.includes(t.status)) return false;
  if (c.rollout_status && !c.rollout_status.includes(t.rollout_status)) return false;
  if (c.rollout_step_started_at !== undefined && c.rollout_step_started_at !== t.rollout_step_started_at) return false;
  return true;
}

const newestPublishFirst = (a: TargetRecord, b: TargetRecord) =>
  (b.published_at ?? '').localeCompare(a.published_at ?? '') || b.ulid.localeCompare(a.ulid);

/**
 * In-memory TargetStore for the service's unit tests; it ignores the database it is given. Its
 * `tx` (the services' deps.tx) runs transactions one at a time (like the flag's target lock) and
 * rolls them back on a throw by restoring a snapshot.
 */
export class FakeTargetStore implements TargetStore {
  state: State = {
    environments: new Map(),
    flags: new Map(),
    values: new Map(),
    targets: new Map(),
    rules: [],
    audit: [],
  };
  private queue: Promise<unknown> = Promise.resolve();
  /** What the services' reads run on (ignored). */
  readonly db = {} as Knex;
  readonly tx: Transactor = {
    transaction: <T>(work: (trx: Knex.Transaction) => Promise<T>): Promise<T> => {
      const run = async () => {
        const snapshot = structuredClone(this.state);
        try {
          return await work({} as Knex.Transaction);
        } catch (error) {
          this.state = snapshot;
          throw error;
        }
      };
      const result = this.queue.then(run, run);
      this.queue = result.catch(() => undefined);
      return result;
    },
  };

  // ------------------------------------------------------------ seeding helpers for tests

  addEnvironment(env: Partial<FakeEnvironment> & { ulid: string }): void {
    this.state.environments.set(env.ulid, {
      key: 'production',
      project_ulid: 'prj_1',
      project_key: 'shop',
      comments_required: false,
      confirmation_required: false,
      revision: 1,
      ...env,
    });
  }

  addFlag(ulid: string, key: string): void {
    this.state.flags.set(ulid, { ulid, key });
  }

  addValue(value: FakeValue): void {
    this.state.values.set(value.ulid, value);
  }

  addRule(rule: FakeRule): void {
    this.state.rules.push(rule);
  }

  addTarget(target: TargetRecord): void {
    this.state.targets.set(target.ulid, { ...target });
  }

  revision(environmentUlid: string): number {
    return this.state.environments.get(environmentUlid)?.revision ?? 0;
  }

  rulesOf(targetUlid: string): FakeRule[] {
    return this.state.rules.filter((r) => r.target_ulid === targetUlid).sort((a, b) => a.position - b.position);
  }

  // ------------------------------------------------------------ TargetStore

  async list(_db: unknown, flagUlid: string, environmentUlid: string): Promise<TargetRecord[]> {
    return [...this.state.targets.values()]
      .filter((t) => t.flag_ulid === flagUlid && t.environment_ulid === environmentUlid)
      .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.ulid.localeCompare(a.ulid))
      .map((t) => ({ ...t }));
  }

  async find(_db: unknown, flagUlid: string, environmentUlid: string, targetUlid: string): Promise<TargetRecord | undefined> {
    const t = this.state.targets.get(targetUlid);
    return t && t.flag_ulid === flagUlid && t.environment_ulid === environmentUlid ? { ...t } : undefined;
  }

  findLocked(trx: Knex.Transaction, flagUlid: string, environmentUlid: string, targetUlid: string): Promise<TargetRecord | undefined> {
    return this.find(trx, flagUlid, environmentUlid, targetUlid);
  }

  async lockFlagTargets(_trx: Knex.Transaction, _flagUlid: string, environmentUlid: string): Promise<LockedEnvironment | undefined> {
    const env = this.state.environments.get(environmentUlid);
    return env && { ulid: env.ulid, comments_required: env.comments_required, confirmation_required: env.confirmation_required };
  }

  async listPublished(_trx: Knex.Transaction, flagUlid: string, environmentUlid: string): Promise<TargetRecord[]> {
    return [...this.state.targets.values()]
      .filter((t) => t.flag_ulid === flagUlid && t.environment_ulid === environmentUlid && t.status === 'published')
      .sort(newestPublishFirst)
      .map((t) => ({ ...t }));
  }

  async latestPublishedAt(_trx: Knex.Transaction, flagUlid: string, environmentUlid: string): Promise<string | null> {
    let latest: string | null = null;
    for (const t of this.state.targets.values()) {
      if (t.flag_ulid !== flagUlid || t.environment_ulid !== environmentUlid || t.published_at === null) continue;
      if (latest === null || t.published_at > latest) latest = t.published_at;
    }
    return latest;
  }

  async insert(_trx: Knex.Transaction, record: TargetRecord): Promise<void> {
    this.state.targets.set(record.ulid, { ...record });
  }

  async updateIf(_trx: Knex.Transaction, targetUlid: string, condition: TargetCondition, patch: TargetPatch): Promise<boolean> {
    const t = this.state.targets.get(targetUlid);
    if (!t || !matches(t, condition)) return false;
    Object.assign(t, patch);
    return true;
  }

  async deleteIf(_trx: Knex.Transaction, targetUlid: string, condition: TargetCondition): Promise<boolean> {
    const t = this.state.targets.get(targetUlid);
    if (!t || !matches(t, condition)) return false;
    this.state.targets.delete(targetUlid);
    this.state.rules = this.state.rules.filter((r) => r.target_ulid !== targetUlid);
    return true;
  }

  async expire(_trx: Knex.Transaction, targetUlids: readonly string[], now: string): Promise<void> {
    for (const ulid of targetUlids) {
      const t = this.state.targets.get(ulid);
      if (!t || t.status !== 'published') continue;
      const over = t.rollout_status === 'active' || t.rollout_status === 'paused';
      Object.assign(t, { status: 'expired', updated_at: now, ...(over ? { rollout_status: 'completed' } : {}) });
    }
  }

  async defaultValueUlid(_trx: Knex.Transaction, flagUlid: string): Promise<string | undefined> {
    return [...this.state.values.values()].find((v) => v.flag_ulid === flagUlid && v.is_default)?.ulid;
  }

  async valueBelongsToFlag(_trx: Knex.Transaction, valueUlid: string, flagUlid: string): Promise<boolean> {
    return this.state.values.get(valueUlid)?.flag_ulid === flagUlid;
  }

  async copyRules(_trx: Knex.Transaction, fromTargetUlid: string, toTargetUlid: string): Promise<void> {
    for (const rule of this.rulesOf(fromTargetUlid)) {
      this.state.rules.push({
        ...structuredClone(rule),
        ulid: newId('rule'),
        target_ulid: toTargetUlid,
        criteria: rule.criteria.map((c) => ({ ...structuredClone(c), ulid: newId('criterion') })),
      });
    }
  }

  async bumpRevision(_trx: Knex.Transaction, environmentUlid: string): Promise<void> {
    const env = this.state.environments.get(environmentUlid);
    if (env) env.revision++;
  }

  async dueScheduled(_db: unknown, now: string, limit: number): Promise<TargetScope[]> {
    return [...this.state.targets.values()]
      .filter((t) => t.status === 'scheduled' && t.scheduled_at !== null && t.scheduled_at <= now)
      .sort((a, b) => (a.scheduled_at ?? '').localeCompare(b.scheduled_at ?? ''))
      .slice(0, limit)
      .map((t) => this.scope(t));
  }

  async dueRolloutSteps(_db: unknown, startedBefore: string, limit: number): Promise<TargetScope[]> {
    return [...this.state.targets.values()]
      .filter(
        (t) =>
          t.status === 'published' &&
          t.rollout_mode === 'automatic' &&
          t.rollout_status === 'active' &&
          t.rollout_step_started_at !== null &&
          t.rollout_step_started_at <= startedBefore,
      )
      .slice(0, limit)
      .map((t) => this.scope(t));
  }

  async lastSystemFailure(_db: unknown, targetUlid: string, action: string): Promise<boolean> {
    const last = [...this.state.audit].reverse().find((a) => a.subject_ulid === targetUlid);
    return last !== undefined && last.action === action && last.actor_type === 'system' && last.result !== 'success';
  }

  private scope(t: TargetRecord): TargetScope {
    const env = this.state.environments.get(t.environment_ulid);
    return {
      target: { ...t },
      projectUlid: env?.project_ulid ?? 'prj_1',
      projectKey: env?.project_key ?? 'shop',
      flagKey: this.state.flags.get(t.flag_ulid)?.key ?? 'flag',
      environmentKey: env?.key ?? 'production',
    };
  }
}
