import type { SplitRecord } from '../features/shared/splits.js';
import { readSplits } from '../features/shared/split-store.js';
import { chunks, inChunks } from '../storage/chunks.js';
import type { Db } from '../storage/db.js';
import type {
  ConfigStore,
  CriterionRow,
  EnvironmentRow,
  FlagRow,
  PrerequisiteRow,
  RevisionChangeRow,
  RuleRow,
  SegmentRow,
  TargetRow,
  ValueRow,
} from './config-store-types.js';

const FLAG_COLUMNS = ['ulid', 'key', 'name', 'type', 'include_in_mobile', 'include_in_client'];
const VALUE_COLUMNS = ['ulid', 'flag_ulid', 'display', 'is_default'];
const TARGET_COLUMNS = ['ulid', 'flag_ulid', 'value_ulid', 'status', 'published_at', 'rollout_percentage', 'rollout_status'];

/** The SQL of the config loader (src/runtime/config-loader.ts). */
export class KnexConfigStore implements ConfigStore {
  async revisions(db: Db): Promise<Array<{ ulid: string; revision: number }>> {
    const rows: Array<{ ulid: string; revision: number | string }> = await db('environments').select('ulid', 'revision');
    return rows.map((r) => ({ ulid: r.ulid, revision: Number(r.revision) }));
  }

  async revisionOf(db: Db, environmentUlid: string): Promise<number | undefined> {
    const row = await db('environments').where('ulid', environmentUlid).first('revision');
    return row ? Number(row.revision) : undefined;
  }

  environment(db: Db, environmentUlid: string): Promise<EnvironmentRow | undefined> {
    return db('environments').where('ulid', environmentUlid).first('ulid', 'key', 'project_ulid', 'revision');
  }

  projectFlags(db: Db, projectUlid: string): Promise<FlagRow[]> {
    return db('flags')
      .where('project_ulid', projectUlid)
      .select(...FLAG_COLUMNS);
  }

  flagsOf(db: Db, projectUlid: string, flagUlids: readonly string[]): Promise<FlagRow[]> {
    return inChunks(flagUlids, (part) =>
      db('flags')
        .where('project_ulid', projectUlid)
        .whereIn('ulid', part)
        .select(...FLAG_COLUMNS),
    );
  }

  projectValues(db: Db, projectUlid: string): Promise<ValueRow[]> {
    return db('flag_values as v')
      .join('flags as f', 'f.ulid', 'v.flag_ulid')
      .where('f.project_ulid', projectUlid)
      .select('v.ulid', 'v.flag_ulid', 'v.display', 'v.is_default');
  }

  valuesOfFlags(db: Db, flagUlids: readonly string[]): Promise<ValueRow[]> {
    return inChunks(flagUlids, (part) =>
      db('flag_values')
        .whereIn('flag_ulid', part)
        .select(...VALUE_COLUMNS),
    );
  }

  values(db: Db, valueUlids: readonly string[]): Promise<ValueRow[]> {
    return inChunks(valueUlids, (part) =>
      db('flag_values')
        .whereIn('ulid', part)
        .select(...VALUE_COLUMNS),
    );
  }

  valueDisplays(db: Db, valueUlids: readonly string[]): Promise<Array<{ ulid: string; display: string }>> {
    return inChunks(valueUlids, (part) => db('flag_values').whereIn('ulid', part).select('ulid', 'display'));
  }

  publishedTargets(db: Db, environmentUlid: string, flagUlids?: readonly string[]): Promise<TargetRow[]> {
    const published = () => db('targets').where({ environment_ulid: environmentUlid, status: 'published' });
    if (flagUlids === undefined) return published().select(...TARGET_COLUMNS);
    return inChunks(flagUlids, (part) =>
      published()
        .whereIn('flag_ulid', part)
        .select(...TARGET_COLUMNS),
    );
  }

  expiredBefore(db: Db, environmentUlid: string, flagUlid: string, serving: TargetRow): Promise<TargetRow | undefined> {
    return db('targets')
      .where({ environment_ulid: environmentUlid, flag_ulid: flagUlid, status: 'expired' })
      .whereNotNull('published_at')
      .where('published_at', '<=', serving.published_at ?? '')
      .whereNot('ulid', serving.ulid)
      .orderBy([
        { column: 'published_at', order: 'desc' },
        { column: 'ulid', order: 'desc' },
      ])
      .first(...TARGET_COLUMNS);
  }

  rules(db: Db, targetUlids: readonly string[]): Promise<RuleRow[]> {
    return inChunks(targetUlids, (part) =>
      db('rules').whereIn('target_ulid', part).select('ulid', 'target_ulid', 'value_ulid', 'position'),
    );
  }

  criteria(db: Db, ruleUlids: readonly string[]): Promise<CriterionRow[]> {
    return inChunks(ruleUlids, (part) =>
      db('criteria').whereIn('rule_ulid', part).select('rule_ulid', 'selector', 'sub_selector', 'comparer', 'position', 'values'),
    );
  }

  splits(db: Db, ownerUlids: readonly string[]): Promise<Map<string, SplitRecord>> {
    return readSplits(db, ownerUlids);
  }

  prerequisites(db: Db, targetUlids: readonly string[]): Promise<PrerequisiteRow[]> {
    return inChunks(targetUlids, (part) =>
      db('target_prerequisites as p')
        .join('flags as f', 'f.ulid', 'p.required_flag_ulid')
        .whereIn('p.target_ulid', part)
        .select('p.target_ulid', 'p.position', 'f.key', 'f.type', 'p.value_ulids'),
    );
  }

  segments(db: Db, projectUlid: string): Promise<SegmentRow[]> {
    return db('segments').where('project_ulid', projectUlid).select('ulid', 'key', 'included', 'excluded', 'rules');
  }

  latestChanges(db: Db, environmentUlid: string, revision: number): Promise<RevisionChangeRow[]> {
    return db('revision_changes')
      .where('environment_ulid', environmentUlid)
      .where('revision', '<=', revision)
      .groupBy('flag_ulid')
      .select('flag_ulid')
      .max({ revision: 'revision' });
  }

  changesBetween(db: Db, environmentUlid: string, since: number, revision: number): Promise<RevisionChangeRow[]> {
    return db('revision_changes')
      .where('environment_ulid', environmentUlid)
      .where('revision', '>', since)
      .where('revision', '<=', revision)
      .select('revision', 'flag_ulid');
  }

  async requiredByPublished(db: Db, environmentUlid: string, flagUlids: readonly string[]): Promise<boolean> {
    for (const part of chunks(flagUlids)) {
      const row = await db('target_prerequisites as p')
        .join('targets as t', 't.ulid', 'p.target_ulid')
        .where('t.environment_ulid', environmentUlid)
        .whereIn('t.status', ['published', 'expired'])
        .whereIn('p.required_flag_ulid', part)
        .first('p.target_ulid');
      if (row !== undefined) return true;
    }
    return false;
  }
}
