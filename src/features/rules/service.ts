import type { Knex } from 'knex';
import type { components } from '../../../generated/management.js';
import type { ManagementPrincipal } from '../../auth/principal.js';
import type { Clock } from '../../clock.js';
import { FieldErrorList, NotFoundError, UnprocessableError } from '../../http/errors.js';
import { newId } from '../../ids.js';
import { checkSplit, splitView, toSplitRecord, type SplitInput } from '../shared/splits.js';
import type { Auditor, Transactor } from '../shared/transactions.js';
import type { Db } from '../../storage/db.js';
import { normaliseCriteria, segmentKeysOf, type CriterionInput, type NormalisedCriterion } from './criteria.js';
import type { CriterionRecord, ResolvedTarget, RuleRecord, RulesStore, SegmentLink, TargetPath } from './store-types.js';

export interface RuleWriteInput {
  value_ulid: string;
  /** Absent or null: no split. */
  split?: SplitInput | null;
  description: string;
  criteria: CriterionInput[];
}

export interface ReorderInput {
  rules: { ulid: string; order: number }[];
}

export interface RulePath extends TargetPath {
  ruleUlid: string;
}

/** The API form of a rule (specs/management.yaml, schema Rule). */
export type RuleView = components['schemas']['Rule'];

export function toRuleView(rule: RuleRecord): RuleView {
  return {
    ulid: rule.ulid,
    target_ulid: rule.target_ulid,
    value_ulid: rule.value_ulid,
    split: splitView(rule.split),
    description: rule.description,
    position: rule.position,
    criteria: {
      data: rule.criteria.map((c) => ({
        ulid: c.ulid,
        selector: c.selector,
        sub_selector: c.sub_selector,
        comparer: c.comparer,
        position: c.position,
        values: { data: c.values.map((value) => ({ value })) },
      })),
    },
    created_at: rule.created_at,
    updated_at: rule.updated_at,
  };
}

const MAX_DESCRIPTION = 500;

/** What RulesService is built from. */
export interface RulesServiceDeps {
  /** The pool, for reads outside a change. */
  db: Db;
  tx: Transactor;
  store: RulesStore;
  clock: Clock;
}

/**
 * Targeting rules of a target (specs/management.yaml, tag Rules). Rules change only while
 * their target is a draft (422 otherwise). Drafts are never served, so no rule change bumps an
 * environment revision; a published target's rules can never change.
 */
export class RulesService {
  constructor(private readonly deps: RulesServiceDeps) {}

  async list(principal: ManagementPrincipal, path: TargetPath, audit: Pick<Auditor, 'describe'>): Promise<RuleView[]> {
    const resolved = await this.deps.store.resolveTarget(this.deps.db, principal.access, path);
    audit.describe(this.targetSubject(resolved, 'target_rule.listed'));
    const rules = await this.deps.store.listRules(this.deps.db, resolved.target.ulid);
    return rules.map(toRuleView);
  }

  async create(principal: ManagementPrincipal, path: TargetPath, body: RuleWriteInput, audit: Auditor): Promise<RuleView> {
    const { store } = this.deps;
    return this.deps.tx.transaction(async (trx) => {
      const resolved = await store.resolveTarget(trx, principal.access, path, { lock: true });
      // Refusals from here on are audited with the target they concern.
      audit.describe(this.targetSubject(resolved, 'target_rule.created'));
      assertDraft(resolved);
      const checked = await this.checkBody(trx, resolved, body);
      const existing = await store.listRules(trx, resolved.target.ulid);
      const now = this.deps.clock.now().toISOString();
      const ruleUlid = newId('rule');
      const rule: RuleRecord = {
        ulid: ruleUlid,
        target_ulid: resolved.target.ulid,
        value_ulid: body.value_ulid,
        split: body.split ? toSplitRecord(body.split) : null,
        description: body.description,
        position: existing.reduce((max, r) => Math.max(max, r.position + 1), 0),
        created_at: now,
        updated_at: now,
        criteria: [],
      };
      const { criteria, links } = buildCriteria(ruleUlid, checked);
      rule.criteria = criteria;
      const { criteria: _omit, ...row } = rule;
      await store.insertRule(trx, row, criteria, links);
      await audit.commit(trx, {
        ...this.ruleSubject(resolved, rule, 'target_rule.created'),
        changes: { after: toRuleView(rule) },
      });
      return toRuleView(rule);
    });
  }

  /** PUT: a full replacement. Description, value and the whole criteria list are replaced (new criterion ulids). */
  async update(principal: ManagementPrincipal, path: RulePath, body: RuleWriteInput, audit: Auditor): Promise<RuleView> {
    const { store } = this.deps;
    return this.deps.tx.transaction(async (trx) => {
      const resolved = await store.resolveTarget(trx, principal.access, path, { lock: true });
      // Refusals from here on are audited with the target they concern.
      audit.describe(this.targetSubject(resolved, 'target_rule.updated'));
      const current = (await store.listRules(trx, resolved.target.ulid)).find((r) => r.ulid === path.ruleUlid);
      if (!current) throw new NotFoundError(`Rule "${path.ruleUlid}" not found.`);
      audit.describe(this.ruleSubject(resolved, current, 'target_rule.updated'));
      assertDraft(resolved);
      const checked = await this.checkBody(trx, resolved, body);
      const { criteria, links } = buildCriteria(current.ulid, checked);
      const rule: RuleRecord = {
        ...current,
        value_ulid: body.value_ulid,
        split: body.split ? toSplitRecord(body.split) : null,
        description: body.description,
        updated_at: this.deps.clock.now().toISOString(),
        criteria,
      };
      const { criteria: _omit, ...row } = rule;
      await store.replaceRule(trx, row, criteria, links);
      await audit.commit(trx, {
        ...this.ruleSubject(resolved, rule, 'target_rule.updated'),
        changes: { before: toRuleView(current), after: toRuleView(rule) },
      });
      return toRuleView(rule);
    });
  }

  async delete(principal: ManagementPrincipal, path: RulePath, audit: Auditor): Promise<void> {
    const { store } = this.deps;
    await this.deps.tx.transaction(async (trx) => {
      const resolved = await store.resolveTarget(trx, principal.access, path, { lock: true });
      // Refusals from here on are audited with the target they concern.
      audit.describe(this.targetSubject(resolved, 'target_rule.deleted'));
      const rules = await store.listRules(trx, resolved.target.ulid);
      const current = rules.find((r) => r.ulid === path.ruleUlid);
      if (!current) throw new NotFoundError(`Rule "${path.ruleUlid}" not found.`);
      audit.describe(this.ruleSubject(resolved, current, 'target_rule.deleted'));
      assertDraft(resolved);
      await store.deleteRule(trx, current.ulid);
      // Keep positions 0..n-1 in evaluation order.
      const remaining = rules.filter((r) => r.ulid !== current.ulid);
      const changes = remaining.map((r, i) => ({ ulid: r.ulid, position: i, was: r.position })).filter((c) => c.was !== c.position);
      if (changes.length > 0) await store.setPositions(trx, changes, this.deps.clock.now().toISOString());
      await audit.commit(trx, {
        ...this.ruleSubject(resolved, current, 'target_rule.deleted'),
        changes: { before: toRuleView(current) },
      });
    });
  }

  /**
   * PUT rules-order. The named rules of this target are sorted by `order` (ascending; ties in
   * request order) and placed into the positions they occupy now; every rule not
   * named keeps its position. Ulids of rules not on this target are ignored. A ulid listed twice
   * is refused (422). Afterwards positions are 0..n-1 in evaluation order. Returns the whole list.
   */
  async reorder(principal: ManagementPrincipal, path: TargetPath, body: ReorderInput, audit: Auditor): Promise<RuleView[]> {
    const { store } = this.deps;
    return this.deps.tx.transaction(async (trx) => {
      const resolved = await store.resolveTarget(trx, principal.access, path, { lock: true });
      // Refusals from here on are audited with the target they concern.
      audit.describe(this.targetSubject(resolved, 'target_rule.reordered'));
      assertDraft(resolved);
      const errors = new FieldErrorList();
      const seen = new Set<string>();
      body.rules.forEach((item, i) => {
        if (seen.has(item.ulid)) errors.add(`rules.${i}.ulid`, `The rule ${item.ulid} is listed more than once.`, 'invalid_combination');
        seen.add(item.ulid);
      });
      errors.check();

      const rules = await store.listRules(trx, resolved.target.ulid);
      const slotOf = new Map(rules.map((r, i) => [r.ulid, i]));
      const named = body.rules
        .filter((item) => slotOf.has(item.ulid))
        .map((item, index) => ({ slot: slotOf.get(item.ulid) as number, order: item.order, index }));
      const slots = named.map((n) => n.slot).sort((a, b) => a - b);
      const placed = [...named].sort((a, b) => a.order - b.order || a.index - b.index);
      const ordered = [...rules];
      placed.forEach((n, i) => {
        ordered[slots[i] as number] = rules[n.slot] as RuleRecord;
      });

      const now = this.deps.clock.now().toISOString();
      const changes: { ulid: string; position: number }[] = [];
      const result = ordered.map((r, position) => {
        if (r.position === position) return r;
        changes.push({ ulid: r.ulid, position });
        return { ...r, position, updated_at: now };
      });
      if (changes.length > 0) await store.setPositions(trx, changes, now);
      await audit.commit(trx, {
        ...this.targetSubject(resolved, 'target_rule.reordered'),
        changes: { before: rules.map(toRuleView), after: result.map(toRuleView) },
      });
      return result.map(toRuleView);
    });
  }

  /** Body rules the document cannot express: value of this flag, criteria, existing segments. */
  private async checkBody(trx: Knex.Transaction, resolved: ResolvedTarget, body: RuleWriteInput): Promise<CheckedCriteria> {
    const { store } = this.deps;
    const errors = new FieldErrorList();
    if (body.description.length > MAX_DESCRIPTION) {
      errors.add('description', `The description field must not be longer than ${MAX_DESCRIPTION} characters.`);
    }
    if (!(await store.flagHasValue(trx, resolved.flag.ulid, body.value_ulid))) {
      errors.add('value_ulid', `The value_ulid field must name a value of flag "${resolved.flag.key}".`, 'reference_not_found');
    }
    if (body.split) await checkSplit(body.split, resolved.flag.key, (ulid) => store.flagHasValue(trx, resolved.flag.ulid, ulid), errors);
    if (body.criteria.length === 0) errors.add('criteria', 'The criteria field must contain at least one criterion.');
    const criteria = normaliseCriteria(body.criteria, { prefix: 'criteria', allowSegmentSelector: true, errors });
    const keys = segmentKeysOf(criteria, 'criteria');
    const segments = keys.size > 0 ? await store.findSegments(trx, resolved.project.ulid, [...keys.keys()]) : new Map<string, string>();
    for (const [key, fields] of keys) {
      if (segments.has(key)) continue;
      for (const field of fields) {
        errors.add(field, `Segment "${key}" does not exist in project "${resolved.project.key}".`, 'reference_not_found');
      }
    }
    errors.check();
    return { criteria, segments };
  }

  private targetSubject(resolved: ResolvedTarget, action: string) {
    return {
      action,
      subjectType: 'target_rule',
      subjectUlid: resolved.target.ulid,
      subjectLabel: `${resolved.flag.key}/${resolved.environment.key} rules`,
      projectUlid: resolved.project.ulid,
      environmentUlid: resolved.environment.ulid,
    };
  }

  private ruleSubject(resolved: ResolvedTarget, rule: RuleRecord, action: string) {
    return {
      action,
      subjectType: 'target_rule',
      subjectUlid: rule.ulid,
      subjectLabel: `${resolved.flag.key}/${resolved.environment.key}: ${rule.description}`,
      projectUlid: resolved.project.ulid,
      environmentUlid: resolved.environment.ulid,
    };
  }
}

interface CheckedCriteria {
  criteria: NormalisedCriterion[];
  /** Segment ulid by key, for the segment criteria. */
  segments: Map<string, string>;
}

function assertDraft(resolved: ResolvedTarget): void {
  if (resolved.target.status !== 'draft') {
    throw new UnprocessableError(
      `Rules can only be changed while the target is a draft; target "${resolved.target.ulid}" is ${resolved.target.status}.`,
    );
  }
}

function buildCriteria(ruleUlid: string, checked: CheckedCriteria): { criteria: CriterionRecord[]; links: SegmentLink[] } {
  const links: SegmentLink[] = [];
  const criteria = checked.criteria.map((c, position) => {
    const ulid = newId('criterion');
    if (c.selector === 'segment') {
      for (const key of new Set(c.values)) {
        links.push({ criterion_ulid: ulid, segment_ulid: checked.segments.get(key) as string });
      }
    }
    return { ulid, rule_ulid: ruleUlid, ...c, position };
  });
  return { criteria, links };
}
