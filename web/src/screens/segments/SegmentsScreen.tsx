import { useState, type FormEvent } from 'react';
import { api, unwrap, type Schemas } from '../../api/client';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Field } from '../../ui/Field';
import { commaList } from '../../ui/lists';
import { useAction, useAsync } from '../../ui/useAsync';

function SegmentEditor({ project, segment, onChange }: { project: string; segment: Schemas['Segment']; onChange: () => void }) {
  const [included, setIncluded] = useState(segment.included.join(', '));
  const [excluded, setExcluded] = useState(segment.excluded.join(', '));
  const [rules, setRules] = useState(segment.rules);
  const [attribute, setAttribute] = useState('');
  const [values, setValues] = useState('');
  const action = useAction();
  const path = { projectKey: project, segmentKey: segment.key };
  const save = (event: FormEvent) => {
    event.preventDefault();
    void action.run(async () => {
      await unwrap(
        api.PUT('/projects/{projectKey}/segments/{segmentKey}', {
          params: { path },
          body: { name: segment.name, description: segment.description, included: commaList(included), excluded: commaList(excluded), rules } as Schemas['SegmentUpdate'],
        }),
      );
      onChange();
    });
  };
  return (
    <form onSubmit={save} className="environment" aria-label={`Segment ${segment.key}`}>
      <h2>
        {segment.name} <code>{segment.key}</code>
      </h2>
      <p>Members: the identifiers always in, else not the ones never in, else contexts matching any rule.</p>
      <ol>
        {rules.map((r, i) => (
          <li key={i}>
            {r.criteria.map((c) => `${c.selector}${c.sub_selector ? ` ${c.sub_selector}` : ''} ${c.comparer} ${(c.values ?? []).join(', ')}`).join(' and ')}{' '}
            <button type="button" onClick={() => setRules(rules.filter((_, j) => j !== i))}>
              Remove rule {i + 1}
            </button>
          </li>
        ))}
      </ol>
      <div className="inline">
        <Field label="Rule: attribute" name="rule_attribute" value={attribute} onChange={(e) => setAttribute(e.target.value)} />
        <Field label="is one of (comma-separated)" name="rule_values" value={values} onChange={(e) => setValues(e.target.value)} />
        <button
          type="button"
          disabled={!attribute || commaList(values).length === 0}
          onClick={() => {
            setRules([...rules, { criteria: [{ selector: 'attribute', sub_selector: attribute, comparer: 'in', values: commaList(values) }] }]);
            setAttribute('');
            setValues('');
          }}
        >
          Add rule
        </button>
      </div>
      <Field label="Always members (identifiers, comma-separated)" name="included" value={included} onChange={(e) => setIncluded(e.target.value)} problem={action.problem} />
      <Field label="Never members (identifiers, comma-separated)" name="excluded" value={excluded} onChange={(e) => setExcluded(e.target.value)} problem={action.problem} />
      <button type="submit">Save {segment.key}</button>
      <button
        type="button"
        onClick={() => void action.run(async () => {
          await unwrap(api.DELETE('/projects/{projectKey}/segments/{segmentKey}', { params: { path } }));
          onChange();
        })}
      >
        Delete {segment.key}
      </button>
      <ErrorMessage problem={action.problem} />
    </form>
  );
}

/** A project's segments: who is in them by identifier, and their attribute rules. */
export function SegmentsScreen({ project }: { project: string }) {
  const segments = useAsync(() => unwrap(api.GET('/projects/{projectKey}/segments', { params: { path: { projectKey: project }, query: { per_page: 100 } } })), [project]);
  const [key, setKey] = useState('');
  const [name, setName] = useState('');
  const [attribute, setAttribute] = useState('');
  const [values, setValues] = useState('');
  const create = useAction();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const rules = attribute ? [{ criteria: [{ selector: 'attribute' as const, sub_selector: attribute, comparer: 'in' as const, values: commaList(values) }] }] : [];
    void create.run(async () => {
      await unwrap(api.POST('/projects/{projectKey}/segments', { params: { path: { projectKey: project } }, body: { key, name, rules } as Schemas['SegmentCreate'] }));
      setKey('');
      setName('');
      segments.reload();
    });
  };
  return (
    <section>
      <h1>Segments of {project}</h1>
      <ErrorMessage problem={segments.problem} />
      {segments.data?.data.map((segment) => (
        <SegmentEditor key={segment.ulid + segment.updated_at} project={project} segment={segment} onChange={segments.reload} />
      ))}
      <h2>New segment</h2>
      <form onSubmit={submit} className="inline">
        <Field label="Key" name="key" required value={key} onChange={(e) => setKey(e.target.value)} problem={create.problem} />
        <Field label="Name" name="name" required value={name} onChange={(e) => setName(e.target.value)} problem={create.problem} />
        <Field label="Attribute (optional rule)" name="attribute" value={attribute} onChange={(e) => setAttribute(e.target.value)} problem={create.problem} />
        <Field label="is one of (comma-separated)" name="values" value={values} onChange={(e) => setValues(e.target.value)} problem={create.problem} />
        <button type="submit" disabled={create.busy}>
          Create segment
        </button>
      </form>
      <ErrorMessage problem={create.problem} />
    </section>
  );
}
