import type { Db } from '../../storage/db.js';
import type { ExplanationStore, RuleDescription } from './store-types.js';

export class KnexExplanationStore implements ExplanationStore {
  async publishedTargetUlids(db: Db, flagUlid: string, environmentUlid: string, limit: number): Promise<string[]> {
    const rows = (await db('targets')
      .where({ flag_ulid: flagUlid, environment_ulid: environmentUlid, status: 'published' })
      .orderBy([
        { column: 'published_at', order: 'desc' },
        { column: 'ulid', order: 'desc' },
      ])
      .limit(limit)
      .select('ulid')) as Array<{ ulid: string }>;
    return rows.map((r) => r.ulid);
  }

  ruleDescriptions(db: Db, targetUlid: string): Promise<RuleDescription[]> {
    return db('rules').where('target_ulid', targetUlid).orderBy('position').select('ulid', 'description');
  }
}
