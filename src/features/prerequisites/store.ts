import type { Knex } from 'knex';
import { hasRowLocks } from '../../storage/database.js';
import type { Db } from '../../storage/db.js';
import { LIVE_STATUSES } from './references-store.js';
import { storedStringList, TargetPartStore } from '../shared/target-resolution-store.js';
import type { PrerequisiteEdge, PrerequisiteRecord, PrerequisitesStore } from './store-types.js';

export class KnexPrerequisitesStore extends TargetPartStore implements PrerequisitesStore {
  async list(db: Db, targetUlid: string): Promise<PrerequisiteRecord[]> {
    const rows = (await db('target_prerequisites as p')
      .join('flags as f', 'f.ulid', 'p.required_flag_ulid')
      .where('p.target_ulid', targetUlid)
      .orderBy('p.position')
      .select('f.key', 'p.required_flag_ulid', 'p.value_ulids')) as { key: string; required_flag_ulid: string; value_ulids: string }[];
    return rows.map((r) => ({ flag_key: r.key, flag_ulid: r.required_flag_ulid, value_ulids: storedStringList(r.value_ulids) }));
  }

  async findFlags(trx: Knex.Transaction, projectUlid: string, keys: readonly string[]): Promise<Map<string, string>> {
    if (keys.length === 0) return new Map();
    // Locked, so a racing deleteFlag waits and then sees the new prerequisite (an exclusive lock:
    // shared locks are not portable, docs/databases.md).
    const query = trx('flags')
      .where('project_ulid', projectUlid)
      .whereIn('key', [...keys]);
    if (hasRowLocks(this.dialect)) query.forUpdate();
    const rows = (await query.select('ulid', 'key')) as { ulid: string; key: string }[];
    return new Map(rows.map((r) => [r.key, r.ulid]));
  }

  async valuesOfFlag(trx: Knex.Transaction, flagUlid: string, valueUlids: readonly string[]): Promise<Set<string>> {
    if (valueUlids.length === 0) return new Set();
    const rows = (await trx('flag_values')
      .where('flag_ulid', flagUlid)
      .whereIn('ulid', [...valueUlids])
      .select('ulid')) as {
      ulid: string;
    }[];
    return new Set(rows.map((r) => r.ulid));
  }

  async edges(trx: Knex.Transaction, environmentUlid: string, exceptTarget: string): Promise<PrerequisiteEdge[]> {
    const rows = (await trx('target_prerequisites as p')
      .join('targets as t', 't.ulid', 'p.target_ulid')
      .where('t.environment_ulid', environmentUlid)
      .whereIn('t.status', LIVE_STATUSES)
      .whereNot('t.ulid', exceptTarget)
      .select('t.flag_ulid', 'p.required_flag_ulid')) as { flag_ulid: string; required_flag_ulid: string }[];
    return rows.map((r) => ({ from: r.flag_ulid, to: r.required_flag_ulid }));
  }

  async replace(trx: Knex.Transaction, targetUlid: string, list: readonly PrerequisiteRecord[]): Promise<void> {
    await trx('target_prerequisites').where('target_ulid', targetUlid).delete();
    if (list.length === 0) return;
    await trx('target_prerequisites').insert(
      list.map((p, position) => ({
        target_ulid: targetUlid,
        required_flag_ulid: p.flag_ulid,
        position,
        value_ulids: JSON.stringify(p.value_ulids),
      })),
    );
  }
}
