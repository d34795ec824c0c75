import type { Knex } from 'knex';
import type { Dialect } from '../../storage/database.js';
import { chunks } from '../../storage/chunks.js';
import { inTransaction } from '../../storage/transaction.js';
import type { Comparer, Selector } from './criteria.js';
import type { CriterionRecord, RuleRecord, RuleRow, RulesReader, RulesStore, RulesWriter, SegmentLink } from './store-types.js';
import { deleteSplits, readSplits, writeSplit } from '../shared/split-store.js';
import { storedStringList, TargetPartReader } from '../shared/target-resolution-store.js';

interface CriterionDbRow {
  ulid: string;
  rule_ulid: string;
  selector: string;
  sub_selector: string | null;
  comparer: string;
  position: number | string;
  values: string;
}

class KnexRulesReader extends TargetPartReader implements RulesReader {
  async listRules(targetUlid: string): Promise<RuleRecord[]> {
    const rules = (await this.db('rules')
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
      this.db,
      rules.map((r) => r.ulid),
    );
    const byRule = new Map<string, CriterionRecord[]>();
    for (const part of chunks(rules.map((r) => r.ulid))) {
      const rows = (await this.db('criteria')
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
}

class KnexRulesWriter extends KnexRulesReader implements RulesWriter {
  constructor(
    readonly trx: Knex.Transaction,
    dialect: Dialect,
  ) {
    super(trx, dialect, true);
  }

  async flagHasValue(flagUlid: string, valueUlid: string): Promise<boolean> {
    // Share-locked: a racing value deletion waits for this rule and then sees it.
    const query = this.trx('flag_values').where({ ulid: valueUlid, flag_ulid: flagUlid }).first('ulid');
    if (this.dialect === 'mysql') query.forShare();
    return (await query) !== undefined;
  }

  async findSegments(projectUlid: string, keys: readonly string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    for (const part of chunks([...new Set(keys)])) {
      const query = this.trx('segments').where('project_ulid', projectUlid).whereIn('key', part).select('ulid', 'key');
      if (this.dialect === 'mysql') query.forShare();
      for (const row of (await query) as { ulid: string; key: string }[]) found.set(row.key, row.ulid);
    }
    return found;
  }

  async insertRule(rule: RuleRow, criteria: CriterionRecord[], links: SegmentLink[]): Promise<void> {
    const { split, ...row } = rule;
    await this.trx('rules').insert(row);
    await writeSplit(this.trx, rule.ulid, split);
    await this.insertCriteria(criteria, links);
  }

  async replaceRule(rule: RuleRow, criteria: CriterionRecord[], links: SegmentLink[]): Promise<void> {
    await this.removeCriteria(rule.ulid);
    await this.trx('rules')
      .where('ulid', rule.ulid)
      .update({ value_ulid: rule.value_ulid, description: rule.description, position: rule.position, updated_at: rule.updated_at });
    await writeSplit(this.trx, rule.ulid, rule.split);
    await this.insertCriteria(criteria, links);
  }

  async deleteRule(ruleUlid: string): Promise<void> {
    await this.removeCriteria(ruleUlid);
    await deleteSplits(this.trx, [ruleUlid]);
    await this.trx('rules').where('ulid', ruleUlid).delete();
  }

  async setPositions(changes: { ulid: string; position: number }[], updatedAt: string): Promise<void> {
    for (const change of changes) {
      await this.trx('rules').where('ulid', change.ulid).update({ position: change.position, updated_at: updatedAt });
    }
  }

  private async insertCriteria(criteria: CriterionRecord[], links: SegmentLink[]): Promise<void> {
    const rows = criteria.map((c) => ({
      ulid: c.ulid,
      rule_ulid: c.rule_ulid,
      selector: c.selector,
      sub_selector: c.sub_selector,
      comparer: c.comparer,
      position: c.position,
      values: JSON.stringify(c.values),
    }));
    for (const part of chunks(rows, 100)) await this.trx('criteria').insert(part);
    for (const part of chunks(links, 200)) await this.trx('criterion_segments').insert(part);
  }

  private async removeCriteria(ruleUlid: string): Promise<void> {
    // Links go explicitly (not only by cascade), so no dialect setting can leave one behind.
    await this.trx('criterion_segments')
      .whereIn('criterion_ulid', this.trx('criteria').where('rule_ulid', ruleUlid).select('ulid'))
      .delete();
    await this.trx('criteria').where('rule_ulid', ruleUlid).delete();
  }
}

export class KnexRulesStore extends KnexRulesReader implements RulesStore {
  constructor(
    private readonly knex: Knex,
    dialect: Dialect,
  ) {
    super(knex, dialect, false);
  }

  transaction<T>(work: (writer: RulesWriter) => Promise<T>): Promise<T> {
    return inTransaction(this.knex, (trx) => work(new KnexRulesWriter(trx, this.dialect)));
  }
}
