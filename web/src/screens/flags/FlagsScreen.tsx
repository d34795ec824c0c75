import { useState, type FormEvent } from 'react';
import { allPages } from '../../api/all-pages';
import { api, unwrap, type Schemas } from '../../api/client';
import { Link, navigate } from '../../app/router';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Field, SelectField } from '../../ui/Field';
import { Pager, useCursorPages } from '../../ui/Pager';
import { TypedConfirmation } from '../../ui/TypedConfirmation';
import { useAction, useAsync } from '../../ui/useAsync';
import { When } from '../../ui/When';
import { FlagSwitch } from './FlagSwitch';
import './flags.css';

type FlagType = Schemas['FlagType'];
const flagTypes: FlagType[] = ['boolean', 'number', 'string', 'json'];

/** A project's flags, paged by the server (it stays quick with 10,000 flags). */
export function FlagsScreen({ project }: { project: string }) {
  const [search, setSearch] = useState('');
  const [type, setType] = useState<FlagType | ''>('');
  const [tag, setTag] = useState('');
  const pages = useCursorPages();
  const cursor = pages.cursor;
  const flags = useAsync(
    () =>
      unwrap(
        api.GET('/projects/{projectKey}/flags', {
          params: {
            path: { projectKey: project },
            query: {
              per_page: 50,
              cursor,
              search: search || undefined,
              type: type || undefined,
              tag: tag.trim() || undefined,
              include: 'serving',
            },
          },
        }),
      ),
    [project, search, type, tag, cursor],
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
  // "staging:on": flags on (or off) in one environment, as the API reports them; '' for any.
  const [stateFilter, setStateFilter] = useState('');
  const [onlyStale, setOnlyStale] = useState(false);
  const shown = (flags.data?.data ?? []).filter((flag) => {
    if (onlyStale && !flag.stale) return false;
    if (!stateFilter) return true;
    const [environmentKey, wanted] = stateFilter.split(':');
    return flag.environments?.some((s) => s.environment_key === environmentKey && s.on === (wanted === 'on'));
  });
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
        <Field
          label="Search key or name"
          name="search"
          type="search"
          value={search}
          onChange={(e) => (pages.restart(), setSearch(e.target.value))}
        />
        <label>
          Type{' '}
          <select value={type} onChange={(e) => (pages.restart(), setType(e.target.value as FlagType | ''))}>
            <option value="">any</option>
            {flagTypes.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </label>
        <Field label="Tag" name="tag" value={tag} onChange={(e) => (pages.restart(), setTag(e.target.value))} />
        <label>
          State{' '}
          <select value={stateFilter} onChange={(e) => setStateFilter(e.target.value)}>
            <option value="">any</option>
            {(environments.data?.data ?? []).flatMap((environment) =>
              (['on', 'off'] as const).map((state) => (
                <option key={`${environment.key}:${state}`} value={`${environment.key}:${state}`}>
                  {state} in {environment.name}
                </option>
              )),
            )}
          </select>
        </label>
        <label>
          <input type="checkbox" checked={onlyStale} onChange={(e) => setOnlyStale(e.target.checked)} /> Only stale flags
        </label>
      </div>
      {stateFilter || onlyStale ? (
        <p className="hint">
          State and staleness filter the flags of this page: {shown.length} of {flags.data?.data.length ?? 0}.
        </p>
      ) : null}
      <ErrorMessage problem={flags.problem} />
      <table>
        <thead>
          <tr>
            <th scope="col">
              <span className="visually-hidden">Select</span>
            </th>
            <th scope="col">Flag</th>
            <th scope="col">Type</th>
            <th scope="col">Serving</th>
            <th scope="col">Last used</th>
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
                <Link to={`/projects/${project}/flags/${flag.key}`}>{flag.name}</Link> <code>{flag.key}</code>
                {flag.stale ? <span className="badge">stale</span> : null}
                {flag.permanent ? <span className="badge quiet">permanent</span> : null}
                {flag.tags.map((t) => (
                  <button key={t} type="button" className="tag" onClick={() => (pages.restart(), setTag(t))}>
                    <span className="visually-hidden">Show flags tagged </span>
                    {t}
                  </button>
                ))}
              </td>
              <td>{flag.type}</td>
              <td>
                {flag.environments?.map((state) => {
                  const environment = environmentOf(state.environment_key);
                  return (
                    <span key={state.environment_key} className="state env-serving" style={{ borderColor: colour(state.environment_key) }}>
                      {environment ? (
                        <FlagSwitch project={project} flag={flag.key} environment={environment} state={state} onSwitched={flags.reload} />
                      ) : null}
                      {state.environment_key}: <code>{state.value ?? '–'}</code>
                      {state.rollout_percentage !== null ? ` (${state.rollout_percentage}% ${state.rollout_status})` : ''}
                      {state.draft ? ' · draft' : ''}
                      {state.scheduled_at ? ' · scheduled' : ''}
                    </span>
                  );
                })}
              </td>
              <td>
                <When iso={flag.last_used_at} none="never" />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
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
