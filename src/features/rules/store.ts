import type { Knex } from 'knex';
import { chunks } from '../../storage/chunks.js';
import { hasRowLocks } from '../../storage/database.js';
import type { Db } from '../../storage/db.js';
import type { Comparer, Selector } from './criteria.js';
import type { CriterionRecord, RuleRecord, RuleRow, RulesStore, SegmentLink } from './store-types.js';
import { deleteSplits, readSplits, writeSplit } from '../shared/split-store.js';
import { storedStringList, TargetPartStore } from '../shared/target-resolution-store.js';

interface CriterionDbRow {
  ulid: string;
  rule_ulid: string;
  selector: string;
  sub_selector: string | null;
  comparer: string;
  position: number | string;
  values: string;
}

export class KnexRulesStore extends TargetPartStore implements RulesStore {
  async listRules(db: Db, targetUlid: string): Promise<RuleRecord[]> {
    const rules = (await db('rules')
      .where('target_ulid', targetUlid)
      .orderBy([
        { column: 'position', order: 'asc' },
        { column: 'ulid', order: 'asc' },
      ])
      .select('ulid', 'target_ulid', 'value_ulid', 'description', 'position', 'created_at', 'updated_at')) as (Omit<RuleRow, 'split'> & {
      position: number | string;
    })[];
    if (rules.length === 0) return [];
    const splits = await readSplits(
      db,
      rules.map((r) => r.ulid),
    );
    const byRule = new Map<string, CriterionRecord[]>();
    for (const part of chunks(rules.map((r) => r.ulid))) {
      const rows = (await db('criteria')
        .whereIn('rule_ulid', part)
        .orderBy([
          { column: 'rule_ulid', order: 'asc' },
          { column: 'position', order: 'asc' },
          { column: 'ulid', order: 'asc' },
        ])
        .select('ulid', 'rule_ulid', 'selector', 'sub_selector', 'comparer', 'position', 'values')) as CriterionDbRow[];
      for (const row of rows) {
        const list = byRule.get(row.rule_ulid) ?? [];
        list.push({
          ulid: row.ulid,
          rule_ulid: row.rule_ulid,
          selector: row.selector as Selector,
          sub_selector: row.sub_selector ?? null,
          comparer: row.comparer as Comparer,
          position: Number(row.position),
          values: storedStringList(row.values),
        });
        byRule.set(row.rule_ulid, list);
      }
    }
    return rules.map((r) => ({
      ulid: r.ulid,
      target_ulid: r.target_ulid,
      value_ulid: r.value_ulid,
      split: splits.get(r.ulid) ?? null,
      description: r.description,
      position: Number(r.position),
      created_at: r.created_at,
      updated_at: r.updated_at,
      criteria: byRule.get(r.ulid) ?? [],
    }));
  }

  async flagHasValue(trx: Knex.Transaction, flagUlid: string, valueUlid: string): Promise<boolean> {
    // Locked (exclusively: docs/databases.md): a racing value deletion waits for this rule and then sees it.
    const query = trx('flag_values').where({ ulid: valueUlid, flag_ulid: flagUlid }).first('ulid');
    if (hasRowLocks(this.dialect)) query.forUpdate();
    return (await query) !== undefined;
  }

  async findSegments(trx: Knex.Transaction, projectUlid: string, keys: readonly string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    for (const part of chunks([...new Set(keys)])) {
      const query = trx('segments').where('project_ulid', projectUlid).whereIn('key', part).select('ulid', 'key');
      if (hasRowLocks(this.dialect)) query.forUpdate();
      for (const row of (await query) as { ulid: string; key: string }[]) found.set(row.key, row.ulid);
    }
    return found;
  }

  async insertRule(trx: Knex.Transaction, rule: RuleRow, criteria: CriterionRecord[], links: SegmentLink[]): Promise<void> {
    const { split, ...row } = rule;
    await trx('rules').insert(row);
    await writeSplit(trx, rule.ulid, split);
    await this.insertCriteria(trx, criteria, links);
  }

  async replaceRule(trx: Knex.Transaction, rule: RuleRow, criteria: CriterionRecord[], links: SegmentLink[]): Promise<void> {
    await this.removeCriteria(trx, rule.ulid);
    await trx('rules')
      .where('ulid', rule.ulid)
      .update({ value_ulid: rule.value_ulid, description: rule.description, position: rule.position, updated_at: rule.updated_at });
    await writeSplit(trx, rule.ulid, rule.split);
    await this.insertCriteria(trx, criteria, links);
  }

  async deleteRule(trx: Knex.Transaction, ruleUlid: string): Promise<void> {
    await this.removeCriteria(trx, ruleUlid);
    await deleteSplits(trx, [ruleUlid]);
    await trx('rules').where('ulid', ruleUlid).delete();
  }

  async setPositions(trx: Knex.Transaction, changes: { ulid: string; position: number }[], updatedAt: string): Promise<void> {
    for (const change of changes) {
      await trx('rules').where('ulid', change.ulid).update({ position: change.position, updated_at: updatedAt });
    }
  }

  private async insertCriteria(trx: Knex.Transaction, criteria: CriterionRecord[], links: SegmentLink[]): Promise<void> {
    const rows = criteria.map((c) => ({
      ulid: c.ulid,
      rule_ulid: c.rule_ulid,
      selector: c.selector,
      sub_selector: c.sub_selector,
      comparer: c.comparer,
      position: c.position,
      values: JSON.stringify(c.values),
    }));
    for (const part of chunks(rows, 100)) await trx('criteria').insert(part);
    for (const part of chunks(links, 200)) await trx('criterion_segments').insert(part);
  }

  private async removeCriteria(trx: Knex.Transaction, ruleUlid: string): Promise<void> {
    // Links go explicitly (not only by cascade), so no dialect setting can leave one behind.
    await trx('criterion_segments').whereIn('criterion_ulid', trx('criteria').where('rule_ulid', ruleUlid).select('ulid')).delete();
    await trx('criteria').where('rule_ulid', ruleUlid).delete();
  }
}
