import { useState, type DragEvent, type FormEvent } from 'react';
import { api, unwrap, type Schemas } from '../../api/client';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { SelectField } from '../../ui/Field';
import { useAction, useAsync } from '../../ui/useAsync';
import { displayOf, targetsPath, type PanelContext } from './panel-context';
import { PrerequisitesEditor } from './PrerequisitesEditor';
import { PublishDialog } from './PublishDialog';
import { RuleEditor } from './RuleEditor';
import { SplitEditor, splitDraftOf, splitText, splitWrite } from './SplitEditor';

const targetPath = '/projects/{projectKey}/flags/{flagKey}/environments/{environmentKey}/targets/{targetUlid}' as const;

function describeCriteria(rule: Schemas['Rule']): string {
  return rule.criteria.data
    .map((c) =>
      `${c.selector}${c.sub_selector ? ` ${c.sub_selector}` : ''} ${c.comparer} ${c.values.data.map((v) => v.value).join(', ')}`.trim(),
    )
    .join(' and ');
}

/** `rules` with the rule at `from` moved to `to`. */
function moved<T>(rules: T[], from: number, to: number): T[] {
  const next = [...rules];
  const [rule] = next.splice(from, 1);
  if (rule !== undefined) next.splice(to, 0, rule);
  return next;
}

/** The draft of one environment: base value, ordered rules with their criteria, publish. */
export function DraftEditor({
  context,
  draft,
  seed,
  onChange,
  onPublished,
}: {
  context: PanelContext;
  draft: Schemas['Target'];
  /** The draft's rules and prerequisites as the panel's overview read them: no read of its own at first. */
  seed?: Schemas['TargetRules'];
  onChange: () => void;
  onPublished: () => void;
}) {
  const path = { ...targetsPath(context), targetUlid: draft.ulid };
  const rules = useAsync(
    () => unwrap(api.GET(`${targetPath}/rules`, { params: { path } })),
    [draft.ulid],
    seed ? { status: 'success' as const, data: seed.rules } : undefined,
  );
  const action = useAction();
  const [editing, setEditing] = useState<string>();
  const [dragged, setDragged] = useState<number>();
  const [dropAt, setDropAt] = useState<number>();
  const ruleList = rules.data?.data ?? [];
  const [baseSplit, setBaseSplit] = useState(() => splitDraftOf(draft.split, context.values));
  const saveBaseSplit = (event: FormEvent) => {
    event.preventDefault();
    void action.run(async () => {
      await unwrap(api.PUT(targetPath, { params: { path }, body: { split: splitWrite(baseSplit) } }));
      onChange();
    });
  };
  const setBase = (valueUlid: string) =>
    void action.run(async () => {
      await unwrap(api.PUT(targetPath, { params: { path }, body: { value_ulid: valueUlid } }));
      onChange();
    });
  const reorder = (from: number, to: number) => {
    if (from === to || to < 0 || to >= ruleList.length) return;
    void action.run(async () => {
      const order = moved(ruleList, from, to).map((rule, i) => ({ ulid: rule.ulid, order: i }));
      await unwrap(api.PUT(`${targetPath}/rules-order`, { params: { path }, body: { rules: order } }));
      rules.reload();
    });
  };
  const removeRule = (ruleUlid: string) =>
    void action.run(async () => {
      await unwrap(api.DELETE(`${targetPath}/rules/{ruleUlid}`, { params: { path: { ...path, ruleUlid } } }));
      rules.reload();
    });
  const discard = () =>
    void action.run(async () => {
      await unwrap(api.DELETE(targetPath, { params: { path } }));
      onChange();
    });
  // Drag and drop for pointer users; the move buttons do the same from the keyboard.
  const dragHandlers = (index: number) => ({
    draggable: editing === undefined,
    onDragStart: (event: DragEvent) => {
      event.dataTransfer.effectAllowed = 'move';
      event.dataTransfer.setData('text/plain', String(index));
      setDragged(index);
    },
    onDragOver: (event: DragEvent) => {
      if (dragged === undefined) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'move';
      setDropAt(index);
    },
    onDrop: (event: DragEvent) => {
      event.preventDefault();
      if (dragged !== undefined) reorder(dragged, index);
      setDragged(undefined);
      setDropAt(undefined);
    },
    onDragEnd: () => {
      setDragged(undefined);
      setDropAt(undefined);
    },
  });
  return (
    <section className="draft" aria-label={`Draft in ${context.environment.name}`}>
      <h3>Draft in {context.environment.name}</h3>
      <SelectField
        label="Base value"
        name="value_ulid"
        value={draft.value_ulid}
        onChange={(e) => setBase(e.target.value)}
        problem={action.problem}
        hint="Served when no rule matches."
      >
        {context.values.map((v) => (
          <option key={v.ulid} value={v.ulid}>
            {v.display}
          </option>
        ))}
      </SelectField>
      <form onSubmit={saveBaseSplit} aria-label={`Base split in ${context.environment.name}`}>
        <SplitEditor draft={baseSplit} values={context.values} where="the base" problem={action.problem} onChange={setBaseSplit} />
        <button type="submit" disabled={action.busy}>
          Save the base split in {context.environment.name}
        </button>
      </form>
      <h4>Rules, first match wins</h4>
      {ruleList.length > 1 ? <p className="hint">Drag a rule, or use its move buttons, to change the order.</p> : null}
      <ol className="rules" aria-label={`Rules in ${context.environment.name}`}>
        {ruleList.map((rule, index) =>
          editing === rule.ulid ? (
            <li key={rule.ulid}>
              <RuleEditor
                context={context}
                draft={draft}
                rule={rule}
                onSaved={() => {
                  setEditing(undefined);
                  rules.reload();
                }}
                onCancel={() => setEditing(undefined)}
              />
            </li>
          ) : (
            <li
              key={rule.ulid}
              className={`rule${dragged === index ? ' dragging' : ''}${dropAt === index && dragged !== index ? ' drop-target' : ''}`}
              data-rule={rule.description}
              {...dragHandlers(index)}
            >
              <span className="handle" aria-hidden="true">
                ⠿
              </span>{' '}
              <strong>{rule.description}</strong>: serve{' '}
              {rule.split ? (
                <>
                  a split ({splitText(rule.split, context.values)}; without it <code>{displayOf(context.values, rule.value_ulid)}</code>)
                </>
              ) : (
                <code>{displayOf(context.values, rule.value_ulid)}</code>
              )}{' '}
              when {describeCriteria(rule)}{' '}
              <span className="rule-actions">
                <button
                  type="button"
                  disabled={index === 0}
                  onClick={() => reorder(index, index - 1)}
                  aria-label={`Move ${rule.description} up`}
                >
                  Up
                </button>
                <button
                  type="button"
                  disabled={index === ruleList.length - 1}
                  onClick={() => reorder(index, index + 1)}
                  aria-label={`Move ${rule.description} down`}
                >
                  Down
                </button>
                <button type="button" onClick={() => setEditing(rule.ulid)} aria-label={`Edit ${rule.description}`}>
                  Edit
                </button>
                <button type="button" onClick={() => removeRule(rule.ulid)} aria-label={`Remove ${rule.description}`}>
                  Remove
                </button>
              </span>
            </li>
          ),
        )}
      </ol>
      <ErrorMessage problem={action.problem ?? rules.problem} />
      <h4>Add a rule</h4>
      <RuleEditor context={context} draft={draft} onSaved={rules.reload} />
      <PrerequisitesEditor context={context} draft={draft} seed={seed?.prerequisites} />
      <div className="actions">
        <PublishDialog context={context} draft={draft} onPublished={onPublished} />
        <button type="button" onClick={discard}>
          Discard draft in {context.environment.name}
        </button>
      </div>
    </section>
  );
}
