import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
import type { ApiProblem } from '../api/client';

/** A labelled input with the API's field-keyed messages beside it. */
export function Field({
  label,
  name,
  problem,
  hint,
  ...input
}: InputHTMLAttributes<HTMLInputElement> & { label: string; name: string; problem?: ApiProblem; hint?: ReactNode }) {
  const id = useId();
  const messages = problem?.fields[name] ?? [];
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} name={name} aria-invalid={messages.length > 0} aria-describedby={messages.length > 0 ? `${id}-error` : undefined} {...input} />
      {hint ? <small>{hint}</small> : null}
      {messages.length > 0 ? (
        <span id={`${id}-error`} className="field-error">
          {messages.join(' ')}
        </span>
      ) : null}
    </div>
  );
}
