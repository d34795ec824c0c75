import { api, unwrap, type Schemas } from '../../api/client';
import { useDialog } from '../../ui/Dialog';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { useAction } from '../../ui/useAsync';
import { ServingChangeDialog, type ServingChangeInput } from './ServingChangeDialog';
import './flags.css';

const switchPath = '/projects/{projectKey}/flags/{flagKey}/environments/{environmentKey}/switch' as const;

/**
 * A flag's on/off switch in one environment (switchFlag). What on means is the API's
 * (`FlagServingState.on`). One click where the environment asks for nothing; otherwise a dialog
 * for the comment and the typed key.
 */
export function FlagSwitch({
  project,
  flag,
  environment,
  state,
  onSwitched,
}: {
  project: string;
  flag: string;
  environment: Schemas['Environment'];
  state: Schemas['FlagServingState'];
  onSwitched: (state: Schemas['FlagServingState']) => void;
}) {
  const dialog = useDialog();
  const action = useAction();
  const turnOn = !state.on;
  const send = async (input: ServingChangeInput) => {
    const result = await unwrap(
      api.POST(switchPath, {
        params: { path: { projectKey: project, flagKey: flag, environmentKey: environment.key } },
        body: { on: turnOn, ...input },
      }),
    );
    onSwitched(result.data);
  };
  const asks = environment.confirmation_required || environment.comments_required;
  const what = turnOn ? 'on' : 'off';
  return (
    <span className="flag-switch">
      <button
        type="button"
        role="switch"
        aria-checked={state.on}
        aria-label={`${flag} in ${environment.name}`}
        className="switch"
        disabled={action.busy}
        onClick={asks ? dialog.open : () => void action.run(() => send({ comment: null }))}
      >
        <span className="switch-track" aria-hidden="true">
          <span className="switch-thumb" />
        </span>
        <span className="switch-text" aria-hidden="true">
          {state.on ? 'On' : 'Off'}
        </span>
      </button>
      <ErrorMessage problem={action.problem} />
      {asks ? (
        <ServingChangeDialog
          control={dialog}
          environment={environment}
          title={`Turn ${flag} ${what} in ${environment.name}`}
          submitLabel={`Turn ${what} in ${environment.name}`}
          onSubmit={send}
        >
          <p>
            {turnOn
              ? 'The targeting published before it was turned off goes live again.'
              : "Every context gets the flag's off value; the targeting stays in the history, one switch away."}
          </p>
        </ServingChangeDialog>
      ) : null}
    </span>
  );
}
