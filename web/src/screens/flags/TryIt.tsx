import { useState, type FormEvent } from 'react';
import { api, unwrap, type Schemas } from '../../api/client';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Field } from '../../ui/Field';
import { useAction } from '../../ui/useAsync';
import { targetsPath, type PanelContext } from './EnvironmentPanel';

/** Evaluate the flag for a context typed here, as the public API would (the management evaluate operation). */
export function TryIt({ context }: { context: PanelContext }) {
  const [identifier, setIdentifier] = useState('user-1');
  const [attributes, setAttributes] = useState('');
  const [result, setResult] = useState<Schemas['EvaluationResult']>();
  const action = useAction();
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
      <Field label="Attributes (key=value, ...)" name="attributes" value={attributes} onChange={(e) => setAttributes(e.target.value)} />
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
