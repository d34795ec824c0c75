import { useId, useState, type FormEvent } from 'react';
import { api, unwrap, type Schemas } from '../../api/client';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Field } from '../../ui/Field';
import { TypedConfirmation } from '../../ui/TypedConfirmation';
import { useAction, useAsync } from '../../ui/useAsync';
import { displayOf, targetsPath, type PanelContext } from './EnvironmentPanel';

type Comparer = Schemas['Comparer'];
type Selector = Schemas['Selector'];
// The document's rule: attribute criteria take every comparer, context and segment the four below.
const everySelectorComparers: Comparer[] = ['equal', 'notequal', 'in', 'notin'];
const attributeComparers: Comparer[] = [...everySelectorComparers, 'gt', 'gte', 'lt', 'lte', 'isnull', 'notnull', 'contains', 'notcontains', 'startswith', 'endswith', 'notstartswith', 'notendswith'];

function RuleForm({ context, draft, onAdded }: { context: PanelContext; draft: Schemas['Target']; onAdded: () => void }) {
  const path = { ...targetsPath(context), targetUlid: draft.ulid };
  const listId = useId();
  const suggestions = useAsync(
    () => unwrap(api.GET('/projects/{projectKey}/environments/{environmentKey}/context-attributes', { params: { path: { projectKey: context.project, environmentKey: context.environment.key } } })),
    [context.project, context.environment.key],
  );
  const segments = useAsync(() => unwrap(api.GET('/projects/{projectKey}/segments', { params: { path: { projectKey: context.project }, query: { per_page: 100 } } })), [context.project]);
  const [description, setDescription] = useState('');
  const [selector, setSelector] = useState<Selector>('attribute');
  const [attribute, setAttribute] = useState('');
  const [comparer, setComparer] = useState<Comparer>('equal');
  const [criterionValues, setCriterionValues] = useState('');
  const [valueUlid, setValueUlid] = useState(context.values[0]?.ulid ?? '');
  const action = useAction();
  const comparers = selector === 'attribute' ? attributeComparers : everySelectorComparers;
  const observed = suggestions.data?.data.attributes.find((a) => a.key === attribute)?.values ?? [];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const valueless = comparer === 'isnull' || comparer === 'notnull';
    const criterion = {
      selector,
      comparer,
      ...(selector === 'attribute' ? { sub_selector: attribute } : {}),
      ...(valueless ? {} : { values: criterionValues.split(',').map((v) => v.trim()).filter(Boolean) }),
    };
    void action.run(async () => {
      await unwrap(
        api.POST('/projects/{projectKey}/flags/{flagKey}/environments/{environmentKey}/targets/{targetUlid}/rules', {
          params: { path },
          body: { description, value_ulid: valueUlid, criteria: [criterion] } as Schemas['RuleWrite'],
        }),
      );
      setDescription('');
      setCriterionValues('');
      onAdded();
    });
  };
  return (
    <form onSubmit={submit} className="rule-form" aria-label={`New rule in ${context.environment.name}`}>
      <Field label="Rule description" name="description" required value={description} onChange={(e) => setDescription(e.target.value)} problem={action.problem} />
      <label>
        Selector{' '}
        <select value={selector} onChange={(e) => (setSelector(e.target.value as Selector), setComparer('equal'))}>
          <option value="attribute">attribute</option>
          <option value="context">context identifier</option>
          <option value="segment">segment</option>
        </select>
      </label>
      {selector === 'attribute' ? (
        <Field label="Attribute" name="sub_selector" list={listId} value={attribute} onChange={(e) => setAttribute(e.target.value)} problem={action.problem} />
      ) : null}
      <datalist id={listId}>
        {suggestions.data?.data.attributes.map((a) => (
          <option key={a.key} value={a.key} />
        ))}
      </datalist>
      <label>
        Comparer{' '}
        <select value={comparer} onChange={(e) => setComparer(e.target.value as Comparer)}>
          {comparers.map((c) => (
            <option key={c}>{c}</option>
          ))}
        </select>
      </label>
      <Field
        label={selector === 'segment' ? 'Segment keys (comma-separated)' : 'Values (comma-separated)'}
        name="values"
        value={criterionValues}
        onChange={(e) => setCriterionValues(e.target.value)}
        problem={action.problem}
        hint={
          selector === 'segment'
            ? `Segments: ${segments.data?.data.map((s) => s.key).join(', ') || 'none yet'}`
            : observed.length > 0
              ? `Seen: ${observed.slice(0, 8).map((v) => v.value).join(', ')}`
              : undefined
        }
      />
      <label>
        Serve{' '}
        <select value={valueUlid} onChange={(e) => setValueUlid(e.target.value)}>
          {context.values.map((v) => (
            <option key={v.ulid} value={v.ulid}>
              {v.display}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" disabled={action.busy}>
        Add rule
      </button>
      <ErrorMessage problem={action.problem} />
    </form>
  );
}

function PublishDialog({ context, draft, onPublished }: { context: PanelContext; draft: Schemas['Target']; onPublished: () => void }) {
  const { environment } = context;
  const [comment, setComment] = useState('');
  const [scheduledAt, setScheduledAt] = useState('');
  const [rollout, setRollout] = useState<'none' | 'manual' | 'automatic'>('none');
  const [percentage, setPercentage] = useState('10');
  const [confirmation, setConfirmation] = useState('');
  const action = useAction();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body: Schemas['TargetPublish'] = {
      comment: comment || null,
      ...(scheduledAt ? { scheduled_at: new Date(scheduledAt).toISOString() } : {}),
      ...(rollout === 'none' ? {} : { rollout_enabled: true, rollout_mode: rollout, ...(rollout === 'manual' ? { rollout_percentage: Number(percentage) } : {}) }),
      ...(environment.confirmation_required ? { confirmation } : {}),
    } as Schemas['TargetPublish'];
    void action.run(async () => {
      await unwrap(
        api.PUT('/projects/{projectKey}/flags/{flagKey}/environments/{environmentKey}/targets/{targetUlid}/publish', {
          params: { path: { ...targetsPath(context), targetUlid: draft.ulid } },
          body,
        }),
      );
      onPublished();
    });
  };
  return (
    <form onSubmit={submit} className="publish" aria-label={`Publish in ${environment.name}`}>
      <h3>Publish in {environment.name}</h3>
      <Field
        label={environment.comments_required ? 'Comment (required here)' : 'Comment'}
        name="comment"
        required={environment.comments_required}
        value={comment}
        onChange={(e) => setComment(e.target.value)}
        problem={action.problem}
      />
      <Field label="Schedule for (optional)" name="scheduled_at" type="datetime-local" value={scheduledAt} onChange={(e) => setScheduledAt(e.target.value)} problem={action.problem} />
      <fieldset>
        <legend>Rollout</legend>
        {(['none', 'manual', 'automatic'] as const).map((mode) => (
          <label key={mode}>
            <input type="radio" name={`rollout-${environment.key}`} value={mode} checked={rollout === mode} onChange={() => setRollout(mode)} /> {mode === 'none' ? 'everyone at once' : mode}
          </label>
        ))}
        {rollout === 'manual' ? <Field label="Percentage" name="rollout_percentage" type="number" min={1} max={100} value={percentage} onChange={(e) => setPercentage(e.target.value)} problem={action.problem} /> : null}
      </fieldset>
      {environment.confirmation_required ? <TypedConfirmation expected={environment.key} value={confirmation} onChange={setConfirmation} what={`publish in ${environment.name}`} /> : null}
      {action.problem?.fields.confirmation ? <span className="field-error">{action.problem.fields.confirmation.join(' ')}</span> : null}
      <button type="submit" disabled={action.busy || (environment.confirmation_required && confirmation !== environment.key)}>
        Publish to {environment.name}
      </button>
      <ErrorMessage problem={action.problem} />
    </form>
  );
}

/** The draft of one environment: base value, ordered rules with their criteria, publish. */
export function DraftEditor({ context, draft, onChange }: { context: PanelContext; draft: Schemas['Target']; onChange: () => void }) {
  const path = { ...targetsPath(context), targetUlid: draft.ulid };
  const rules = useAsync(() => unwrap(api.GET('/projects/{projectKey}/flags/{flagKey}/environments/{environmentKey}/targets/{targetUlid}/rules', { params: { path } })), [draft.ulid]);
  const action = useAction();
  const ruleList = rules.data?.data ?? [];
  const setBase = (valueUlid: string) =>
    void action.run(async () => {
      await unwrap(api.PUT('/projects/{projectKey}/flags/{flagKey}/environments/{environmentKey}/targets/{targetUlid}', { params: { path }, body: { value_ulid: valueUlid } }));
      onChange();
    });
  const move = (index: number, by: -1 | 1) =>
    void action.run(async () => {
      const order = ruleList.map((rule, i) => ({ ulid: rule.ulid, order: i === index ? index + by : i === index + by ? index : i }));
      await unwrap(api.PUT('/projects/{projectKey}/flags/{flagKey}/environments/{environmentKey}/targets/{targetUlid}/rules-order', { params: { path }, body: { rules: order } }));
      rules.reload();
    });
  const removeRule = (ruleUlid: string) =>
    void action.run(async () => {
      await unwrap(api.DELETE('/projects/{projectKey}/flags/{flagKey}/environments/{environmentKey}/targets/{targetUlid}/rules/{ruleUlid}', { params: { path: { ...path, ruleUlid } } }));
      rules.reload();
    });
  const discard = () =>
    void action.run(async () => {
      await unwrap(api.DELETE('/projects/{projectKey}/flags/{flagKey}/environments/{environmentKey}/targets/{targetUlid}', { params: { path } }));
      onChange();
    });
  return (
    <section className="draft" aria-label={`Draft in ${context.environment.name}`}>
      <h3>Draft in {context.environment.name}</h3>
      <label>
        Base value{' '}
        <select value={draft.value_ulid} onChange={(e) => setBase(e.target.value)}>
          {context.values.map((v) => (
            <option key={v.ulid} value={v.ulid}>
              {v.display}
            </option>
          ))}
        </select>
      </label>
      <ol className="rules">
        {ruleList.map((rule, index) => (
          <li key={rule.ulid}>
            <strong>{rule.description}</strong>: serve <code>{displayOf(context.values, rule.value_ulid)}</code> when{' '}
            {rule.criteria.data.map((c) => `${c.selector}${c.sub_selector ? ` ${c.sub_selector}` : ''} ${c.comparer} ${c.values.data.map((v) => v.value).join(', ')}`).join(' and ')}{' '}
            <button type="button" disabled={index === 0} onClick={() => move(index, -1)} aria-label={`Move ${rule.description} up`}>
              Up
            </button>
            <button type="button" disabled={index === ruleList.length - 1} onClick={() => move(index, 1)} aria-label={`Move ${rule.description} down`}>
              Down
            </button>
            <button type="button" onClick={() => removeRule(rule.ulid)} aria-label={`Remove ${rule.description}`}>
              Remove
            </button>
          </li>
        ))}
      </ol>
      <ErrorMessage problem={action.problem ?? rules.problem} />
      <RuleForm context={context} draft={draft} onAdded={rules.reload} />
      <PublishDialog context={context} draft={draft} onPublished={onChange} />
      <button type="button" onClick={discard}>
        Discard draft in {context.environment.name}
      </button>
    </section>
  );
}
