import type { Knex } from 'knex';
import type { Db } from '../../src/storage/db.js';
import type { Transactor } from '../../src/features/shared/transactions.js';
import { fakeTransactor } from './transactor.js';
import type { ResourceAccess } from '../../src/auth/principal.js';
import { NotFoundError } from '../../src/http/errors.js';
import type { EnvironmentRef, FlagRef, ProjectRef } from '../../src/features/shared/lookup.js';
import type {
  CriterionRecord,
  ResolvedTarget,
  RuleRecord,
  RuleRow,
  RulesStore,
  SegmentLink,
  TargetPath,
  TargetRef,
} from '../../src/features/rules/store-types.js';

interface FakeTarget extends TargetRef {
  flag_ulid: string;
  environment_ulid: string;
}

interface State {
  projects: ProjectRef[];
  environments: EnvironmentRef[];
  flags: FlagRef[];
  values: { ulid: string; flag_ulid: string }[];
  targets: FakeTarget[];
  segments: { ulid: string; project_ulid: string; key: string }[];
  rules: RuleRow[];
  criteria: CriterionRecord[];
  links: SegmentLink[];
}

/** In-memory RulesStore for the service's unit tests; transactions roll back on error. */
export class FakeRulesStore implements RulesStore {
  state: State = {
    projects: [],
    environments: [],
    flags: [],
    values: [],
    targets: [],
    segments: [],
    rules: [],
    criteria: [],
    links: [],
  };

  async resolveTarget(_db: Db, access: ResourceAccess, path: TargetPath): Promise<ResolvedTarget> {
    const s = this.state;
    const project = s.projects.find((p) => p.key === path.projectKey);
    if (!project || !access.canSeeProject(project.ulid)) throw new NotFoundError(`Project "${path.projectKey}" not found.`);
    const flag = s.flags.find((f) => f.project_ulid === project.ulid && f.key === path.flagKey);
    if (!flag) throw new NotFoundError(`Flag "${path.flagKey}" not found.`);
    const environment = s.environments.find((e) => e.project_ulid === project.ulid && e.key === path.environmentKey);
    if (!environment || !access.canSeeEnvironment(project.ulid, environment.ulid)) {
      throw new NotFoundError(`Environment "${path.environmentKey}" not found.`);
    }
    const target = s.targets.find(
      (t) => t.ulid === path.targetUlid && t.flag_ulid === flag.ulid && t.environment_ulid === environment.ulid,
    );
    if (!target) throw new NotFoundError(`Target "${path.targetUlid}" not found.`);
    return {
      project: { ...project },
      flag: { ...flag },
      environment: { ...environment },
      target: { ulid: target.ulid, status: target.status },
    };
  }

  async listRules(_db: Db, targetUlid: string): Promise<RuleRecord[]> {
    return this.state.rules
      .filter((r) => r.target_ulid === targetUlid)
      .sort((a, b) => a.position - b.position || (a.ulid < b.ulid ? -1 : 1))
      .map((r) => ({
        ...r,
        criteria: this.state.criteria
          .filter((c) => c.rule_ulid === r.ulid)
          .sort((a, b) => a.position - b.position)
          .map((c) => ({ ...c, values: [...c.values] })),
      }));
  }

  /** Runs the service's work all or nothing, like the database: a failing `work` leaves the state as it was. */
  readonly tx: Transactor = fakeTransactor(() => {
    const saved = structuredClone(this.state);
    return () => {
      this.state = saved;
    };
  });

  async flagHasValue(_trx: Knex.Transaction, flagUlid: string, valueUlid: string): Promise<boolean> {
    return this.state.values.some((v) => v.ulid === valueUlid && v.flag_ulid === flagUlid);
  }

  async findSegments(_trx: Knex.Transaction, projectUlid: string, keys: readonly string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    for (const s of this.state.segments) {
      if (s.project_ulid === projectUlid && keys.includes(s.key)) found.set(s.key, s.ulid);
    }
    return found;
  }

  async insertRule(_trx: Knex.Transaction, rule: RuleRow, criteria: CriterionRecord[], links: SegmentLink[]): Promise<void> {
    const s = this.state;
    if (s.rules.some((r) => r.ulid === rule.ulid)) throw new Error('duplicate rule ulid');
    s.rules.push({ ...rule });
    this.insertCriteria(criteria, links);
  }

  async replaceRule(_trx: Knex.Transaction, rule: RuleRow, criteria: CriterionRecord[], links: SegmentLink[]): Promise<void> {
    this.removeCriteria(rule.ulid);
    const s = this.state;
    s.rules = s.rules.map((r) => (r.ulid === rule.ulid ? { ...r, ...rule, created_at: r.created_at } : r));
    this.insertCriteria(criteria, links);
  }

  async deleteRule(_trx: Knex.Transaction, ruleUlid: string): Promise<void> {
    this.removeCriteria(ruleUlid);
    this.state.rules = this.state.rules.filter((r) => r.ulid !== ruleUlid);
  }

  async setPositions(_trx: Knex.Transaction, changes: { ulid: string; position: number }[], updatedAt: string): Promise<void> {
    for (const change of changes) {
      const rule = this.state.rules.find((r) => r.ulid === change.ulid);
      if (rule) Object.assign(rule, { position: change.position, updated_at: updatedAt });
    }
  }

  private insertCriteria(criteria: CriterionRecord[], links: SegmentLink[]): void {
    const s = this.state;
    for (const c of criteria) s.criteria.push({ ...c, values: [...c.values] });
    for (const l of links) {
      if (!s.segments.some((seg) => seg.ulid === l.segment_ulid)) throw new Error('foreign key: segment');
      s.links.push({ ...l });
    }
  }

  private removeCriteria(ruleUlid: string): void {
    const s = this.state;
    const gone = new Set(s.criteria.filter((c) => c.rule_ulid === ruleUlid).map((c) => c.ulid));
    s.links = s.links.filter((l) => !gone.has(l.criterion_ulid));
    s.criteria = s.criteria.filter((c) => !gone.has(c.ulid));
  }
}
