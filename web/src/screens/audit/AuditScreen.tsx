import { useState } from 'react';
import { api, unwrap, type Schemas } from '../../api/client';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Field } from '../../ui/Field';
import { useAsync } from '../../ui/useAsync';

function who(entry: Schemas['AuditEntry']): string {
  if (!entry.actor) return 'unauthenticated';
  return entry.actor.email ?? entry.actor.name ?? entry.actor.type;
}

/** The management audit log: newest first, filtered by action and project, paged by cursor. */
export function AuditScreen() {
  const [action, setAction] = useState('');
  const [project, setProject] = useState('');
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  const entries = useAsync(
    () =>
      unwrap(
        api.GET('/audit-logs', {
          params: { query: { per_page: 50, cursor, action: (action || undefined) as Schemas['AuditAction'] | undefined, project: project || undefined } },
        }),
      ),
    [action, project, cursor],
  );
  return (
    <section>
      <h1>Audit log</h1>
      <div className="filters" role="search">
        <Field label="Action" name="action" placeholder="target.published" value={action} onChange={(e) => (setCursors([]), setAction(e.target.value))} />
        <Field label="Project key" name="project" value={project} onChange={(e) => (setCursors([]), setProject(e.target.value))} />
      </div>
      <ErrorMessage problem={entries.problem} />
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
          {entries.data?.data.map((entry) => (
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
          ))}
        </tbody>
      </table>
      <nav aria-label="Pages" className="pager">
        <button type="button" disabled={cursors.length === 0} onClick={() => setCursors((c) => c.slice(0, -1))}>
          Newer
        </button>
        <button type="button" disabled={!entries.data?.meta.next_cursor} onClick={() => setCursors((c) => [...c, entries.data?.meta.next_cursor as string])}>
          Older
        </button>
      </nav>
    </section>
  );
}
