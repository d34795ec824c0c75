import { allPages } from '../../api/all-pages';
import { api, unwrap, type Schemas } from '../../api/client';
import { Field, SelectField } from '../../ui/Field';
import { useAsync } from '../../ui/useAsync';

export type Log = 'management' | 'public';

/**
 * Every query parameter both audit operations document, as the form holds it (text; empty: not
 * sent). Each control is named after its parameter. `cursor` is the pager's.
 */
export interface AuditFilterValues {
  per_page: string;
  sort: string;
  from: string;
  to: string;
  action: string;
  result: string;
  subject_type: string;
  subject_ulid: string;
  management_token_ulid: string;
  actor_ulid: string;
  project: string;
  /** Management log only: `changes`, `reads` or both (empty). */
  kind: string;
  /** Management log only. */
  environment_ulid: string;
}

export const initialFilters: AuditFilterValues = {
  per_page: '50',
  sort: 'created_at_desc',
  from: '',
  to: '',
  action: '',
  result: '',
  subject_type: '',
  subject_ulid: '',
  management_token_ulid: '',
  actor_ulid: '',
  project: '',
  // The log opens on what changed: the console's own reads are one choice away.
  kind: 'changes',
  environment_ulid: '',
};

const results: Schemas['AuditResult'][] = [
  'success',
  'denied_auth',
  'denied_scope',
  'denied_plan',
  'denied_grant',
  'not_found',
  'invalid',
  'conflict',
  'rate_limited',
  'error',
];
const subjectTypes: Schemas['AuditSubjectType'][] = [
  'project',
  'environment',
  'environment_key',
  'flag',
  'flag_value',
  'target',
  'target_rule',
  'segment',
  'management_token',
  'account',
  'personal_token',
  'webhook',
];

/** datetime-local text as the API's date-time (empty: no bound). */
const isoOrUndefined = (text: string) => (text ? new Date(text).toISOString() : undefined);

/** The query of GET /audit-logs for the filters and a cursor. */
export function auditQuery(filters: AuditFilterValues, cursor: string | undefined) {
  const text = (value: string) => value.trim() || undefined;
  return {
    ...publicAuditQuery(filters, cursor),
    kind: text(filters.kind) as 'changes' | 'reads' | undefined,
    environment_ulid: text(filters.environment_ulid),
  };
}

/** The query of GET /api-public-audit-logs (which has no kind or environment filter). */
export function publicAuditQuery(filters: AuditFilterValues, cursor: string | undefined) {
  const text = (value: string) => value.trim() || undefined;
  return {
    per_page: Number(filters.per_page),
    cursor,
    sort: filters.sort as 'created_at_desc' | 'created_at_asc',
    from: isoOrUndefined(filters.from),
    to: isoOrUndefined(filters.to),
    action: text(filters.action) as Schemas['AuditAction'] | undefined,
    result: text(filters.result) as Schemas['AuditResult'] | undefined,
    subject_type: text(filters.subject_type) as Schemas['AuditSubjectType'] | undefined,
    subject_ulid: text(filters.subject_ulid),
    management_token_ulid: text(filters.management_token_ulid),
    actor_ulid: text(filters.actor_ulid),
    project: text(filters.project),
  };
}

function Choice({
  label,
  name,
  value,
  options,
  onChange,
  hint,
}: {
  label: string;
  name: keyof AuditFilterValues;
  value: string;
  options: Array<[string, string]>;
  onChange: (value: string) => void;
  hint?: string | undefined;
}) {
  return (
    <SelectField label={label} name={name} value={value} hint={hint} onChange={(e) => onChange(e.target.value)}>
      {options.map(([v, text]) => (
        <option key={v} value={v}>
          {text}
        </option>
      ))}
    </SelectField>
  );
}

/** The filters of the audit logs: subjects, actors and tokens picked from lists by name, not typed as ulids. */
export function AuditFilters({
  log,
  filters,
  onChange,
}: {
  log: Log;
  filters: AuditFilterValues;
  onChange: (name: keyof AuditFilterValues, value: string) => void;
}) {
  const accounts = useAsync(
    () => allPages((cursor) => unwrap(api.GET('/accounts', { params: { query: { per_page: 100, cursor } } }))).catch(() => undefined),
    [],
  );
  const tokens = useAsync(
    () => allPages((cursor) => unwrap(api.GET('/tokens', { params: { query: { per_page: 100, cursor } } }))).catch(() => undefined),
    [],
  );
  const projects = useAsync(
    () => allPages((cursor) => unwrap(api.GET('/projects', { params: { query: { per_page: 100, cursor } } }))).catch(() => undefined),
    [],
  );
  const environments = useAsync(
    () =>
      filters.project
        ? unwrap(api.GET('/projects/{projectKey}/environments', { params: { path: { projectKey: filters.project } } })).catch(
            () => undefined,
          )
        : Promise.resolve(undefined),
    [filters.project],
  );
  const flags = useAsync(
    () =>
      filters.project
        ? unwrap(
            api.GET('/projects/{projectKey}/flags', { params: { path: { projectKey: filters.project }, query: { per_page: 100 } } }),
          ).catch(() => undefined)
        : Promise.resolve(undefined),
    [filters.project],
  );
  const segments = useAsync(
    () =>
      filters.project
        ? unwrap(
            api.GET('/projects/{projectKey}/segments', { params: { path: { projectKey: filters.project }, query: { per_page: 100 } } }),
          ).catch(() => undefined)
        : Promise.resolve(undefined),
    [filters.project],
  );
  const any: [string, string] = ['', 'any'];
  // A value typed in the address or kept from another project stays choosable, by its ulid.
  const keep = (options: Array<[string, string]>, value: string): Array<[string, string]> =>
    value && !options.some(([v]) => v === value) ? [...options, [value, value]] : options;
  const subjects: Array<[string, string]> = [
    ...(flags.data?.data.map((f): [string, string] => [f.ulid, `flag ${f.key}`]) ?? []),
    ...(segments.data?.data.map((g): [string, string] => [g.ulid, `segment ${g.key}`]) ?? []),
    ...(environments.data?.data.map((e): [string, string] => [e.ulid, `environment ${e.key}`]) ?? []),
  ];
  const actors: Array<[string, string]> = [
    ...(accounts.data?.data.map((a): [string, string] => [a.ulid, a.email]) ?? []),
    ...(tokens.data?.data.map((t): [string, string] => [t.ulid, `token ${t.name}`]) ?? []),
  ];
  const tokenChoices = tokens.data?.data.map((t): [string, string] => [t.ulid, t.name]) ?? [];
  const text = (label: string, name: keyof AuditFilterValues, extra: Record<string, unknown> = {}) => (
    <Field label={label} name={name} value={filters[name]} onChange={(e) => onChange(name, e.target.value)} {...extra} />
  );
  return (
    <div className="filters inline" role="search" aria-label="Audit filters">
      {log === 'management' ? (
        <Choice
          label="Show"
          name="kind"
          value={filters.kind}
          options={[
            ['changes', 'changes'],
            ['reads', 'reads'],
            ['', 'changes and reads'],
          ]}
          onChange={(v) => onChange('kind', v)}
        />
      ) : null}
      {text('Action', 'action', { placeholder: 'target.published' })}
      <Choice
        label="Project"
        name="project"
        value={filters.project}
        options={[any, ...(projects.data?.data.map((p): [string, string] => [p.key, p.key]) ?? [])]}
        onChange={(v) => (onChange('environment_ulid', ''), onChange('project', v))}
      />
      {log === 'management' ? (
        <Choice
          label="Environment"
          name="environment_ulid"
          value={filters.environment_ulid}
          options={[any, ...(environments.data?.data.map((e): [string, string] => [e.ulid, e.key]) ?? [])]}
          onChange={(v) => onChange('environment_ulid', v)}
        />
      ) : null}
      <Choice
        label="Result"
        name="result"
        value={filters.result}
        options={[any, ...results.map((r): [string, string] => [r, r])]}
        onChange={(v) => onChange('result', v)}
      />
      <Choice
        label="Subject type"
        name="subject_type"
        value={filters.subject_type}
        options={[any, ...subjectTypes.map((t): [string, string] => [t, t])]}
        onChange={(v) => onChange('subject_type', v)}
      />
      <Choice
        label="Subject"
        name="subject_ulid"
        value={filters.subject_ulid}
        options={[any, ...keep(subjects, filters.subject_ulid)]}
        onChange={(v) => onChange('subject_ulid', v)}
        hint={filters.project ? undefined : 'Choose a project to pick its flags, segments and environments'}
      />
      {log === 'management' ? (
        <Choice
          label="Actor"
          name="actor_ulid"
          value={filters.actor_ulid}
          options={[any, ...keep(actors, filters.actor_ulid)]}
          onChange={(v) => onChange('actor_ulid', v)}
        />
      ) : (
        text('Environment key ulid', 'actor_ulid')
      )}
      <Choice
        label="Management token"
        name="management_token_ulid"
        value={filters.management_token_ulid}
        options={[any, ...keep(tokenChoices, filters.management_token_ulid)]}
        onChange={(v) => onChange('management_token_ulid', v)}
        hint={log === 'public' ? 'public API requests carry no management token' : undefined}
      />
      {text('From', 'from', { type: 'datetime-local' })}
      {text('To', 'to', { type: 'datetime-local' })}
      <Choice
        label="Order"
        name="sort"
        value={filters.sort}
        options={[
          ['created_at_desc', 'newest first'],
          ['created_at_asc', 'oldest first'],
        ]}
        onChange={(v) => onChange('sort', v)}
      />
      <Choice
        label="Per page"
        name="per_page"
        value={filters.per_page}
        options={['10', '25', '50', '100'].map((n): [string, string] => [n, n])}
        onChange={(v) => onChange('per_page', v)}
      />
    </div>
  );
}
