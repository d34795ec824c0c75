import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import { fieldMessages, type ApiError } from '../api/client';

/** What every labelled control takes: its label, the API field it edits, the request's problem. */
interface Labelled {
  label: ReactNode;
  /** The API field (a dotted path for nested fields, e.g. `criteria.0.values`). */
  name: string;
  problem?: ApiError | undefined;
  hint?: ReactNode;
}

/** Ids and messages of one control: its field messages and hint are its description. */
function useControl(name: string, problem: ApiError | undefined, hint: ReactNode) {
  const id = useId();
  const messages = fieldMessages(problem, name);
  const describedBy = [hint ? `${id}-hint` : '', messages.length > 0 ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  const extras = (
    <>
      {hint ? (
        <small id={`${id}-hint`} className="hint">
          {hint}
        </small>
      ) : null}
      <FieldMessages id={`${id}-error`} messages={messages} />
    </>
  );
  return { id, invalid: messages.length > 0, describedBy, extras };
}

/** A labelled input with the API's field-keyed messages beside it. */
export function Field({ label, name, problem, hint, ...input }: InputHTMLAttributes<HTMLInputElement> & Labelled) {
  const control = useControl(name, problem, hint);
  return (
    <div className="field">
      <label htmlFor={control.id}>{label}</label>
      <input id={control.id} name={name} aria-invalid={control.invalid} aria-describedby={control.describedBy} {...input} />
      {control.extras}
    </div>
  );
}

/** A labelled text area (text longer than a line, shown whole) with the API's field-keyed messages beside it. */
export function TextAreaField({ label, name, problem, hint, ...area }: TextareaHTMLAttributes<HTMLTextAreaElement> & Labelled) {
  const control = useControl(name, problem, hint);
  return (
    <div className="field">
      <label htmlFor={control.id}>{label}</label>
      <textarea id={control.id} name={name} aria-invalid={control.invalid} aria-describedby={control.describedBy} {...area} />
      {control.extras}
    </div>
  );
}

/** A labelled select with the API's field-keyed messages beside it. */
export function SelectField({ label, name, problem, hint, children, ...select }: SelectHTMLAttributes<HTMLSelectElement> & Labelled) {
  const control = useControl(name, problem, hint);
  return (
    <div className="field">
      <label htmlFor={control.id}>{label}</label>
      <select id={control.id} name={name} aria-invalid={control.invalid} aria-describedby={control.describedBy} {...select}>
        {children}
      </select>
      {control.extras}
    </div>
  );
}

/** A checkbox with its label after it, and the API's messages for its field. */
export function CheckboxField({ label, name, problem, hint, ...input }: Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & Labelled) {
  const control = useControl(name, problem, hint);
  return (
    <div className="field checkbox">
      <label htmlFor={control.id}>
        <input
          id={control.id}
          type="checkbox"
          name={name}
          aria-invalid={control.invalid}
          aria-describedby={control.describedBy}
          {...input}
        />{' '}
        {label}
      </label>
      {control.extras}
    </div>
  );
}

/** The API's messages for one field, if it has any; `id` is for the control's aria-describedby. */
export function FieldMessages({ messages, id }: { messages: string[]; id?: string }) {
  if (messages.length === 0) return null;
  return (
    <span id={id} className="field-error">
      {messages.join(' ')}
    </span>
  );
}

/** Messages keyed exactly by a group's path (`criteria.0`, `criteria`), shown at the group. */
export function GroupMessages({ problem, name }: { problem: ApiError | undefined; name: string }) {
  return <FieldMessages messages={problem?.fields[name] ?? []} />;
}
