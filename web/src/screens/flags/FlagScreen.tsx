import { useState } from 'react';
import { allPages } from '../../api/all-pages';
import { api, unwrap } from '../../api/client';
import { Link } from '../../app/router';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Tabs } from '../../ui/Tabs';
import { useAsync } from '../../ui/useAsync';
import { EnvironmentPanel } from './EnvironmentPanel';
import { FlagDetails } from './FlagDetails';
import { CopyTargeting, FlagSummary } from './FlagSummary';
import { FlagValues } from './FlagValues';
import './flags.css';

/**
 * A flag: every environment side by side at the top (switches, what is served), then one
 * environment at a time (tabs): what it serves, Try it, drafts and history. The details, values
 * and copies between environments, edited less often, come last.
 */
export function FlagScreen({ project, flag }: { project: string; flag: string }) {
  const path = { projectKey: project, flagKey: flag };
  const details = useAsync(
    () => unwrap(api.GET('/projects/{projectKey}/flags/{flagKey}', { params: { path, query: { include: 'serving' } } })),
    [project, flag],
  );
  const values = useAsync(() => unwrap(api.GET('/projects/{projectKey}/flags/{flagKey}/values', { params: { path } })), [project, flag]);
  const environments = useAsync(
    () =>
      allPages((cursor) =>
        unwrap(
          api.GET('/projects/{projectKey}/environments', { params: { path: { projectKey: project }, query: { per_page: 100, cursor } } }),
        ),
      ),
    [project],
  );
  const [chosen, setChosen] = useState<string>();
  const list = environments.data?.data ?? [];
  const selected = list.find((e) => e.key === chosen) ?? list[0];
  const states = details.data?.data.environments;
  const openEnvironment = (key: string) => {
    setChosen(key);
    // The tab of the environment opened from the summary takes focus, as a click on it would.
    requestAnimationFrame(() => document.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]')?.focus());
  };
  return (
    <section>
      <p>
        <Link to={`/projects/${project}/flags`}>All flags of {project}</Link>
      </p>
      <h1>
        {details.data?.data.name ?? flag} <code>{flag}</code>
      </h1>
      <ErrorMessage problem={details.problem ?? values.problem ?? environments.problem} />
      {states && environments.data ? (
        <FlagSummary project={project} flag={flag} environments={list} states={states} onChange={details.reload} onOpen={openEnvironment} />
      ) : null}
      {values.data && selected ? (
        <Tabs
          label={`Environments of ${flag}`}
          items={list.map((e) => ({ key: e.key, label: e.name }))}
          selected={selected.key}
          onSelect={setChosen}
        >
          <EnvironmentPanel
            key={selected.ulid}
            project={project}
            flag={flag}
            environment={selected}
            values={values.data.data}
            served={states?.find((s) => s.environment_key === selected.key)?.value}
            publishedAt={states?.find((s) => s.environment_key === selected.key)?.published_at}
            onServingChange={details.reload}
          />
        </Tabs>
      ) : null}
      {details.data ? <h2>Details</h2> : null}
      {details.data ? (
        // Keyed by the flag alone: the reloads after a save, a switch or a value change must not
        // put back what someone is typing in the form.
        <FlagDetails key={details.data.data.key} project={project} flag={details.data.data} onSaved={details.reload} />
      ) : null}
      {values.data ? (
        <FlagValues project={project} flag={flag} values={values.data.data} onChange={() => (values.reload(), details.reload())} />
      ) : null}
      {environments.data && list.length > 1 ? (
        <CopyTargeting project={project} flag={flag} environments={list} onCopied={details.reload} />
      ) : null}
    </section>
  );
}
