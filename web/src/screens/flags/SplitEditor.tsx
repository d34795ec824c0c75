import type { ApiProblem, Schemas } from '../../api/client';
import { CheckboxField, Field, GroupMessages, SelectField } from '../../ui/Field';
import { displayOf } from './panel-context';
import { valueColour } from './value-colours';

/** 100 % in the thousandths of a percent the API counts weights in. */
const TOTAL = 100000;

/** A split as the form holds it: weights as typed percentages. */
export interface SplitDraft {
  enabled: boolean;
  attribute: string;
  shares: { value_ulid: string; percent: string }[];
}

/** The form's state for a stored split (or none), with two even shares ready when there is none. */
export function splitDraftOf(split: Schemas['Split'] | null | undefined, values: Schemas['FlagValue'][]): SplitDraft {
  if (split) {
    return {
      enabled: true,
      attribute: split.attribute ?? '',
      shares: split.shares.map((s) => ({ value_ulid: s.value_ulid, percent: String(s.weight / 1000) })),
    };
  }
  const [first, second] = values;
  return {
    enabled: false,
    attribute: '',
    shares: [
      { value_ulid: first?.ulid ?? '', percent: '50' },
      { value_ulid: second?.ulid ?? first?.ulid ?? '', percent: '50' },
    ],
  };
}

const thousandths = (percent: string) => Math.round(Number(percent) * 1000);

/** The body form: null when the split is off (the API then serves the one value). */
export function splitWrite(draft: SplitDraft): Schemas['SplitWrite'] {
  if (!draft.enabled) return null;
  return {
    attribute: draft.attribute.trim() === '' ? null : draft.attribute.trim(),
    shares: draft.shares.map((s) => ({ value_ulid: s.value_ulid, weight: thousandths(s.percent) })),
  };
}

/** A split in words: `blue 50 %, green 50 % by identifier`. */
export function splitText(split: NonNullable<Schemas['Split']>, values: Schemas['FlagValue'][]): string {
  const shares = split.shares.map((s) => `${displayOf(values, s.value_ulid)} ${s.weight / 1000} %`).join(', ');
  return `${shares} by ${split.attribute ? `attribute ${split.attribute}` : 'identifier'}`;
}

/**
 * The split part of a rule or base form: off, or values with their percentages (to 0.001 %,
 * summing to 100) and the attribute contexts are bucketed by. The API's messages for `split.*`
 * are shown at their fields.
 */
export function SplitEditor({
  draft,
  values,
  where,
  problem,
  onChange,
}: {
  draft: SplitDraft;
  values: Schemas['FlagValue'][];
  /** Names the form in labels, e.g. `the base` or `rule Beta`. */
  where: string;
  problem: ApiProblem | undefined;
  onChange: (next: SplitDraft) => void;
}) {
  const total = draft.shares.reduce((sum, s) => sum + thousandths(s.percent), 0);
  const setShare = (index: number, next: Partial<SplitDraft['shares'][number]>) =>
    onChange({ ...draft, shares: draft.shares.map((s, i) => (i === index ? { ...s, ...next } : s)) });
  return (
    <fieldset className="split-editor">
      <legend>Split of {where}</legend>
      <GroupMessages problem={problem} name="split" />
      <CheckboxField
        label={`Use a weighted split for ${where}`}
        name="split.enabled"
        checked={draft.enabled}
        onChange={(e) => onChange({ ...draft, enabled: e.target.checked })}
        problem={problem}
        hint="Each context gets one of several values by weight, and keeps it."
      />
      {draft.enabled ? (
        <>
          <Field
            label={`Bucket ${where} by attribute`}
            name="split.attribute"
            value={draft.attribute}
            placeholder="identifier"
            onChange={(e) => onChange({ ...draft, attribute: e.target.value })}
            problem={problem}
            hint="Empty: the context's identifier. Contexts without the attribute get the value above."
          />
          <GroupMessages problem={problem} name="split.shares" />
          <ShareBar draft={draft} values={values} where={where} />
          <ol className="split-shares">
            {draft.shares.map((share, index) => (
              <li key={index}>
                <SelectField
                  label={`Value ${index + 1}`}
                  aria-label={`Split value ${index + 1} of ${where}`}
                  name={`split.shares.${index}.value_ulid`}
                  value={share.value_ulid}
                  onChange={(e) => setShare(index, { value_ulid: e.target.value })}
                  problem={problem}
                >
                  {values.map((v) => (
                    <option key={v.ulid} value={v.ulid}>
                      {v.display}
                    </option>
                  ))}
                </SelectField>
                <span className="percent">
                  <Field
                    label="Share"
                    aria-label={`Percent for split value ${index + 1} of ${where}`}
                    name={`split.shares.${index}.weight`}
                    type="number"
                    min={0}
                    max={100}
                    step={0.001}
                    value={share.percent}
                    onChange={(e) => setShare(index, { percent: e.target.value })}
                    problem={problem}
                  />
                  <span className="unit" aria-hidden="true">
                    %
                  </span>
                </span>
                {draft.shares.length > 2 ? (
                  <button type="button" onClick={() => onChange({ ...draft, shares: draft.shares.filter((_, i) => i !== index) })}>
                    Remove split value {index + 1} of {where}
                  </button>
                ) : null}
              </li>
            ))}
          </ol>
          <button
            type="button"
            onClick={() => onChange({ ...draft, shares: [...draft.shares, { value_ulid: values[0]?.ulid ?? '', percent: '0' }] })}
          >
            Add a split value to {where}
          </button>
          <p className="hint" aria-live="polite">
            Total {total / 1000} %{total === TOTAL ? '' : ' (must be 100 %)'}
          </p>
        </>
      ) : null}
    </fieldset>
  );
}

/**
 * The shares as one bar, as typed (before any save), and what each means: of every 100 contexts,
 * about that many get the value and keep it. A value named on several rows counts once, summed.
 */
function ShareBar({ draft, values, where }: { draft: SplitDraft; values: Schemas['FlagValue'][]; where: string }) {
  const sums = new Map<string, number>();
  for (const share of draft.shares) {
    const weight = Math.max(0, thousandths(share.percent) || 0);
    sums.set(share.value_ulid, (sums.get(share.value_ulid) ?? 0) + weight);
  }
  const total = [...sums.values()].reduce((a, b) => a + b, 0);
  const shares = [...sums].map(([ulid, weight], index) => ({ ulid, weight, name: displayOf(values, ulid), colour: valueColour(index) }));
  const percent = (weight: number) => Math.round((weight / 1000) * 1000) / 1000;
  const summary = shares.map((s) => `${s.name} ${percent(s.weight)} %`).join(', ');
  return (
    <div className="share-preview">
      <div className="share-bar" role="img" aria-label={`Shares of ${where}: ${summary}`}>
        {shares.map((s) =>
          s.weight > 0 ? (
            <span
              key={s.ulid}
              className="share"
              data-value={s.name}
              style={{ width: `${(s.weight / Math.max(total, TOTAL)) * 100}%`, background: s.colour }}
            />
          ) : null,
        )}
      </div>
      <ul className="share-meaning">
        {shares.map((s) => (
          <li key={s.ulid}>
            <span className="swatch" style={{ background: s.colour }} aria-hidden="true" /> <code>{s.name}</code>: about {percent(s.weight)}{' '}
            of every 100 contexts get it, and keep it while the split stays.
          </li>
        ))}
      </ul>
    </div>
  );
}
