import { useEffect, useState, type FormEvent } from 'react';
import { allPages } from '../../api/all-pages';
import { api, unwrap, type Schemas } from '../../api/client';
import { Link, navigate, replaceQuery } from '../../app/router';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { CheckboxField, Field, SelectField } from '../../ui/Field';
import { Pager, useCursorPages } from '../../ui/Pager';
import { TypedConfirmation } from '../../ui/TypedConfirmation';
import { useAction, useAsync } from '../../ui/useAsync';
import { When } from '../../ui/When';
import { FlagSwitch } from './FlagSwitch';
import { filterQuery, filtersFromQuery, flagTypes, type ListFilters } from './list-filters';
import './flags.css';

type FlagType = Schemas['FlagType'];

/** A project's flags, paged by the server (it stays quick with 10,000 flags). */
export function FlagsScreen({ project }: { project: string }) {
  // The filters start from the address, and the address follows them (a link or a reload keeps them).
  const [filters, setFilters] = useState<ListFilters>(() => filtersFromQuery(new URLSearchParams(window.location.search)));
  const { search, type, tag, state: stateFilter, stale: onlyStale } = filters;
  const pages = useCursorPages();
  const filter = (change: Partial<ListFilters>) => {
    pages.restart();
    setFilters((current) => ({ ...current, ...change }));
  };
  const query = filterQuery(filters);
  const queryKey = JSON.stringify(query);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `queryKey` stands for `query`, a new object each render
  useEffect(() => replaceQuery(query), [queryKey]);
  const cursor = pages.cursor;
  const flags = useAsync(
    () =>
      unwrap(
        api.GET('/projects/{projectKey}/flags', {
          params: { path: { projectKey: project }, query: { per_page: 50, cursor, include: 'serving', ...query } },
        }),
      ),
    [project, queryKey, cursor],
  );
  const environments = useAsync(
    () =>
      allPages((cursor) =>
        unwrap(
          api.GET('/projects/{projectKey}/environments', { params: { path: { projectKey: project }, query: { per_page: 100, cursor } } }),
        ),
      ),
    [project],
  );
  const environmentOf = (key: string) => environments.data?.data.find((e) => e.key === key);
  const colour = (key: string) => environmentOf(key)?.color ?? '#808080';
  const shown = flags.data?.data ?? [];
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [confirmBulk, setConfirmBulk] = useState('');
  const bulk = useAction();
  const bulkDelete = () =>
    void bulk.run(async () => {
      await unwrap(
        api.POST('/projects/{projectKey}/flags/bulk-delete', {
          params: { path: { projectKey: project } },
          body: { flag_keys: [...selected] },
        }),
      );
      setSelected(new Set());
      setConfirmBulk('');
      flags.reload();
    });
  const [key, setKey] = useState('');
  const [name, setName] = useState('');
  const [newType, setNewType] = useState<FlagType>('boolean');
  const create = useAction();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void create.run(async () => {
      const body: Schemas['FlagCreate'] = { key, name, type: newType, description: null, include_in_mobile: true, include_in_client: true };
      await unwrap(api.POST('/projects/{projectKey}/flags', { params: { path: { projectKey: project } }, body }));
      navigate(`/projects/${project}/flags/${key}`);
    });
  };
  return (
    <section>
      <h1>Flags of {project}</h1>
      <div className="filters flag-filters" role="search">
        <Field label="Search key or name" name="search" type="search" value={search} onChange={(e) => filter({ search: e.target.value })} />
        <SelectField label="Type" name="type" value={type} onChange={(e) => filter({ type: e.target.value as FlagType | '' })}>
          <option value="">any</option>
          {flagTypes.map((t) => (
            <option key={t}>{t}</option>
          ))}
        </SelectField>
        <Field label="Tag" name="tag" value={tag} onChange={(e) => filter({ tag: e.target.value })} />
        <SelectField label="State" name="state" value={stateFilter} onChange={(e) => filter({ state: e.target.value })}>
          <option value="">any</option>
          {(environments.data?.data ?? []).flatMap((environment) =>
            (['on', 'off'] as const).map((state) => (
              <option key={`${environment.key}:${state}`} value={`${environment.key}:${state}`}>
                {state} in {environment.name}
              </option>
            )),
          )}
        </SelectField>
        <CheckboxField label="Only stale flags" name="stale" checked={onlyStale} onChange={(e) => filter({ stale: e.target.checked })} />
      </div>
      <ErrorMessage problem={flags.problem} />
      <table className="flags-table">
        <thead>
          <tr>
            <th scope="col">
              <span className="visually-hidden">Select</span>
            </th>
            <th scope="col">Flag</th>
            <th scope="col">Type</th>
            <th scope="col">Serving</th>
            <th scope="col">Last evaluated · SDK use</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((flag) => (
            <tr key={flag.ulid}>
              <td>
                <input
                  type="checkbox"
                  aria-label={`Select ${flag.key}`}
                  checked={selected.has(flag.key)}
                  onChange={(e) => {
                    const next = new Set(selected);
                    if (e.target.checked) next.add(flag.key);
                    else next.delete(flag.key);
                    setSelected(next);
                  }}
                />
              </td>
              <td>
                <Link to={`/projects/${project}/flags/${flag.key}`}>{flag.name}</Link> <code className="flag-key">{flag.key}</code>
                {flag.stale ? <span className="badge">stale</span> : null}
                {flag.permanent ? <span className="badge quiet">permanent</span> : null}
                {flag.tags.map((t) => (
                  <button key={t} type="button" className="tag" onClick={() => filter({ tag: t })}>
                    <span className="visually-hidden">Show flags tagged </span>
                    {t}
                  </button>
                ))}
              </td>
              <td>{flag.type}</td>
              <td>
                <div className="serving-cell">
                  {flag.environments?.map((state) => {
                    const environment = environmentOf(state.environment_key);
                    return (
                      <span
                        key={state.environment_key}
                        className="state env-serving"
                        style={{ borderColor: colour(state.environment_key) }}
                      >
                        {environment ? (
                          <FlagSwitch project={project} flag={flag.key} environment={environment} state={state} onSwitched={flags.reload} />
                        ) : null}
                        <ServingText state={state} />
                        {state.rollout_percentage !== null ? ` (${state.rollout_percentage}% ${state.rollout_status})` : ''}
                        {state.draft ? ' · draft' : ''}
                        {state.scheduled_at ? ' · scheduled' : ''}
                      </span>
                    );
                  })}
                </div>
              </td>
              <td className="last-use">
                {/* Evaluations through the API and usage reports of SDKs evaluating locally are counted apart. */}
                <span>
                  evaluated <When iso={flag.last_evaluated_at} none="never" />
                </span>
                <span>
                  SDK use <When iso={flag.last_used_at} none="never" />
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {flags.data && shown.length === 0 ? (
        <p className="empty">{queryKey === '{}' ? 'No flags yet: create the first one below.' : 'No flag matches these filters.'}</p>
      ) : null}
      {selected.size > 0 ? (
        <div className="bulk">
          <TypedConfirmation
            expected={`delete ${selected.size}`}
            value={confirmBulk}
            onChange={setConfirmBulk}
            what={`delete ${[...selected].join(', ')}`}
          />
          <button type="button" disabled={confirmBulk !== `delete ${selected.size}` || bulk.busy} onClick={bulkDelete}>
            Delete selected flags
          </button>
          <ErrorMessage problem={bulk.problem} />
        </div>
      ) : null}
      <Pager pages={pages} nextCursor={flags.data?.meta.next_cursor} loading={flags.loading} label="Pages of flags" />
      <h2>New flag</h2>
      <form onSubmit={submit} className="inline">
        <Field label="Key" name="key" required value={key} onChange={(e) => setKey(e.target.value)} problem={create.problem} />
        <Field label="Name" name="name" required value={name} onChange={(e) => setName(e.target.value)} problem={create.problem} />
        <SelectField
          label="Type"
          name="type"
          value={newType}
          onChange={(e) => setNewType(e.target.value as FlagType)}
          problem={create.problem}
        >
          {flagTypes.map((t) => (
            <option key={t}>{t}</option>
          ))}
        </SelectField>
        <button type="submit" disabled={create.busy}>
          Create flag
        </button>
      </form>
      <ErrorMessage problem={create.problem} />
    </section>
  );
}

/**
 * What an environment serves, as the API describes it: the value, or "rules" / "split" where
 * more than one value can be served (then the base value as what everyone else gets).
 */
function ServingText({ state }: { state: Schemas['FlagServingState'] }) {
  const value = <code>{state.value ?? '–'}</code>;
  if (state.serves === 'value') {
    return (
      <span>
        {state.environment_key}: {value}
      </span>
    );
  }
  return (
    <span>
      {state.environment_key}: <strong>{state.serves}</strong>
      {state.serves === 'rules' ? <>, else {value}</> : null}
    </span>
  );
}
