import { useId, useState, type FormEvent } from 'react';
import { api, unwrap, type Schemas } from '../../api/client';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Field } from '../../ui/Field';
import { useAction, useAsync } from '../../ui/useAsync';
import { targetsPath, type PanelContext } from './EnvironmentPanel';

/** Evaluate the flag for a context typed here, as the public API would (the management evaluate operation). */
export function TryIt({ context }: { context: PanelContext }) {
  const [identifier, setIdentifier] = useState('user-1');
  const [attributes, setAttributes] = useState('');
  const [result, setResult] = useState<Schemas['EvaluationResult']>();
  const action = useAction();
  const listId = useId();
  // Observed attributes of this environment, offered as key=value pairs to pick.
  const observed = useAsync(
    () => unwrap(api.GET('/projects/{projectKey}/environments/{environmentKey}/context-attributes', { params: { path: { projectKey: context.project, environmentKey: context.environment.key } } })),
    [context.project, context.environment.key],
  );
  const pairs = (observed.data?.data.attributes ?? []).flatMap((a) => a.values.slice(0, 5).map((v) => `${a.key}=${v.value}`));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void action.run(async () => {
      // "plan=pro, country=FR" as attributes with one value each.
      const pairs = attributes
        .split(',')
        .map((p) => p.split('=').map((s) => s.trim()))
        .filter((p): p is [string, string] => p.length === 2 && p[0] !== '');
      const evaluationContext = { type: 'user', identifier, attributes: pairs.map(([key, value]) => ({ key, values: [{ value }] })) };
      const answer = await unwrap(
        api.GET('/projects/{projectKey}/flags/{flagKey}/environments/{environmentKey}/evaluate', {
          params: { path: targetsPath(context), query: { context: JSON.stringify(evaluationContext) } },
        }),
      );
      setResult(answer.data);
    });
  };
  return (
    <form onSubmit={submit} className="inline try-it" aria-label={`Try it in ${context.environment.name}`}>
      <Field label="Identifier" name="identifier" value={identifier} onChange={(e) => setIdentifier(e.target.value)} />
      <Field label="Attributes (key=value, ...)" name="attributes" list={listId} value={attributes} onChange={(e) => setAttributes(e.target.value)} />
      <datalist id={listId}>
        {pairs.map((pair) => (
          <option key={pair} value={pair} />
        ))}
      </datalist>
      <button type="submit">Evaluate in {context.environment.name}</button>
      {result ? (
        <output data-testid={`try-${context.environment.key}`}>
          {JSON.stringify(result.value)} ({result.resolved_by})
        </output>
      ) : null}
      <ErrorMessage problem={action.problem} />
    </form>
  );
}
