import { useId } from 'react';
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
}: {
  label: string;
  name: keyof AuditFilterValues;
  value: string;
  options: Array<[string, string]>;
  onChange: (value: string) => void;
}) {
  return (
    <SelectField label={label} name={name} value={value} onChange={(e) => onChange(e.target.value)}>
      {options.map(([v, text]) => (
        <option key={v} value={v}>
          {text}
        </option>
      ))}
    </SelectField>
  );
}

/** The filters of the audit logs, with the accounts and tokens offered by name where ulids are asked. */
export function AuditFilters({
  log,
  filters,
  onChange,
}: {
  log: Log;
  filters: AuditFilterValues;
  onChange: (name: keyof AuditFilterValues, value: string) => void;
}) {
  const id = useId();
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
  const any: [string, string] = ['', 'any'];
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
      {text('Subject ulid', 'subject_ulid', {
        list: `${id}-flags`,
        hint: filters.project ? 'a flag of the project is offered by key' : undefined,
      })}
      {text(log === 'management' ? 'Actor ulid (account or token)' : 'Actor ulid (environment key)', 'actor_ulid', {
        list: log === 'management' ? `${id}-actors` : undefined,
      })}
      {text('Management token ulid', 'management_token_ulid', {
        list: `${id}-tokens`,
        hint: log === 'public' ? 'public API requests carry no management token' : undefined,
      })}
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
      <datalist id={`${id}-actors`}>
        {accounts.data?.data.map((a) => (
          <option key={a.ulid} value={a.ulid}>
            {a.email}
          </option>
        ))}
        {tokens.data?.data.map((t) => (
          <option key={t.ulid} value={t.ulid}>
            token {t.name}
          </option>
        ))}
      </datalist>
      <datalist id={`${id}-flags`}>
        {flags.data?.data.map((f) => (
          <option key={f.ulid} value={f.ulid}>
            flag {f.key}
          </option>
        ))}
      </datalist>
      <datalist id={`${id}-tokens`}>
        {tokens.data?.data.map((t) => (
          <option key={t.ulid} value={t.ulid}>
            {t.name}
          </option>
        ))}
      </datalist>
    </div>
  );
}
