import { useState, type FormEvent } from 'react';
import { api, unwrap, type Schemas } from '../../api/client';
import { criterionText } from '../../ui/criteria';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Field } from '../../ui/Field';
import { DeleteAfterTyping } from '../../ui/TypedConfirmation';
import { Pager, useCursorPages } from '../../ui/Pager';
import { useAction, useAsync } from '../../ui/useAsync';
import '../../ui/admin.css';
import { blankSegment, SegmentFields, segmentBody, segmentDraft } from './SegmentFields';

function SegmentEditor({ project, segment, onChange }: { project: string; segment: Schemas['Segment']; onChange: () => void }) {
  const [draft, setDraft] = useState(() => segmentDraft(segment));
  const save = useAction();
  const path = { projectKey: project, segmentKey: segment.key };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save.run(async () => {
      await unwrap(api.PUT('/projects/{projectKey}/segments/{segmentKey}', { params: { path }, body: segmentBody(draft) }));
      onChange();
    });
  };
  return (
    <form onSubmit={submit} aria-label={`Edit segment ${segment.key}`}>
      <SegmentFields draft={draft} onChange={setDraft} problem={save.problem} />
      <button type="submit" disabled={save.busy}>
        Save {segment.key}
      </button>
      <ErrorMessage problem={save.problem} />
    </form>
  );
}

/** Deleting a segment after typing its key; the API refuses while a rule still refers to it. */
function DeleteSegment({ project, segment, onDeleted }: { project: string; segment: Schemas['Segment']; onDeleted: () => void }) {
  return (
    <div>
      <DeleteAfterTyping
        expected={segment.key}
        what={`delete the segment ${segment.key}`}
        remove={async () => {
          await unwrap(
            api.DELETE('/projects/{projectKey}/segments/{segmentKey}', {
              params: { path: { projectKey: project, segmentKey: segment.key } },
            }),
          );
          onDeleted();
        }}
      >
        Delete segment {segment.key}
      </DeleteAfterTyping>
    </div>
  );
}

/** A segment as it reads, with its editor one click away. */
function SegmentCard({ project, segment, onChange }: { project: string; segment: Schemas['Segment']; onChange: () => void }) {
  return (
    <article className="environment" aria-labelledby={`seg-${segment.ulid}`}>
      <h2 id={`seg-${segment.ulid}`}>
        {segment.name} <code>{segment.key}</code>
      </h2>
      {segment.description ? <p>{segment.description}</p> : null}
      <dl className="facts">
        <dt>Always members</dt>
        <dd>{segment.included.length > 0 ? segment.included.join(', ') : 'none'}</dd>
        <dt>Never members</dt>
        <dd>{segment.excluded.length > 0 ? segment.excluded.join(', ') : 'none'}</dd>
        <dt>Rules</dt>
        <dd>
          {segment.rules.length === 0 ? (
            'none'
          ) : (
            <ol aria-label={`Rules of ${segment.key}`}>
              {segment.rules.map((rule, i) => (
                <li key={i}>{rule.criteria.map(criterionText).join(' and ')}</li>
              ))}
            </ol>
          )}
        </dd>
      </dl>
      <details className="manage">
        <summary>Edit {segment.key}</summary>
        <SegmentEditor project={project} segment={segment} onChange={onChange} />
      </details>
      <details className="manage">
        <summary>Delete {segment.key}</summary>
        <DeleteSegment project={project} segment={segment} onDeleted={onChange} />
      </details>
    </article>
  );
}

/** A project's segments: who is in them by identifier, and their rules. */
export function SegmentsScreen({ project }: { project: string }) {
  const pages = useCursorPages();
  const segments = useAsync(
    () =>
      unwrap(
        api.GET('/projects/{projectKey}/segments', {
          params: { path: { projectKey: project }, query: { per_page: 25, cursor: pages.cursor } },
        }),
      ),
    [project, pages.cursor],
  );
  const [key, setKey] = useState('');
  const [draft, setDraft] = useState(blankSegment);
  const create = useAction();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void create.run(async () => {
      await unwrap(
        api.POST('/projects/{projectKey}/segments', { params: { path: { projectKey: project } }, body: { key, ...segmentBody(draft) } }),
      );
      setKey('');
      setDraft(blankSegment());
      segments.reload();
    });
  };
  return (
    <section>
      <h1>Segments of {project}</h1>
      <ErrorMessage problem={segments.problem} />
      {segments.data?.data.map((segment) => (
        <SegmentCard key={segment.ulid} project={project} segment={segment} onChange={segments.reload} />
      ))}
      {segments.data?.data.length === 0 ? (
        <p className="empty">{pages.number === 1 ? 'No segments yet.' : 'No segments on this page.'}</p>
      ) : null}
      <Pager pages={pages} nextCursor={segments.data?.meta.next_cursor} loading={segments.loading} label="Pages of segments" />
      <form onSubmit={submit} aria-label="New segment">
        <h2>New segment</h2>
        <SegmentFields
          draft={draft}
          onChange={setDraft}
          problem={create.problem}
          leading={<Field label="Key" name="key" required value={key} onChange={(e) => setKey(e.target.value)} problem={create.problem} />}
        />
        <button type="submit" disabled={create.busy}>
          Create segment
        </button>
        <ErrorMessage problem={create.problem} />
      </form>
    </section>
  );
}
