import { useState } from 'react';
import { api, unwrap, type Schemas } from '../../api/client';
import { ruleCriteriaText } from '../../ui/criteria';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { useAsync } from '../../ui/useAsync';

/** The flag and environment a publish entry is about: from its request path, or its label (`flag/env`) and the project chosen in the filters. */
export function publishScope(
  entry: Schemas['AuditEntry'],
  project: string,
): { project: string; flag: string; environment: string } | undefined {
  const fromPath = /^\/management\/v1\/projects\/([^/]+)\/flags\/([^/]+)\/environments\/([^/]+)\//.exec(entry.http_path ?? '');
  if (fromPath)
    return {
      project: decodeURIComponent(fromPath[1] as string),
      flag: decodeURIComponent(fromPath[2] as string),
      environment: decodeURIComponent(fromPath[3] as string),
    };
  const [flag, environment] = (entry.subject_label ?? '').split('/');
  return project && flag && environment ? { project, flag, environment } : undefined;
}

/** What a published target serves, in words: its base value, rules in order, rollout. */
interface Served {
  value: string;
  rules: string[];
  rollout: string;
}

function rolloutText(target: Schemas['Target']): string {
  if (target.rollout_mode === null || target.rollout_percentage === null) return 'none: served to everyone';
  return `${target.rollout_mode} rollout at ${target.rollout_percentage} % (${target.rollout_status ?? 'active'})`;
}

async function served(
  scope: { project: string; flag: string; environment: string },
  target: Schemas['Target'],
  values: Map<string, string>,
): Promise<Served> {
  const rules = await unwrap(
    api.GET('/projects/{projectKey}/flags/{flagKey}/environments/{environmentKey}/targets/{targetUlid}/rules', {
      params: { path: { projectKey: scope.project, flagKey: scope.flag, environmentKey: scope.environment, targetUlid: target.ulid } },
    }),
  );
  const display = (ulid: string | null) => (ulid === null ? 'the flag’s default' : (values.get(ulid) ?? ulid));
  return {
    value: display(target.value_ulid),
    rules: [...rules.data]
      .sort((a, b) => a.position - b.position)
      .map((rule) => `If ${ruleCriteriaText(rule)} → ${display(rule.value_ulid)}${rule.description ? ` (${rule.description})` : ''}`),
    rollout: rolloutText(target),
  };
}

/** The publish and the one before it, for the same flag and environment. */
async function loadDiff(scope: { project: string; flag: string; environment: string }, targetUlid: string) {
  const flagPath = { projectKey: scope.project, flagKey: scope.flag };
  const [targets, values] = await Promise.all([
    unwrap(
      api.GET('/projects/{projectKey}/flags/{flagKey}/environments/{environmentKey}/targets', {
        params: { path: { ...flagPath, environmentKey: scope.environment } },
      }),
    ),
    unwrap(api.GET('/projects/{projectKey}/flags/{flagKey}/values', { params: { path: flagPath } })),
  ]);
  const names = new Map(values.data.map((v) => [v.ulid, v.display]));
  const published = targets.data.find((t) => t.ulid === targetUlid);
  if (!published?.published_at) return undefined;
  const at = published.published_at;
  const previous = targets.data
    .filter((t) => t.published_at !== null && t.published_at < at)
    .sort((a, b) => ((a.published_at as string) < (b.published_at as string) ? 1 : -1))[0];
  return { now: await served(scope, published, names), before: previous ? await served(scope, previous, names) : undefined };
}

/** One aspect before and after: unchanged in plain text, changed as deleted and inserted. */
function Aspect({ name, before, after }: { name: string; before: string[] | undefined; after: string[] }) {
  const same = before !== undefined && JSON.stringify(before) === JSON.stringify(after);
  return (
    <div>
      <dt>{name}</dt>
      <dd>
        {same ? (
          <span>unchanged: {after.length > 0 ? after.join('; ') : 'none'}</span>
        ) : (
          <>
            {(before ?? [])
              .filter((line) => !after.includes(line))
              .map((line) => (
                <del key={`-${line}`} className="before">
                  <span className="visually-hidden">before: </span>
                  {line}
                </del>
              ))}
            {after
              .filter((line) => !(before ?? []).includes(line))
              .map((line) => (
                <ins key={`+${line}`} className="after">
                  <span className="visually-hidden">now: </span>
                  {line}
                </ins>
              ))}
            {before !== undefined && after.length === 0 && before.length === 0 ? <span>none</span> : null}
            {before === undefined && after.length === 0 ? <span>none</span> : null}
          </>
        )}
      </dd>
    </div>
  );
}

function DiffBody({ scope, targetUlid }: { scope: { project: string; flag: string; environment: string }; targetUlid: string }) {
  const diff = useAsync(() => loadDiff(scope, targetUlid), [scope.project, scope.flag, scope.environment, targetUlid]);
  if (diff.problem) return <ErrorMessage problem={diff.problem} />;
  if (diff.loading) return <p className="hint">Loading…</p>;
  if (!diff.data) return <p className="hint">This target is no longer listed.</p>;
  const { now, before } = diff.data;
  return (
    <>
      <p className="hint">{before ? 'Against the previous publish:' : 'The first publish of this flag here:'}</p>
      <dl className="diff publish-diff" aria-label={`What went live for ${scope.flag} in ${scope.environment}`}>
        <Aspect name="Value" before={before ? [before.value] : undefined} after={[now.value]} />
        <Aspect name="Rules" before={before?.rules} after={now.rules} />
        <Aspect name="Rollout" before={before ? [before.rollout] : undefined} after={[now.rollout]} />
      </dl>
    </>
  );
}

/** "What went live": the publish's value, rules and rollout against the publish before it, loaded when opened. */
export function PublishDiff({ entry, project }: { entry: Schemas['AuditEntry']; project: string }) {
  const [open, setOpen] = useState(false);
  const scope = publishScope(entry, project);
  if (entry.result !== 'success' || !entry.subject_ulid) return null;
  if (!scope) return <div className="hint">Choose the project filter to see what this publish put live.</div>;
  return (
    <details onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>What went live</summary>
      {open ? <DiffBody scope={scope} targetUlid={entry.subject_ulid} /> : null}
    </details>
  );
}
