import type { Schemas } from '../../api/client';

type Changes = NonNullable<Schemas['AuditEntry']['changes']>;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function shown(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value, null, 2);
}

/** Field by field: what was there before and after; unchanged fields are left out of updates. */
export function diffRows(before: unknown, after: unknown): Array<{ field: string; before: string; after: string }> {
  if (!isRecord(before) && !isRecord(after))
    return before === undefined && after === undefined ? [] : [{ field: 'value', before: shown(before), after: shown(after) }];
  const b = isRecord(before) ? before : {};
  const a = isRecord(after) ? after : {};
  const fields = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  return fields
    .filter((field) => JSON.stringify(b[field]) !== JSON.stringify(a[field]))
    .map((field) => ({ field, before: shown(b[field]), after: shown(a[field]) }));
}

/** An entry's change record: the publish comment, then each changed field before and after. */
export function AuditChanges({ changes, label }: { changes: Changes; label: string }) {
  const rows = diffRows(changes.before, changes.after);
  const kind = changes.before === undefined ? 'Created' : changes.after === undefined ? 'Deleted' : 'Changed';
  return (
    <>
      {changes.comment ? <div className="comment">Comment: “{changes.comment}”</div> : null}
      {rows.length > 0 ? (
        <details>
          <summary>
            {kind === 'Changed'
              ? `Changed: ${rows.map((r) => r.field).join(', ')}`
              : `${kind}: the ${label} as it was then (${rows.length} fields)`}
          </summary>
          <dl className="diff" aria-label={`Changes of ${label}`}>
            {rows.map((row) => (
              <div key={row.field}>
                <dt>{row.field}</dt>
                <dd>
                  {row.before !== '' ? (
                    <del className="before">
                      <span className="visually-hidden">before: </span>
                      {row.before}
                    </del>
                  ) : null}
                  {row.before !== '' && row.after !== '' ? ' → ' : null}
                  {row.after !== '' ? (
                    <ins className="after">
                      <span className="visually-hidden">after: </span>
                      {row.after}
                    </ins>
                  ) : null}
                </dd>
              </div>
            ))}
          </dl>
        </details>
      ) : null}
    </>
  );
}
