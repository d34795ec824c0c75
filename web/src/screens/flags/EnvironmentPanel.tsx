import { useRef } from 'react';
import { allPages } from '../../api/all-pages';
import { api, unwrap } from '../../api/client';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { useAction, useAsync } from '../../ui/useAsync';
import { When } from '../../ui/When';
import { DraftEditor } from './DraftEditor';
import { EvaluationChart } from './EvaluationChart';
import { ServeNow } from './ServeNow';
import { PublishedConfiguration } from './PublishedConfiguration';
import { historyRolloutText } from './history-rollout';
import { RestoreButton } from './RestoreButton';
import { TryIt } from './TryIt';
import { displayOf, targetsPath, type PanelContext } from './panel-context';

/** One environment of a flag: what it serves now and why, its draft, rollouts and history. */
export function EnvironmentPanel({
  served: servedDisplay,
  publishedAt,
  onServingChange,
  ...props
}: Omit<PanelContext, 'observed' | 'segments'> & {
  /** The base value served now (FlagServingState.value), which "Serve now" starts from. */
  served?: string | null;
  /** When the serving publish was made: a change made elsewhere on the page (the switch, a copy) reads the panel again. */
  publishedAt?: string | null;
  /** Told after every change of what the environment serves (the page's summary reads again). */
  onServingChange?: () => void;
}) {
  const { environment, values } = props;
  const path = targetsPath(props);
  const heading = useRef<HTMLHeadingElement>(null);
  // Everything the panel shows, in one read (getFlagEnvironmentOverview): what a context without
  // attributes is served, the targets, the published rules, insights, evaluations and the contexts
  // observed. Values change what the default serves, and a change made elsewhere on the page (the
  // switch, a copy) what is published: read again when they do.
  const overview = useAsync(
    () => unwrap(api.GET('/projects/{projectKey}/flags/{flagKey}/environments/{environmentKey}/overview', { params: { path } })),
    [props.project, props.flag, environment.key, values.map((v) => `${v.ulid}:${v.default}`).join(), servedDisplay, publishedAt],
  );
  const data = overview.data?.data;
  const context: PanelContext = { ...props, observed: data?.context_attributes };
  const createDraft = useAction();
  const cancel = useAction();
  const cancelScheduled = (targetUlid: string) =>
    void cancel.run(async () => {
      await unwrap(
        api.DELETE('/projects/{projectKey}/flags/{flagKey}/environments/{environmentKey}/targets/{targetUlid}', {
          params: { path: { ...path, targetUlid } },
        }),
      );
      overview.reload();
    });
  const refresh = () => {
    overview.reload();
    onServingChange?.();
  };
  // After a publish or rollout change the control used may be gone: the panel's heading takes focus.
  const refreshAndFocus = () => {
    refresh();
    heading.current?.focus();
  };
  const list = data?.targets ?? [];
  const draft = list.find((t) => t.status === 'draft');
  // Segment keys offered in a draft's segment criteria, read only while a draft is open.
  const segments = useAsync(
    () =>
      draft
        ? allPages((cursor) =>
            unwrap(
              api.GET('/projects/{projectKey}/segments', {
                params: { path: { projectKey: props.project }, query: { per_page: 100, cursor } },
              }),
            ),
          )
        : Promise.resolve(undefined),
    [props.project, draft !== undefined],
  );
  // The publish serving now; every other publish of the history can be restored.
  const current = list
    .filter((t) => t.status === 'published')
    .sort((a, b) => (b.published_at ?? '').localeCompare(a.published_at ?? ''))[0];
  return (
    <article className="environment" style={{ borderColor: environment.color }} aria-labelledby={`env-${environment.key}`}>
      <h2 id={`env-${environment.key}`} ref={heading} tabIndex={-1}>
        <span className="swatch" style={{ background: environment.color }} aria-hidden="true" /> {environment.name}
      </h2>
      <ErrorMessage problem={overview.problem} />
      {/* What is served and its controls beside Try it: on a wide screen both fit the first screen. */}
      <div className="environment-columns">
        <div className="environment-main">
          {data ? (
            <p data-testid={`served-${environment.key}`} className="served">
              Serves <code>{JSON.stringify(data.served.value)}</code> ({data.served.resolved_by}) to a context without attributes.
            </p>
          ) : null}
          {data ? (
            <p className="insights">
              Last retrieved <When iso={data.insights.last_retrieved_at} none="never" /> · used{' '}
              <When iso={data.insights.last_used_at} none="never" /> · evaluated <When iso={data.insights.last_evaluated_at} none="never" />{' '}
              · updated <When iso={data.insights.last_updated_at} none="never" />
            </p>
          ) : null}
          <ServeNow key={servedDisplay ?? ''} context={context} served={servedDisplay} onServed={refresh} />
          {data ? (
            <PublishedConfiguration
              context={context}
              targets={list}
              targetRules={data.target_rules}
              exposures={data.exposures}
              onRolloutChange={refreshAndFocus}
            />
          ) : null}
          {draft ? (
            <DraftEditor
              context={{ ...context, segments: segments.data?.data }}
              draft={draft}
              seed={data?.target_rules.find((t) => t.target_ulid === draft.ulid)}
              onChange={refresh}
              onPublished={refreshAndFocus}
            />
          ) : (
            <>
              <button
                type="button"
                disabled={createDraft.busy}
                onClick={() =>
                  void createDraft.run(async () => {
                    await unwrap(
                      api.POST('/projects/{projectKey}/flags/{flagKey}/environments/{environmentKey}/targets', { params: { path } }),
                    );
                    overview.reload();
                  })
                }
              >
                New draft in {environment.name}
              </button>
              <p className="hint">Changes, and rollouts of them to a percentage of contexts, start as a draft and are published from it.</p>
              <ErrorMessage problem={createDraft.problem} />
            </>
          )}
          <ErrorMessage problem={cancel.problem} />
        </div>
        <div className="environment-side">
          <TryIt context={context} />
        </div>
      </div>
      <details>
        <summary>History in {environment.name}</summary>
        {/* Six columns scroll in their own box on a phone: focusable and named, so the keyboard can scroll it too. */}
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus (WCAG 2.1.1, axe scrollable-region-focusable) */}
        <table tabIndex={0} aria-label={`History in ${environment.name}`}>
          <thead>
            <tr>
              <th scope="col">Status</th>
              <th scope="col">Value</th>
              <th scope="col">Comment</th>
              <th scope="col">Rollout</th>
              <th scope="col">Published</th>
              <th scope="col">
                <span className="visually-hidden">Restore</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.map((target) => (
              <tr key={target.ulid}>
                <td>{target.status}</td>
                <td>
                  <code>{displayOf(values, target.value_ulid)}</code>
                </td>
                <td>{target.comment ?? ''}</td>
                <td>{historyRolloutText(target)}</td>
                <td>
                  <When iso={target.published_at ?? target.scheduled_at} none="" />
                  {target.status === 'scheduled' ? (
                    <button type="button" onClick={() => cancelScheduled(target.ulid)}>
                      Cancel scheduled publish
                    </button>
                  ) : null}
                </td>
                <td>
                  {(target.status === 'published' || target.status === 'expired') && target.ulid !== current?.ulid ? (
                    <RestoreButton context={context} target={target} onRestored={refreshAndFocus} />
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
      {/* Last in the panel, so a long chart never pushes the controls down. */}
      <EvaluationChart context={context} data={data?.evaluations} />
    </article>
  );
}
