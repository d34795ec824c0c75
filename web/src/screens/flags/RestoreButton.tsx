import { api, unwrap, type Schemas } from '../../api/client';
import { useDialog } from '../../ui/Dialog';
import { exactTime, relativeTime } from '../../ui/When';
import { displayOf, targetsPath, type PanelContext } from './panel-context';
import { ServingChangeDialog, type ServingChangeInput } from './ServingChangeDialog';

const restorePath = '/projects/{projectKey}/flags/{flagKey}/environments/{environmentKey}/targets/{targetUlid}/restore' as const;

/** Publishes an earlier publish of the history again (restoreTarget), after a dialog for the comment and typed key. */
export function RestoreButton({
  context,
  target,
  onRestored,
}: {
  context: PanelContext;
  target: Schemas['Target'];
  onRestored: () => void;
}) {
  const dialog = useDialog();
  // The button names one publish exactly (two publishes can both be "5 minutes ago"); the dialog
  // says it as the history does, the exact time on hover.
  const when = target.published_at ? exactTime(target.published_at) : '';
  const ago = target.published_at ? relativeTime(target.published_at) : '';
  const restore = async (input: ServingChangeInput) => {
    await unwrap(api.POST(restorePath, { params: { path: { ...targetsPath(context), targetUlid: target.ulid } }, body: input }));
    onRestored();
  };
  return (
    <>
      <button type="button" onClick={dialog.open} aria-label={`Restore the publish of ${when}`}>
        Restore
      </button>
      <ServingChangeDialog
        control={dialog}
        environment={context.environment}
        title={`Restore the publish made ${ago} in ${context.environment.name}`}
        heading={
          <>
            Restore the publish made{' '}
            <time dateTime={target.published_at ?? undefined} title={when}>
              {ago}
            </time>{' '}
            in {context.environment.name}
          </>
        }
        submitLabel={`Publish again in ${context.environment.name}`}
        onSubmit={restore}
      >
        <p>
          Its base value <code>{displayOf(context.values, target.value_ulid)}</code> and its rules go live again as a new publish
          {target.comment ? ` (it was “${target.comment}”)` : ''}; its rollout is not repeated.
        </p>
      </ServingChangeDialog>
    </>
  );
}
