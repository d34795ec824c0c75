import { useState, type FormEvent } from 'react';
import { api, unwrap, type Schemas } from '../../api/client';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Field } from '../../ui/Field';
import { useAction } from '../../ui/useAsync';

const valuePath = '/projects/{projectKey}/flags/{flagKey}/values/{valueUlid}' as const;

/** One value: its display, edit in place, make default, delete (the API says why a value in use cannot go). */
function ValueRow({
  project,
  flag,
  value,
  onChange,
}: {
  project: string;
  flag: string;
  value: Schemas['FlagValue'];
  onChange: () => void;
}) {
  const path = { projectKey: project, flagKey: flag, valueUlid: value.ulid };
  const [editing, setEditing] = useState(false);
  const [display, setDisplay] = useState(value.display);
  const action = useAction();
  const save = (event: FormEvent) => {
    event.preventDefault();
    void action
      .run(() => unwrap(api.PUT(valuePath, { params: { path }, body: { display } })))
      .then((done) => {
        if (!done) return;
        setEditing(false);
        onChange();
      });
  };
  const makeDefault = () =>
    void action.run(() => unwrap(api.PATCH(`${valuePath}/default`, { params: { path } }))).then((done) => done && onChange());
  const remove = () => void action.run(() => unwrap(api.DELETE(valuePath, { params: { path } }))).then((done) => done && onChange());
  return (
    <li>
      {editing ? (
        <form onSubmit={save} className="inline" aria-label={`Edit value ${value.display}`}>
          <Field
            label={`New display of ${value.display}`}
            name="display"
            required
            autoFocus
            value={display}
            onChange={(e) => setDisplay(e.target.value)}
            problem={action.problem}
          />
          <button type="submit" disabled={action.busy}>
            Save value
          </button>
          <button
            type="button"
            onClick={() => {
              setEditing(false);
              setDisplay(value.display);
              action.clear();
            }}
          >
            Cancel
          </button>
        </form>
      ) : (
        <>
          <code>{value.display}</code> {value.default ? <strong>(default)</strong> : null}{' '}
          <span className="value-actions">
            <button type="button" onClick={() => setEditing(true)} aria-label={`Edit ${value.display}`}>
              Edit
            </button>
            {value.default ? null : (
              <button type="button" onClick={makeDefault} disabled={action.busy}>
                Make {value.display} the default
              </button>
            )}
            <button type="button" onClick={remove} disabled={action.busy} aria-label={`Delete ${value.display}`}>
              Delete
            </button>
          </span>
        </>
      )}
      <ErrorMessage problem={action.problem} />
    </li>
  );
}

/** A flag's values: add, edit, set default, delete. */
export function FlagValues({
  project,
  flag,
  values,
  onChange,
}: {
  project: string;
  flag: string;
  values: Schemas['FlagValue'][];
  onChange: () => void;
}) {
  const [display, setDisplay] = useState('');
  const action = useAction();
  const add = (event: FormEvent) => {
    event.preventDefault();
    void action.run(async () => {
      await unwrap(
        api.POST('/projects/{projectKey}/flags/{flagKey}/values', {
          params: { path: { projectKey: project, flagKey: flag } },
          body: { display },
        }),
      );
      setDisplay('');
      onChange();
    });
  };
  return (
    <section aria-labelledby="values-title">
      <h2 id="values-title">Values</h2>
      <ul className="values">
        {values.map((value) => (
          <ValueRow key={`${value.ulid}:${value.updated_at}`} project={project} flag={flag} value={value} onChange={onChange} />
        ))}
      </ul>
      <form onSubmit={add} className="inline" aria-label="Add a value">
        <Field
          label="New value"
          name="display"
          required
          value={display}
          onChange={(e) => setDisplay(e.target.value)}
          problem={action.problem}
        />
        <button type="submit" disabled={action.busy}>
          Add value
        </button>
      </form>
      <ErrorMessage problem={action.problem} />
    </section>
  );
}
