import { useState, type FormEvent } from 'react';
import { api, fieldMessages, unwrap } from '../../api/client';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { CheckboxField, Field, SelectField } from '../../ui/Field';
import { TypedConfirmation } from '../../ui/TypedConfirmation';
import { useAction } from '../../ui/useAsync';
import { targetsPath, type PanelContext } from './panel-context';

/**
 * Serve one value now, in one call (rules kept unless dropped). It starts from the value served
 * now (`served`, a display), so submitting without a choice changes nothing of the value.
 */
export function ServeNow({ context, served, onServed }: { context: PanelContext; served?: string | null; onServed: () => void }) {
  const { environment, values } = context;
  const [valueUlid, setValueUlid] = useState(values.find((v) => v.display === served)?.ulid ?? values[0]?.ulid ?? '');
  const [dropRules, setDropRules] = useState(false);
  const [comment, setComment] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const action = useAction();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void action.run(async () => {
      await unwrap(
        api.POST('/projects/{projectKey}/flags/{flagKey}/environments/{environmentKey}/serve', {
          params: { path: targetsPath(context) },
          body: {
            value: valueUlid,
            drop_rules: dropRules,
            comment: comment || null,
            ...(environment.confirmation_required ? { confirmation } : {}),
          },
        }),
      );
      setConfirmation('');
      onServed();
    });
  };
  if (values.length === 0) return null;
  return (
    <form onSubmit={submit} className="inline serve" aria-label={`Serve now in ${environment.name}`}>
      <SelectField label="Serve now" name="value" value={valueUlid} onChange={(e) => setValueUlid(e.target.value)} problem={action.problem}>
        {values.map((v) => (
          <option key={v.ulid} value={v.ulid}>
            {v.display}
          </option>
        ))}
      </SelectField>
      <CheckboxField
        label="to everyone (drop the rules)"
        name="drop_rules"
        checked={dropRules}
        onChange={(e) => setDropRules(e.target.checked)}
        problem={action.problem}
      />
      {environment.comments_required ? (
        <Field
          label="Comment (required here)"
          name="comment"
          value={comment}
          onChange={(e) => setComment(e.target.value)}
          problem={action.problem}
        />
      ) : null}
      {environment.confirmation_required ? (
        <TypedConfirmation
          expected={environment.key}
          value={confirmation}
          onChange={setConfirmation}
          what={`serve in ${environment.name}`}
          messages={fieldMessages(action.problem, 'confirmation')}
        />
      ) : null}
      <button type="submit" disabled={action.busy || (environment.confirmation_required && confirmation !== environment.key)}>
        Serve in {environment.name}
      </button>
      <ErrorMessage problem={action.problem} />
    </form>
  );
}
