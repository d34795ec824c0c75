import { useId } from 'react';
import { fieldMessages, type ApiProblem, type Schemas } from '../../api/client';
import { comparerText } from '../../ui/criteria';
import { FieldMessages } from '../../ui/Field';
import { commaList } from '../../ui/lists';
// The document's rule of which comparers a selector takes, as the flag rule editor holds it.
import { comparersOf, takesValues } from '../flags/CriterionEditor';

type Comparer = Schemas['Comparer'];

/** A criterion while it is edited: values as the comma-separated text the person types. */
export interface CriterionDraft {
  selector: 'attribute' | 'context';
  sub_selector: string;
  comparer: Comparer;
  values: string;
}
export type RuleDraft = CriterionDraft[];

export const blankCriterion = (): CriterionDraft => ({ selector: 'attribute', sub_selector: '', comparer: 'equal', values: '' });

export function draftRules(rules: Schemas['SegmentRule'][]): RuleDraft[] {
  return rules.map((rule) =>
    rule.criteria.map((c) => ({
      selector: c.selector,
      sub_selector: c.sub_selector ?? '',
      comparer: c.comparer,
      // a pattern may hold commas: `matches` edits its one value as it is
      values: c.comparer === 'matches' ? (c.values?.[0] ?? '') : (c.values ?? []).join(', '),
    })),
  );
}

/** The rules as the API takes them: no sub_selector when blank, no values for isnull/notnull. */
export function rulesBody(rules: RuleDraft[]) {
  return rules.map((criteria) => ({
    criteria: criteria.map((c) => ({
      selector: c.selector,
      comparer: c.comparer,
      ...(c.sub_selector.trim() ? { sub_selector: c.sub_selector.trim() } : {}),
      ...(c.comparer === 'matches'
        ? { values: c.values === '' ? [] : [c.values] }
        : takesValues(c.comparer)
          ? { values: commaList(c.values) }
          : {}),
    })),
  }));
}

function CriterionRow({
  criterion,
  label,
  onChange,
  onRemove,
  messages,
}: {
  criterion: CriterionDraft;
  label: string;
  onChange: (c: CriterionDraft) => void;
  onRemove: () => void;
  messages: string[];
}) {
  const id = useId();
  const comparers = comparersOf(criterion.selector);
  return (
    <li>
      <fieldset className="inline" aria-label={label}>
        <legend className="visually-hidden">{label}</legend>
        <div className="field">
          <label htmlFor={`${id}-selector`}>Compare</label>
          <select
            id={`${id}-selector`}
            value={criterion.selector}
            onChange={(e) => {
              const selector = e.target.value as CriterionDraft['selector'];
              onChange({
                ...criterion,
                selector,
                comparer: comparersOf(selector).includes(criterion.comparer) ? criterion.comparer : 'equal',
              });
            }}
          >
            <option value="attribute">an attribute</option>
            <option value="context">the context identifier</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-sub`}>{criterion.selector === 'attribute' ? 'Attribute name' : 'Context type (optional)'}</label>
          <input
            id={`${id}-sub`}
            value={criterion.sub_selector}
            onChange={(e) => onChange({ ...criterion, sub_selector: e.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-comparer`}>Comparer</label>
          <select
            id={`${id}-comparer`}
            value={criterion.comparer}
            onChange={(e) => onChange({ ...criterion, comparer: e.target.value as Comparer })}
          >
            {comparers.map((c) => (
              <option key={c} value={c}>
                {comparerText[c]} ({c})
              </option>
            ))}
          </select>
        </div>
        {!takesValues(criterion.comparer) ? null : (
          <div className="field">
            <label htmlFor={`${id}-values`}>Values (comma-separated)</label>
            <input id={`${id}-values`} value={criterion.values} onChange={(e) => onChange({ ...criterion, values: e.target.value })} />
          </div>
        )}
        <button type="button" onClick={onRemove}>
          Remove {label.toLowerCase()}
        </button>
      </fieldset>
      <FieldMessages messages={messages} />
    </li>
  );
}

/**
 * Segment rules: a context is a member when every criterion of any one rule matches. Each
 * criterion compares an attribute (any comparer) or the context identifier (equal, notequal, in,
 * notin); the API's messages appear by the criterion they name.
 */
export function RulesEditor({
  rules,
  onChange,
  problem,
}: {
  rules: RuleDraft[];
  onChange: (rules: RuleDraft[]) => void;
  problem?: ApiProblem;
}) {
  const setRule = (i: number, rule: RuleDraft) => onChange(rules.map((r, j) => (j === i ? rule : r)));
  return (
    <fieldset>
      <legend>Rules (a member matches every criterion of any one rule)</legend>
      {rules.map((rule, i) => (
        <section key={i} className="rule" aria-label={`Rule ${i + 1}`}>
          <h4>Rule {i + 1}</h4>
          <ol className="criteria">
            {rule.map((criterion, j) => (
              <CriterionRow
                key={j}
                label={`Criterion ${j + 1} of rule ${i + 1}`}
                criterion={criterion}
                onChange={(c) =>
                  setRule(
                    i,
                    rule.map((x, k) => (k === j ? c : x)),
                  )
                }
                onRemove={() =>
                  rule.length === 1
                    ? onChange(rules.filter((_, k) => k !== i))
                    : setRule(
                        i,
                        rule.filter((_, k) => k !== j),
                      )
                }
                messages={fieldMessages(problem, `rules.${i}.criteria.${j}`)}
              />
            ))}
          </ol>
          <FieldMessages messages={[...(problem?.fields[`rules.${i}`] ?? []), ...(problem?.fields[`rules.${i}.criteria`] ?? [])]} />
          <button type="button" onClick={() => setRule(i, [...rule, blankCriterion()])}>
            Add a criterion to rule {i + 1}
          </button>{' '}
          <button type="button" onClick={() => onChange(rules.filter((_, k) => k !== i))}>
            Remove rule {i + 1}
          </button>
        </section>
      ))}
      {rules.length === 0 ? <p>No rules: only the listed identifiers are members.</p> : null}
      <FieldMessages messages={problem?.fields.rules ?? []} />
      <button type="button" onClick={() => onChange([...rules, [blankCriterion()]])}>
        Add a rule
      </button>
    </fieldset>
  );
}
