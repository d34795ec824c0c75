import { useState, type FormEvent } from 'react';
import { api, unwrap, type Schemas } from '../../api/client';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Field, GroupMessages, SelectField } from '../../ui/Field';
import { useAction } from '../../ui/useAsync';
import { CriterionEditor, criterionDraftOf, criterionWrite, emptyCriterion, type CriterionDraft } from './CriterionEditor';
import { targetsPath, type PanelContext } from './panel-context';
import { SplitEditor, splitDraftOf, splitWrite, type SplitDraft } from './SplitEditor';

const rulesPath = '/projects/{projectKey}/flags/{flagKey}/environments/{environmentKey}/targets/{targetUlid}/rules' as const;

/**
 * A rule's form: description, the value it serves, and its criteria (all must match). Without
 * `rule` it adds a rule after the others; with one it replaces that rule whole (PUT).
 */
export function RuleEditor({
  context,
  draft,
  rule,
  onSaved,
  onCancel,
}: {
  context: PanelContext;
  draft: Schemas['Target'];
  rule?: Schemas['Rule'];
  onSaved: () => void;
  onCancel?: () => void;
}) {
  const path = { ...targetsPath(context), targetUlid: draft.ulid };
  const [description, setDescription] = useState(rule?.description ?? '');
  const [valueUlid, setValueUlid] = useState(rule?.value_ulid ?? context.values[0]?.ulid ?? '');
  const [criteria, setCriteria] = useState<CriterionDraft[]>(rule ? rule.criteria.data.map(criterionDraftOf) : [emptyCriterion()]);
  const [split, setSplit] = useState<SplitDraft>(splitDraftOf(rule?.split, context.values));
  const action = useAction();
  const where = rule ? `rule ${rule.description}` : `new rule in ${context.environment.name}`;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body: Schemas['RuleWrite'] = {
      description,
      value_ulid: valueUlid,
      criteria: criteria.map(criterionWrite),
      split: splitWrite(split),
    };
    void action.run(async () => {
      if (rule) await unwrap(api.PUT(`${rulesPath}/{ruleUlid}`, { params: { path: { ...path, ruleUlid: rule.ulid } }, body }));
      else await unwrap(api.POST(rulesPath, { params: { path }, body }));
      if (!rule) {
        setDescription('');
        setCriteria([emptyCriterion()]);
        setSplit(splitDraftOf(null, context.values));
      }
      onSaved();
    });
  };
  return (
    <form
      onSubmit={submit}
      className="rule-form"
      aria-label={rule ? `Edit rule ${rule.description}` : `New rule in ${context.environment.name}`}
    >
      <Field
        label="Rule description"
        name="description"
        required
        value={description}
        onChange={(e) => setDescription(e.target.value)}
        problem={action.problem}
      />
      <SelectField
        label="Serve"
        name="value_ulid"
        value={valueUlid}
        onChange={(e) => setValueUlid(e.target.value)}
        problem={action.problem}
      >
        {context.values.map((v) => (
          <option key={v.ulid} value={v.ulid}>
            {v.display}
          </option>
        ))}
      </SelectField>
      <p className="hint">Served when every criterion matches.</p>
      <SplitEditor
        draft={split}
        values={context.values}
        where={rule ? `rule ${rule.description}` : 'the new rule'}
        problem={action.problem}
        onChange={setSplit}
      />
      <GroupMessages problem={action.problem} name="criteria" />
      {criteria.map((criterion, index) => (
        <CriterionEditor
          key={index}
          context={context}
          index={index}
          criterion={criterion}
          problem={action.problem}
          onChange={(next) => setCriteria(criteria.map((c, i) => (i === index ? next : c)))}
          onRemove={criteria.length > 1 ? () => setCriteria(criteria.filter((_, i) => i !== index)) : undefined}
        />
      ))}
      <button type="button" onClick={() => setCriteria([...criteria, emptyCriterion()])}>
        Add a criterion to {where}
      </button>
      <button type="submit" disabled={action.busy}>
        {rule ? 'Save rule' : 'Add rule'}
      </button>
      {onCancel ? (
        <button type="button" onClick={onCancel}>
          Cancel editing
        </button>
      ) : null}
      <ErrorMessage problem={action.problem} />
    </form>
  );
}
