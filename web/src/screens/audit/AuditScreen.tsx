import { useState } from 'react';
import { api, unwrap, type Schemas } from '../../api/client';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Field } from '../../ui/Field';
import { useAsync } from '../../ui/useAsync';

type Log = 'management' | 'public';
const results: Schemas['AuditResult'][] = ['success', 'denied_auth', 'denied_scope', 'denied_grant', 'not_found', 'invalid', 'conflict', 'rate_limited', 'error'];
const subjectTypes: Schemas['AuditSubjectType'][] = ['project', 'environment', 'environment_key', 'flag', 'flag_value', 'target', 'target_rule', 'segment', 'management_token', 'account', 'personal_token', 'webhook'];

function who(entry: Schemas['AuditEntry']): string {
  if (!entry.actor) return 'unauthenticated';
  return entry.actor.email ?? entry.actor.name ?? entry.actor.type;
}

/** datetime-local text as the API's date-time (empty: no bound). */
const isoOrUndefined = (text: string) => (text ? new Date(text).toISOString() : undefined);

/** The audit logs, management and public traffic, with every filter the API has and cursor paging. */
export function AuditScreen() {
  const [log, setLog] = useState<Log>('management');
  const [filters, setFilters] = useState({ action: '', project: '', result: '', subject_type: '', subject_ulid: '', actor_ulid: '', from: '', to: '', sort: 'created_at_desc' });
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  const set = (name: keyof typeof filters, value: string) => {
    setCursors([]);
    setFilters((f) => ({ ...f, [name]: value }));
  };
  const query = {
    per_page: 50,
    cursor,
    sort: filters.sort as 'created_at_desc' | 'created_at_asc',
    action: (filters.action || undefined) as Schemas['AuditAction'] | undefined,
    project: filters.project || undefined,
    result: (filters.result || undefined) as Schemas['AuditResult'] | undefined,
    subject_type: (filters.subject_type || undefined) as Schemas['AuditSubjectType'] | undefined,
    subject_ulid: filters.subject_ulid || undefined,
    actor_ulid: filters.actor_ulid || undefined,
    from: isoOrUndefined(filters.from),
    to: isoOrUndefined(filters.to),
  };
  const management = useAsync(() => (log === 'management' ? unwrap(api.GET('/audit-logs', { params: { query } })) : Promise.resolve(undefined)), [log, JSON.stringify(query)]);
  const traffic = useAsync(() => (log === 'public' ? unwrap(api.GET('/api-public-audit-logs', { params: { query } })) : Promise.resolve(undefined)), [log, JSON.stringify(query)]);
  const page = log === 'management' ? management : traffic;
  const next = page.data?.meta.next_cursor;
  return (
    <section>
      <h1>Audit log</h1>
      <fieldset>
        <legend>Log</legend>
        <label>
          <input type="radio" name="log" checked={log === 'management'} onChange={() => (setCursors([]), setLog('management'))} /> Management requests
        </label>
        <label>
          <input type="radio" name="log" checked={log === 'public'} onChange={() => (setCursors([]), setLog('public'))} /> Public API traffic
        </label>
      </fieldset>
      <div className="filters inline" role="search">
        <Field label="Action" name="action" placeholder="target.published" value={filters.action} onChange={(e) => set('action', e.target.value)} />
        <Field label="Project key" name="project" value={filters.project} onChange={(e) => set('project', e.target.value)} />
        <label>
          Result{' '}
          <select value={filters.result} onChange={(e) => set('result', e.target.value)}>
            <option value="">any</option>
            {results.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        </label>
        <label>
          Subject type{' '}
          <select value={filters.subject_type} onChange={(e) => set('subject_type', e.target.value)}>
            <option value="">any</option>
            {subjectTypes.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </label>
        <Field label="Subject ulid" name="subject_ulid" value={filters.subject_ulid} onChange={(e) => set('subject_ulid', e.target.value)} />
        <Field label="Actor ulid" name="actor_ulid" value={filters.actor_ulid} onChange={(e) => set('actor_ulid', e.target.value)} />
        <Field label="From" name="from" type="datetime-local" value={filters.from} onChange={(e) => set('from', e.target.value)} />
        <Field label="To" name="to" type="datetime-local" value={filters.to} onChange={(e) => set('to', e.target.value)} />
        <label>
          Order{' '}
          <select value={filters.sort} onChange={(e) => set('sort', e.target.value)}>
            <option value="created_at_desc">newest first</option>
            <option value="created_at_asc">oldest first</option>
          </select>
        </label>
      </div>
      <ErrorMessage problem={page.problem} />
      <table>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">What</th>
            <th scope="col">Subject</th>
            <th scope="col">Result</th>
          </tr>
        </thead>
        <tbody>
          {log === 'management'
            ? management.data?.data.map((entry) => (
                <tr key={entry.ulid}>
                  <td>
                    <time dateTime={entry.created_at}>{entry.created_at.replace('T', ' ').slice(0, 19)}</time>
                  </td>
                  <td>{who(entry)}</td>
                  <td>
                    <code>{entry.action}</code>
                    {entry.changes?.comment ? <div className="comment">“{entry.changes.comment}”</div> : null}
                  </td>
                  <td>{entry.subject_label ?? entry.subject_ulid ?? ''}</td>
                  <td>
                    {entry.result} {entry.status_code ?? ''}
                  </td>
                </tr>
              ))
            : traffic.data?.data.map((entry) => (
                <tr key={entry.ulid}>
                  <td>
                    <time dateTime={entry.created_at}>{entry.created_at.replace('T', ' ').slice(0, 19)}</time>
                  </td>
                  <td>
                    {entry.actor_type} {entry.environment ? `(${entry.environment.key})` : ''}
                  </td>
                  <td>
                    <code>{entry.action}</code>
                  </td>
                  <td>{entry.subject_label ?? entry.subject_ulid ?? ''}</td>
                  <td>
                    {entry.result} {entry.status_code}
                  </td>
                </tr>
              ))}
        </tbody>
      </table>
      <nav aria-label="Pages" className="pager">
        <button type="button" disabled={cursors.length === 0} onClick={() => setCursors((c) => c.slice(0, -1))}>
          Previous page
        </button>
        <button type="button" disabled={!next} onClick={() => setCursors((c) => [...c, next as string])}>
          Next page
        </button>
      </nav>
    </section>
  );
}
