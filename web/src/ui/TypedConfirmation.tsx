import { useId } from 'react';
import { FieldMessages } from './Field';

/** A field where the person types a key to confirm something that cannot be undone or needs care. */
export function TypedConfirmation({
  expected,
  value,
  onChange,
  what,
  messages = [],
  autoFocus,
}: {
  expected: string;
  value: string;
  onChange: (value: string) => void;
  what: string;
  /** The API's messages for `confirmation`. */
  messages?: string[];
  autoFocus?: boolean;
}) {
  const id = useId();
  return (
    <div className="field confirm">
      <label htmlFor={id}>
        Type <strong>{expected}</strong> to {what}
      </label>
      <input id={id} name="confirmation" autoComplete="off" autoFocus={autoFocus} value={value} onChange={(e) => onChange(e.target.value)} aria-invalid={messages.length > 0} aria-describedby={messages.length > 0 ? `${id}-error` : undefined} />
      <FieldMessages id={`${id}-error`} messages={messages} />
    </div>
  );
}
