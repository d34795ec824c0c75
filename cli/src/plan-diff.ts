import { compactValue } from './compact.js';
import type { components } from '../../generated/management.js';

type ConfigurationChange = components['schemas']['ConfigurationChange'];
type ConfigurationServing = components['schemas']['ConfigurationServing'];
type ConfigurationRule = components['schemas']['ConfigurationRule'];
type CriterionWrite = components['schemas']['CriterionWrite'];

/** One line under a change: something added (+), removed (-) or changed (~). */
export interface DetailLine {
  sign: '+' | '-' | '~';
  text: string;
}

const arrow = (before: string, after: string) => `${before} -> ${after}`;

function field(record: unknown, name: string): unknown {
  return typeof record === 'object' && record !== null ? (record as Record<string, unknown>)[name] : undefined;
}

/** An update: each field the plan names, with its value before and after. */
function fieldDetails(change: ConfigurationChange): DetailLine[] {
  return change.fields.map((name) => ({
    sign: '~',
    text: `${name}: ${arrow(compactValue(field(change.before, name)), compactValue(field(change.after, name)))}`,
  }));
}

function describeCriterion(criterion: CriterionWrite): string {
  const values = criterion.values ?? [];
  const subject = criterion.sub_selector ? `${criterion.selector} ${criterion.sub_selector}` : criterion.selector;
  return [subject, criterion.comparer, ...(values.length > 0 ? [compactValue(values)] : [])].join(' ');
}

const describeCriteria = (rule: ConfigurationRule) => rule.criteria.map(describeCriterion).join(' and ');

function describeRule(rule: ConfigurationRule): string {
  const name = rule.description ? `${compactValue(rule.description)} ` : '';
  return `${name}serves ${compactValue(rule.value)} when ${describeCriteria(rule)}`;
}

/** What a criterion is compared on, the way the server compares it (absent and null are the same). */
const criteriaKey = (rule: ConfigurationRule) =>
  JSON.stringify(rule.criteria.map((c) => [c.selector, c.sub_selector ?? null, c.comparer, c.values ?? null]));

/** Rules compared by position: the order is part of what a flag serves. */
function ruleDetails(before: ConfigurationRule[], after: ConfigurationRule[]): DetailLine[] {
  const lines: DetailLine[] = [];
  for (let i = 0; i < Math.max(before.length, after.length); i++) {
    const was = before[i];
    const now = after[i];
    const label = `rule ${i + 1}`;
    if (!was && now) lines.push({ sign: '+', text: `${label}: ${describeRule(now)}` });
    else if (was && !now) lines.push({ sign: '-', text: `${label}: ${describeRule(was)}` });
    else if (was && now) {
      if (was.description !== now.description) {
        lines.push({ sign: '~', text: `${label} description: ${arrow(compactValue(was.description), compactValue(now.description))}` });
      }
      if (was.value !== now.value)
        lines.push({ sign: '~', text: `${label} value: ${arrow(compactValue(was.value), compactValue(now.value))}` });
      if (criteriaKey(was) !== criteriaKey(now)) {
        lines.push({ sign: '~', text: `${label} criteria: ${arrow(describeCriteria(was), describeCriteria(now))}` });
      }
    }
  }
  return lines;
}

/** A rollout as the server compares it: the mode, and the percentage of a manual one. */
function describeRollout(rollout: ConfigurationServing['rollout'] | undefined): string {
  if (!rollout) return 'none';
  return rollout.mode === 'manual' ? `manual ${rollout.percentage}%` : 'automatic';
}

/** A publish: how the serving configuration differs from what is served (all of it when nothing is). */
function servingDetails(change: ConfigurationChange): DetailLine[] {
  const after = change.after as ConfigurationServing | null;
  const before = change.before as ConfigurationServing | null;
  if (!after) return [];
  if (!before) {
    return [
      { sign: '+', text: `value: ${compactValue(after.value)}` },
      ...ruleDetails([], after.rules),
      ...(after.rollout ? [{ sign: '+' as const, text: `rollout: ${describeRollout(after.rollout)}` }] : []),
    ];
  }
  const lines: DetailLine[] = [];
  if (before.value !== after.value)
    lines.push({ sign: '~', text: `value: ${arrow(compactValue(before.value), compactValue(after.value))}` });
  lines.push(...ruleDetails(before.rules, after.rules));
  const rollout = [describeRollout(before.rollout), describeRollout(after.rollout)] as const;
  if (rollout[0] !== rollout[1]) lines.push({ sign: '~', text: `rollout: ${arrow(...rollout)}` });
  return lines;
}

/** The lines that say what a change does, under its headline. */
export function changeDetails(change: ConfigurationChange): DetailLine[] {
  if (change.kind === 'serving') return servingDetails(change);
  if (change.action === 'update') return fieldDetails(change);
  return [];
}
