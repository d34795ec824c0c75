import { useId, useState, type FormEvent } from 'react';
import { api, unwrap, type Schemas } from '../../api/client';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Field, SelectField } from '../../ui/Field';
import { useAction } from '../../ui/useAsync';
import { targetsPath, type PanelContext } from './panel-context';
import { EvaluationWhy } from './EvaluationWhy';

interface AttributeRow {
  key: string;
  value: string;
}

/**
 * Evaluate the flag for a context typed here or picked from the contexts observed in the
 * environment, as the public API would (the management evaluate operation).
 */
export function TryIt({ context }: { context: PanelContext }) {
  const observed = context.observed;
  const [type, setType] = useState('user');
  const [identifier, setIdentifier] = useState('user-1');
  const [rows, setRows] = useState<AttributeRow[]>([]);
  const [result, setResult] = useState<Schemas['EvaluationResult']>();
  const action = useAction();
  const typesId = useId();
  const namesId = useId();
  const valuesId = useId();
  const pairs = (observed?.attributes ?? []).flatMap((a) => a.values.slice(0, 10).map((v) => ({ key: a.key, value: v.value })));
  const setRow = (index: number, patch: Partial<AttributeRow>) => setRows(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // One attribute with several values when a key appears on several rows.
    const byKey = new Map<string, { value: string }[]>();
    for (const row of rows) if (row.key.trim()) byKey.set(row.key.trim(), [...(byKey.get(row.key.trim()) ?? []), { value: row.value }]);
    const evaluationContext = { type, identifier, attributes: [...byKey].map(([key, values]) => ({ key, values })) };
    void action.run(async () => {
      const answer = await unwrap(
        api.GET('/projects/{projectKey}/flags/{flagKey}/environments/{environmentKey}/evaluate', {
          params: { path: targetsPath(context), query: { context: JSON.stringify(evaluationContext) } },
        }),
      );
      setResult(answer.data);
    });
  };
  return (
    <form onSubmit={submit} className="try-it" aria-label={`Try it in ${context.environment.name}`}>
      <h3>Try it in {context.environment.name}</h3>
      <div className="inline">
        <Field
          label="Context type"
          name="type"
          list={typesId}
          autoComplete="off"
          required
          value={type}
          onChange={(e) => setType(e.target.value)}
        />
        <datalist id={typesId}>
          {observed?.context_types.map((t) => (
            <option key={t.type} value={t.type} />
          ))}
        </datalist>
        <Field label="Identifier" name="identifier" value={identifier} onChange={(e) => setIdentifier(e.target.value)} />
      </div>
      {observed && observed.context_types.length > 0 ? (
        <SelectField
          label="Observed context types"
          name="observed_type"
          value=""
          onChange={(e) => e.target.value && setType(e.target.value)}
        >
          <option value="">pick a type…</option>
          {observed.context_types.map((t) => (
            <option key={t.type} value={t.type}>
              {t.type} ({t.count})
            </option>
          ))}
        </SelectField>
      ) : null}
      <fieldset>
        <legend>Attributes</legend>
        {rows.map((row, index) => (
          <div key={index} className="inline">
            <Field
              label={`Attribute ${index + 1} name`}
              name={`attributes.${index}.key`}
              list={namesId}
              autoComplete="off"
              value={row.key}
              onChange={(e) => setRow(index, { key: e.target.value })}
            />
            <Field
              label={`Attribute ${index + 1} value`}
              name={`attributes.${index}.value`}
              list={`${valuesId}-${index}`}
              autoComplete="off"
              value={row.value}
              onChange={(e) => setRow(index, { value: e.target.value })}
            />
            <datalist id={`${valuesId}-${index}`}>
              {observed?.attributes
                .find((a) => a.key === row.key)
                ?.values.map((v) => (
                  <option key={v.value} value={v.value} />
                ))}
            </datalist>
            <button type="button" onClick={() => setRows(rows.filter((_, i) => i !== index))}>
              Remove attribute {index + 1}
            </button>
          </div>
        ))}
        <datalist id={namesId}>
          {observed?.attributes.map((a) => (
            <option key={a.key} value={a.key} />
          ))}
        </datalist>
        <div className="inline">
          <button type="button" onClick={() => setRows([...rows, { key: '', value: '' }])}>
            Add an attribute
          </button>
          {pairs.length > 0 ? (
            <SelectField
              label="Add an observed attribute"
              name="observed_attribute"
              value=""
              onChange={(e) => {
                const pair = pairs[Number(e.target.value)];
                if (pair) setRows([...rows, pair]);
              }}
            >
              <option value="">pick one…</option>
              {pairs.map((pair, i) => (
                <option key={`${pair.key}=${pair.value}`} value={i}>
                  {pair.key} = {pair.value}
                </option>
              ))}
            </SelectField>
          ) : null}
        </div>
      </fieldset>
      <button type="submit">Evaluate in {context.environment.name}</button>
      {result ? (
        <output data-testid={`try-${context.environment.key}`} aria-live="polite">
          <strong className="served-value">{JSON.stringify(result.value)}</strong> (
          <strong className="served-reason">
            {result.resolved_by}
            {result.split
              ? `; split of ${result.split.rule === null ? 'the base' : `rule ${result.split.rule + 1}`}, ${result.split.weight / 1000} %`
              : ''}
          </strong>
          )
          {result.resolved_by === 'prerequisite'
            ? ' A prerequisite flag did not serve a required value, so the default value is served.'
            : ''}
          <EvaluationWhy context={context} result={result} />
        </output>
      ) : null}
      <ErrorMessage problem={action.problem} />
    </form>
  );
}
