import { useState } from 'react';
import { api, unwrap, type Schemas } from '../../api/client';
import { useDialog } from '../../ui/Dialog';
import { SelectField } from '../../ui/Field';
import { When } from '../../ui/When';
import { FlagSwitch } from './FlagSwitch';
import { ServingChangeDialog, type ServingChangeInput } from './ServingChangeDialog';

const rolloutText = (state: Schemas['FlagServingState']) =>
  state.rollout_percentage === null ? 'none' : `${state.rollout_percentage}% ${state.rollout_status ?? ''}`.trim();

/**
 * The top of a flag page: every environment side by side (switch, what is served, rules, rollout,
 * last change, waiting draft or schedule, evaluations in the last 24 hours).
 */
export function FlagSummary({
  project,
  flag,
  environments,
  states,
  onChange,
  onOpen,
}: {
  project: string;
  flag: string;
  environments: Schemas['Environment'][];
  states: Schemas['FlagServingState'][];
  onChange: () => void;
  onOpen: (environmentKey: string) => void;
}) {
  const byKey = new Map(states.map((s) => [s.environment_key, s]));
  return (
    <section aria-labelledby="flag-summary-title" className="flag-summary">
      <h2 id="flag-summary-title">Environments side by side</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">Environment</th>
            <th scope="col">On</th>
            <th scope="col">Serves</th>
            <th scope="col">Rules</th>
            <th scope="col">Rollout</th>
            <th scope="col">Last change</th>
            <th scope="col">Evaluations (24 h)</th>
          </tr>
        </thead>
        <tbody>
          {environments.map((environment) => {
            const state = byKey.get(environment.key);
            if (!state) return null;
            return (
              <tr key={environment.key} data-testid={`summary-${environment.key}`}>
                <th scope="row">
                  <span className="swatch" style={{ background: environment.color }} aria-hidden="true" />{' '}
                  <button type="button" className="link" onClick={() => onOpen(environment.key)}>
                    {environment.name}
                  </button>
                </th>
                <td>
                  <FlagSwitch project={project} flag={flag} environment={environment} state={state} onSwitched={onChange} />
                </td>
                <td>
                  <code>{state.value ?? '–'}</code> {state.served_by === 'default' ? '(default)' : ''}
                  {state.draft ? <span className="badge quiet">draft</span> : null}
                  {state.scheduled_at ? <span className="badge quiet">scheduled</span> : null}
                </td>
                <td>{state.rules_count}</td>
                <td>{rolloutText(state)}</td>
                <td>
                  <When iso={state.published_at} none="never published" />
                </td>
                <td>
                  <span data-testid={`evaluations-24h-${environment.key}`}>{state.evaluations_24h}</span>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}

/** Copies what one environment serves (value, rules, rollout) to another and publishes it: promote, for this flag. */
export function CopyTargeting({
  project,
  flag,
  environments,
  onCopied,
}: {
  project: string;
  flag: string;
  environments: Schemas['Environment'][];
  onCopied: () => void;
}) {
  const [from, setFrom] = useState(environments[0]?.key ?? '');
  const [to, setTo] = useState(environments[1]?.key ?? '');
  const [result, setResult] = useState('');
  const dialog = useDialog();
  const source = environments.find((e) => e.key === from);
  const target = environments.find((e) => e.key === to);
  const copy = async (input: ServingChangeInput) => {
    const promoted = await unwrap(
      api.POST('/projects/{projectKey}/configuration/promote', {
        params: { path: { projectKey: project } },
        body: { from, to, flags: [flag], publish: true, ...input },
      }),
    );
    setResult(
      promoted.data.unchanged.length > 0
        ? `${target?.name} already serves what ${source?.name} serves.`
        : `Copied: ${target?.name} now serves what ${source?.name} serves.`,
    );
    onCopied();
  };
  return (
    <section className="copy-targeting" aria-labelledby="copy-targeting-title">
      <h2 id="copy-targeting-title">Copy targeting</h2>
      <div className="inline">
        <SelectField label="From" name="copy_from" value={from} onChange={(e) => setFrom(e.target.value)}>
          {environments.map((e) => (
            <option key={e.key} value={e.key}>
              {e.name}
            </option>
          ))}
        </SelectField>
        <SelectField label="To" name="copy_to" value={to} onChange={(e) => setTo(e.target.value)}>
          {environments.map((e) => (
            <option key={e.key} value={e.key}>
              {e.name}
            </option>
          ))}
        </SelectField>
        <button type="button" disabled={from === to} onClick={() => (setResult(''), dialog.open())}>
          Copy {source?.name} to {target?.name}…
        </button>
      </div>
      <p role="status">{result}</p>
      {target && source ? (
        <ServingChangeDialog
          control={dialog}
          environment={target}
          title={`Copy ${source.name} to ${target.name}`}
          submitLabel={`Publish in ${target.name}`}
          onSubmit={copy}
        >
          <p>
            {target.name} will serve what {source.name} serves now: its value, rules and rollout, as a new publish.
          </p>
        </ServingChangeDialog>
      ) : null}
    </section>
  );
}
