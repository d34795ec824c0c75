import { useState } from 'react';
import { api, unwrap, type Schemas } from '../../api/client';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { GroupMessages, SelectField } from '../../ui/Field';
import { useAction, useAsync } from '../../ui/useAsync';
import { targetsPath, type PanelContext } from './panel-context';

const prerequisitesPath =
  '/projects/{projectKey}/flags/{flagKey}/environments/{environmentKey}/targets/{targetUlid}/prerequisites' as const;

type Prerequisite = Schemas['Prerequisite'];
const asWrite = (list: Prerequisite[]): Schemas['PrerequisiteWrite'][] =>
  list.map((p) => ({ flag_key: p.flag_key, value_ulids: p.value_ulids }));

/**
 * The draft's prerequisites: other flags of the project that must serve one of the chosen values
 * for this draft to apply once published; otherwise the flag serves its default value.
 */
export function PrerequisitesEditor({
  context,
  draft,
  seed,
}: {
  context: PanelContext;
  draft: Schemas['Target'];
  /** The draft's prerequisites as the panel's overview read them: no read of its own at first. */
  seed?: Prerequisite[];
}) {
  const path = { ...targetsPath(context), targetUlid: draft.ulid };
  const list = useAsync(
    () => unwrap(api.GET(prerequisitesPath, { params: { path } })),
    [draft.ulid],
    seed ? { status: 'success' as const, data: seed } : undefined,
  );
  const flags = useAsync(
    () => unwrap(api.GET('/projects/{projectKey}/flags', { params: { path: { projectKey: context.project }, query: { per_page: 100 } } })),
    [context.project],
  );
  const [flagKey, setFlagKey] = useState('');
  const [valueUlid, setValueUlid] = useState('');
  const values = useAsync(
    () =>
      flagKey === ''
        ? Promise.resolve(undefined)
        : unwrap(api.GET('/projects/{projectKey}/flags/{flagKey}/values', { params: { path: { projectKey: context.project, flagKey } } })),
    [context.project, flagKey],
  );
  const action = useAction();
  const current = list.data?.data ?? [];
  const save = (next: Schemas['PrerequisiteWrite'][]) =>
    void action.run(async () => {
      await unwrap(api.PUT(prerequisitesPath, { params: { path }, body: { prerequisites: next } }));
      list.reload();
    });
  const others = (flags.data?.data ?? []).filter((f) => f.key !== context.flag);
  const valueList = values.data?.data ?? [];
  const n = context.environment.name;
  return (
    <section aria-label={`Prerequisites in ${n}`}>
      <h4>Prerequisites</h4>
      <p className="hint">
        Checked before the rules: each flag listed must serve one of its values for this draft to apply; otherwise the flag serves its
        default value.
      </p>
      {current.length === 0 ? <p>None.</p> : null}
      <ul>
        {current.map((p, i) => (
          <li key={p.flag_ulid}>
            <code>{p.flag_key}</code> serves {p.value_ulids.length > 1 ? 'one of ' : ''}
            <PrerequisiteValues context={context} prerequisite={p} />{' '}
            <button type="button" onClick={() => save(asWrite(current.filter((_, j) => j !== i)))}>
              Remove prerequisite {p.flag_key}
            </button>
          </li>
        ))}
      </ul>
      <form
        aria-label={`Add a prerequisite in ${n}`}
        onSubmit={(event) => {
          event.preventDefault();
          if (flagKey === '' || valueUlid === '') return;
          save([...asWrite(current), { flag_key: flagKey, value_ulids: [valueUlid] }]);
        }}
      >
        <GroupMessages problem={action.problem} name="prerequisites" />
        <SelectField
          label="Required flag"
          name={`prerequisites.${current.length}.flag_key`}
          problem={action.problem}
          value={flagKey}
          onChange={(e) => {
            setFlagKey(e.target.value);
            setValueUlid('');
          }}
        >
          <option value="">Choose a flag</option>
          {others.map((f) => (
            <option key={f.key} value={f.key}>
              {f.key}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Required value"
          name={`prerequisites.${current.length}.value_ulids.0`}
          problem={action.problem}
          value={valueUlid}
          onChange={(e) => setValueUlid(e.target.value)}
        >
          <option value="">Choose a value</option>
          {valueList.map((v) => (
            <option key={v.ulid} value={v.ulid}>
              {v.display}
            </option>
          ))}
        </SelectField>
        <button type="submit" disabled={action.busy || flagKey === '' || valueUlid === ''}>
          Add prerequisite
        </button>
      </form>
      <ErrorMessage problem={action.problem ?? list.problem ?? flags.problem} />
    </section>
  );
}

/** The required values of one prerequisite, by display. */
function PrerequisiteValues({ context, prerequisite }: { context: PanelContext; prerequisite: Prerequisite }) {
  const values = useAsync(
    () =>
      unwrap(
        api.GET('/projects/{projectKey}/flags/{flagKey}/values', {
          params: { path: { projectKey: context.project, flagKey: prerequisite.flag_key } },
        }),
      ),
    [context.project, prerequisite.flag_key],
  );
  const displays = prerequisite.value_ulids.map((u) => values.data?.data.find((v) => v.ulid === u)?.display ?? u);
  return <code>{displays.join(', ')}</code>;
}
