import { useState, type ReactNode } from 'react';
import { api, unwrap, type Schemas } from '../../api/client';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { useAsync } from '../../ui/useAsync';
import { When } from '../../ui/When';
import '../../ui/admin.css';
import { AuditChanges } from './AuditChanges';
import { groupByRequest, type RequestGroup } from './audit-groups';
import { actorText, auditSentence } from './audit-sentence';
import { PublishDiff } from './PublishDiff';
import { AuditFilters, auditQuery, initialFilters, publicAuditQuery, type AuditFilterValues, type Log } from './AuditFilters';

/** One entry of either log: the log's own rendering of who and what, between the cells they share. */
function EntryRow({ entry, who, what }: { entry: Schemas['AuditEntry'] | Schemas['PublicAuditEntry']; who: ReactNode; what: ReactNode }) {
  return (
    <tr>
      <td>
        <When iso={entry.created_at} />
      </td>
      <td>{who}</td>
      <td>{what}</td>
      <td>
        {entry.result} {entry.status_code ?? ''}
      </td>
    </tr>
  );
}

/** What one entry of a request changed: its change record, and for a publish what went live. */
function EntryChanges({ entry, project }: { entry: Schemas['AuditEntry']; project: string }) {
  const label = entry.subject_label ?? entry.subject_ulid ?? entry.action;
  return (
    <>
      {entry.changes ? <AuditChanges changes={entry.changes} label={label} /> : null}
      {entry.action === 'target.published' ? <PublishDiff entry={entry} project={project} /> : null}
    </>
  );
}

/** The machine's side of an entry: its action, subject, ulids. */
function EntryFacts({ entry, children }: { entry: Schemas['AuditEntry']; children?: ReactNode }) {
  return (
    <li>
      <code>{entry.action}</code> {entry.subject_type ? <small>{entry.subject_type}</small> : null} {entry.subject_label ?? ''}{' '}
      {entry.subject_ulid ? <code className="ulid">{entry.subject_ulid}</code> : null} <code className="ulid">{entry.ulid}</code>
      {children}
    </li>
  );
}

/** One request: a sentence of what a person did, its changes, and the path, entries and ulids under Details. */
function RequestRow({ group, project }: { group: RequestGroup; project: string }) {
  const { lead, others } = group;
  const entries = [lead, ...others];
  const who = (
    <>
      {actorText(lead)}
      {lead.token && lead.actor?.type !== 'management_token' ? <div className="comment">via {lead.token.name}</div> : null}
      {lead.actor?.type === 'management_token' ? <div className="comment">management token</div> : null}
    </>
  );
  const what = (
    <>
      <p className="audit-sentence">{auditSentence(lead, entries)}</p>
      <EntryChanges entry={lead} project={project} />
      <details className="audit-details">
        <summary>Details{others.length > 0 ? ` (${entries.length} entries)` : ''}</summary>
        {lead.http_method ? (
          <p>
            <code className="request-line">
              {lead.http_method} {lead.http_path}
            </code>
          </p>
        ) : null}
        <ul>
          {entries.map((entry) => (
            <EntryFacts key={entry.ulid} entry={entry}>
              {entry === lead ? null : <EntryChanges entry={entry} project={project} />}
            </EntryFacts>
          ))}
        </ul>
        {lead.request ? (
          <p className="hint">
            Request <code className="ulid">{lead.request.ulid}</code>
          </p>
        ) : null}
      </details>
    </>
  );
  return <EntryRow entry={lead} who={who} what={what} />;
}

function PublicRow({ entry }: { entry: Schemas['PublicAuditEntry'] }) {
  const who = (
    <>
      {entry.actor_type === 'sdk_key' ? `key ${entry.actor_ulid ?? ''}` : 'anonymous'}{' '}
      {entry.environment ? `(${entry.environment.key})` : ''}
    </>
  );
  const what = (
    <>
      <code>{entry.action}</code> {entry.subject_type ? <small>{entry.subject_type} </small> : null}
      {entry.subject_label ?? entry.subject_ulid ?? ''}
    </>
  );
  return <EntryRow entry={entry} who={who} what={what} />;
}

/** The audit logs, management and public traffic, with every filter the API has and cursor paging. */
export function AuditScreen() {
  const [log, setLog] = useState<Log>('management');
  const [filters, setFilters] = useState<AuditFilterValues>(initialFilters);
  // The cursors of the pages after the first, in the order they were reached: Previous pops one.
  const [cursors, setCursors] = useState<string[]>([]);
  const query = log === 'management' ? auditQuery(filters, cursors.at(-1)) : publicAuditQuery(filters, cursors.at(-1));
  const key = JSON.stringify([log, query]);
  const page = useAsync(async (): Promise<{
    management?: Schemas['AuditEntryListResponse'];
    traffic?: Schemas['PublicAuditEntryListResponse'];
    meta: Schemas['AuditListMeta'];
  }> => {
    if (log === 'management') {
      const management = await unwrap(api.GET('/audit-logs', { params: { query: auditQuery(filters, cursors.at(-1)) } }));
      return { management, meta: management.meta };
    }
    const traffic = await unwrap(api.GET('/api-public-audit-logs', { params: { query } }));
    return { traffic, meta: traffic.meta };
  }, [key]);
  const set = (name: keyof AuditFilterValues, value: string) => {
    setCursors([]);
    setFilters((f) => ({ ...f, [name]: value }));
  };
  const next = page.data?.meta.next_cursor;
  const entries = page.data?.management?.data ?? page.data?.traffic?.data;
  return (
    <section>
      <h1>Audit log</h1>
      <fieldset>
        <legend>Log</legend>
        <label>
          <input type="radio" name="log" checked={log === 'management'} onChange={() => (setCursors([]), setLog('management'))} />{' '}
          Management requests
        </label>{' '}
        <label>
          <input type="radio" name="log" checked={log === 'public'} onChange={() => (setCursors([]), setLog('public'))} /> Public API
          traffic
        </label>
      </fieldset>
      <AuditFilters log={log} filters={filters} onChange={set} />
      <ErrorMessage problem={page.problem} />
      <table
        className="audit-table"
        aria-label={log === 'management' ? 'Management audit entries' : 'Public API audit entries'}
        aria-busy={page.loading}
      >
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">What</th>
            <th scope="col">Result</th>
          </tr>
        </thead>
        <tbody>
          {groupByRequest(page.data?.management?.data ?? []).map((group) => (
            <RequestRow key={group.key} group={group} project={filters.project} />
          ))}
          {page.data?.traffic?.data.map((entry) => (
            <PublicRow key={entry.ulid} entry={entry} />
          ))}
        </tbody>
      </table>
      {entries && entries.length === 0 ? <p className="empty">No entries match these filters.</p> : null}
      <nav aria-label="Pages" className="pager">
        {/* Not disabled while a page loads (a disabled button loses the keyboard focus): a click then waits. */}
        <button type="button" disabled={cursors.length === 0} onClick={() => !page.loading && setCursors((c) => c.slice(0, -1))}>
          Previous page
        </button>
        <span aria-live="polite">Page {cursors.length + 1}</span>
        <button type="button" disabled={!next} onClick={() => !page.loading && next && setCursors((c) => [...c, next])}>
          Next page
        </button>{' '}
        <button type="button" onClick={page.reload}>
          Refresh
        </button>
      </nav>
    </section>
  );
}
