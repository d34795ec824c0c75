import { useId } from 'react';
import type { ApiError, Schemas } from '../../api/client';
import { Field, GroupMessages, SelectField } from '../../ui/Field';
import type { PanelContext } from './panel-context';

type Comparer = Schemas['Comparer'];
type Selector = Schemas['Selector'];

// The document's rule (CriterionWrite): attribute criteria take every comparer, context and segment the four below.
const everySelectorComparers: Comparer[] = ['equal', 'notequal', 'in', 'notin'];
const attributeComparers: Comparer[] = [
  ...everySelectorComparers,
  'gt',
  'gte',
  'lt',
  'lte',
  'isnull',
  'notnull',
  'contains',
  'notcontains',
  'startswith',
  'endswith',
  'notstartswith',
  'notendswith',
  'semver_eq',
  'semver_lt',
  'semver_gt',
  'semver_lte',
  'semver_gte',
  'before',
  'after',
  'matches',
];
export const comparersOf = (selector: Selector): Comparer[] => (selector === 'attribute' ? attributeComparers : everySelectorComparers);
export const takesValues = (comparer: Comparer) => comparer !== 'isnull' && comparer !== 'notnull';
/** A regular expression may hold commas (`\d{2,4}`), so `matches` takes its text as one pattern. */
const onePattern = (comparer: Comparer) => comparer === 'matches';

/** What the values of a comparer must look like (the document's CriterionWrite). */
function valuesHint(comparer: Comparer): string | undefined {
  if (comparer.startsWith('semver_')) return 'Versions such as 1.2.3 or 2.0.0-beta.1 (a leading v is accepted).';
  if (comparer === 'before' || comparer === 'after') return 'Date-times with an offset, such as 2026-01-01T00:00:00Z.';
  if (comparer === 'matches') return 'One regular expression, found anywhere in the value unless anchored with ^ and $.';
  return undefined;
}

/** A criterion as the form edits it: values as the comma-separated text the person types. */
export interface CriterionDraft {
  selector: Selector;
  subSelector: string;
  comparer: Comparer;
  values: string;
}

export const emptyCriterion = (): CriterionDraft => ({ selector: 'attribute', subSelector: '', comparer: 'equal', values: '' });

export function criterionDraftOf(criterion: Schemas['Criterion']): CriterionDraft {
  return {
    selector: criterion.selector,
    subSelector: criterion.sub_selector ?? '',
    comparer: criterion.comparer,
    values: onePattern(criterion.comparer) ? (criterion.values.data[0]?.value ?? '') : criterion.values.data.map((v) => v.value).join(', '),
  };
}

/** The request body's criterion (CriterionWrite) for what the form holds. */
export function criterionWrite(draft: CriterionDraft): Schemas['CriterionWrite'] {
  const criterion: Schemas['CriterionWrite'] = { selector: draft.selector, comparer: draft.comparer };
  if (draft.selector === 'attribute' || (draft.selector === 'context' && draft.subSelector.trim() !== ''))
    criterion.sub_selector = draft.subSelector.trim();
  if (onePattern(draft.comparer)) {
    criterion.values = draft.values === '' ? [] : [draft.values];
  } else if (takesValues(draft.comparer)) {
    criterion.values = draft.values
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean);
  }
  return criterion;
}

/**
 * Suggestions for a comma-separated list: each candidate appended after what is already typed, so
 * picking one from the browser's list adds it instead of replacing the list.
 */
function listSuggestions(typed: string, candidates: string[]): string[] {
  const cut = typed.lastIndexOf(',');
  const prefix = cut === -1 ? '' : `${typed.slice(0, cut + 1)} `;
  const chosen = new Set(typed.split(',').map((v) => v.trim()));
  return candidates.filter((c) => !chosen.has(c)).map((c) => prefix + c);
}

/** One criterion of a rule: selector, attribute (suggested from observed contexts), comparer, values. */
export function CriterionEditor({
  context,
  index,
  criterion,
  onChange,
  onRemove,
  problem,
}: {
  context: PanelContext;
  index: number;
  criterion: CriterionDraft;
  onChange: (next: CriterionDraft) => void;
  onRemove?: () => void;
  problem: ApiError | undefined;
}) {
  const namesId = useId();
  const valuesId = useId();
  const at = `criteria.${index}`;
  const n = index + 1;
  const observed = context.observed;
  const candidates =
    criterion.selector === 'segment'
      ? (context.segments ?? []).map((s) => s.key)
      : criterion.selector === 'attribute'
        ? (observed?.attributes.find((a) => a.key === criterion.subSelector)?.values.map((v) => v.value) ?? [])
        : [];
  const names =
    criterion.selector === 'attribute'
      ? (observed?.attributes.map((a) => a.key) ?? [])
      : (observed?.context_types.map((t) => t.type) ?? []);
  const set = (patch: Partial<CriterionDraft>) => onChange({ ...criterion, ...patch });
  return (
    <fieldset className="criterion">
      <legend>Criterion {n}</legend>
      <GroupMessages problem={problem} name={at} />
      <SelectField
        label={`Selector of criterion ${n}`}
        name={`${at}.selector`}
        problem={problem}
        value={criterion.selector}
        onChange={(e) => {
          const selector = e.target.value as Selector;
          set({ selector, comparer: comparersOf(selector).includes(criterion.comparer) ? criterion.comparer : 'equal' });
        }}
      >
        <option value="attribute">attribute</option>
        <option value="context">context identifier</option>
        <option value="segment">segment</option>
      </SelectField>
      {criterion.selector !== 'segment' ? (
        <Field
          label={criterion.selector === 'attribute' ? `Attribute of criterion ${n}` : `Context type of criterion ${n} (optional)`}
          name={`${at}.sub_selector`}
          problem={problem}
          list={namesId}
          autoComplete="off"
          value={criterion.subSelector}
          onChange={(e) => set({ subSelector: e.target.value })}
        />
      ) : null}
      <datalist id={namesId}>
        {names.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
      <SelectField
        label={`Comparer of criterion ${n}`}
        name={`${at}.comparer`}
        problem={problem}
        value={criterion.comparer}
        onChange={(e) => set({ comparer: e.target.value as Comparer })}
      >
        {comparersOf(criterion.selector).map((c) => (
          <option key={c}>{c}</option>
        ))}
      </SelectField>
      {takesValues(criterion.comparer) ? (
        <Field
          label={
            criterion.selector === 'segment'
              ? `Segment keys of criterion ${n} (comma-separated)`
              : criterion.selector === 'context'
                ? `Identifiers of criterion ${n} (comma-separated)`
                : onePattern(criterion.comparer)
                  ? `Pattern of criterion ${n}`
                  : `Values of criterion ${n} (comma-separated)`
          }
          name={`${at}.values`}
          problem={problem}
          list={valuesId}
          autoComplete="off"
          value={criterion.values}
          onChange={(e) => set({ values: e.target.value })}
          hint={
            [
              valuesHint(criterion.comparer),
              candidates.length > 0
                ? `${criterion.selector === 'segment' ? 'Segments' : 'Seen'}: ${candidates.slice(0, 8).join(', ')}`
                : undefined,
            ]
              .filter(Boolean)
              .join(' ') || undefined
          }
        />
      ) : null}
      <datalist id={valuesId}>
        {listSuggestions(criterion.values, candidates).map((v) => (
          <option key={v} value={v} />
        ))}
      </datalist>
      {onRemove ? (
        <button type="button" onClick={onRemove}>
          Remove criterion {n}
        </button>
      ) : null}
    </fieldset>
  );
}
