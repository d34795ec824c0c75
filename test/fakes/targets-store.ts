import type { Knex } from 'knex';
import { newId } from '../../src/ids.js';
import type {
  LockedEnvironment,
  TargetCondition,
  TargetPatch,
  TargetRecord,
  TargetScope,
  TargetStore,
  TargetTransaction,
} from '../../src/features/targets/store-types.js';

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
 * In-memory TargetStore for the service's unit tests. Transactions run one at a time (like the
 * environment lock) and roll back on a throw by restoring a snapshot.
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

  async list(flagUlid: string, environmentUlid: string): Promise<TargetRecord[]> {
    return [...this.state.targets.values()]
      .filter((t) => t.flag_ulid === flagUlid && t.environment_ulid === environmentUlid)
      .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.ulid.localeCompare(a.ulid))
      .map((t) => ({ ...t }));
  }

  async find(flagUlid: string, environmentUlid: string, targetUlid: string): Promise<TargetRecord | undefined> {
    const t = this.state.targets.get(targetUlid);
    return t && t.flag_ulid === flagUlid && t.environment_ulid === environmentUlid ? { ...t } : undefined;
  }

  transaction<T>(work: (tx: TargetTransaction) => Promise<T>): Promise<T> {
    const run = async () => {
      const snapshot = structuredClone(this.state);
      try {
        return await work(this.tx());
      } catch (error) {
        this.state = snapshot;
        throw error;
      }
    };
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => undefined);
    return result;
  }

  async dueScheduled(now: string, limit: number): Promise<TargetScope[]> {
    return [...this.state.targets.values()]
      .filter((t) => t.status === 'scheduled' && t.scheduled_at !== null && t.scheduled_at <= now)
      .sort((a, b) => (a.scheduled_at ?? '').localeCompare(b.scheduled_at ?? ''))
      .slice(0, limit)
      .map((t) => this.scope(t));
  }

  async dueRolloutSteps(startedBefore: string, limit: number): Promise<TargetScope[]> {
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

  async lastSystemFailure(targetUlid: string, action: string): Promise<boolean> {
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

  private tx(): TargetTransaction {
    const store = this;
    const s = () => store.state;
    return {
      trx: {} as Knex.Transaction,
      async lockEnvironment(environmentUlid) {
        const env = s().environments.get(environmentUlid);
        return env && { ulid: env.ulid, comments_required: env.comments_required, confirmation_required: env.confirmation_required };
      },
      find: (f, e, t) => store.find(f, e, t),
      async listPublished(flagUlid, environmentUlid) {
        return [...s().targets.values()]
          .filter((t) => t.flag_ulid === flagUlid && t.environment_ulid === environmentUlid && t.status === 'published')
          .sort(newestPublishFirst)
          .map((t) => ({ ...t }));
      },
      async latestPublishedAt(flagUlid, environmentUlid) {
        let latest: string | null = null;
        for (const t of s().targets.values()) {
          if (t.flag_ulid !== flagUlid || t.environment_ulid !== environmentUlid || t.published_at === null) continue;
          if (latest === null || t.published_at > latest) latest = t.published_at;
        }
        return latest;
      },
      async insert(record) {
        s().targets.set(record.ulid, { ...record });
      },
      async updateIf(targetUlid: string, condition: TargetCondition, patch: TargetPatch) {
        const t = s().targets.get(targetUlid);
        if (!t || !matches(t, condition)) return false;
        Object.assign(t, patch);
        return true;
      },
      async deleteIf(targetUlid, condition) {
        const t = s().targets.get(targetUlid);
        if (!t || !matches(t, condition)) return false;
        s().targets.delete(targetUlid);
        s().rules = s().rules.filter((r) => r.target_ulid !== targetUlid);
        return true;
      },
      async expire(targetUlids, now) {
        for (const ulid of targetUlids) {
          const t = s().targets.get(ulid);
          if (!t || t.status !== 'published') continue;
          const over = t.rollout_status === 'active' || t.rollout_status === 'paused';
          Object.assign(t, { status: 'expired', updated_at: now, ...(over ? { rollout_status: 'completed' } : {}) });
        }
      },
      async defaultValueUlid(flagUlid) {
        return [...s().values.values()].find((v) => v.flag_ulid === flagUlid && v.is_default)?.ulid;
      },
      async valueBelongsToFlag(valueUlid, flagUlid) {
        return s().values.get(valueUlid)?.flag_ulid === flagUlid;
      },
      async copyRules(fromTargetUlid, toTargetUlid) {
        for (const rule of store.rulesOf(fromTargetUlid)) {
          s().rules.push({
            ...structuredClone(rule),
            ulid: newId('rule'),
            target_ulid: toTargetUlid,
            criteria: rule.criteria.map((c) => ({ ...structuredClone(c), ulid: newId('criterion') })),
          });
        }
      },
      async bumpRevision(environmentUlid) {
        const env = s().environments.get(environmentUlid);
        if (env) env.revision++;
      },
    };
  }
}
