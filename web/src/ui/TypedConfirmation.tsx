import { useId, useState, type ReactNode } from 'react';
import { fieldMessages } from '../api/client';
import { ErrorMessage } from './ErrorMessage';
import { FieldMessages } from './Field';
import { useAction } from './useAsync';

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
      <input
        id={id}
        name="confirmation"
        autoComplete="off"
        autoFocus={autoFocus}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={messages.length > 0}
        aria-describedby={messages.length > 0 ? `${id}-error` : undefined}
      />
      <FieldMessages id={`${id}-error`} messages={messages} />
    </div>
  );
}

/**
 * A deletion that cannot be undone: the danger button (`children` is its label) runs `remove` with
 * what the person typed, once it is `expected` (an API that asks for typed confirmation gets the
 * person's typing); what the API refuses is shown beneath, its word on `confirmation` by the field.
 */
export function DeleteAfterTyping({
  expected,
  what,
  remove,
  children,
}: {
  expected: string;
  what: string;
  remove: (typed: string) => Promise<unknown>;
  children: ReactNode;
}) {
  const [typed, setTyped] = useState('');
  const action = useAction();
  return (
    <>
      <TypedConfirmation
        expected={expected}
        value={typed}
        onChange={setTyped}
        what={what}
        messages={fieldMessages(action.problem, 'confirmation')}
      />
      <button
        type="button"
        className="danger"
        disabled={typed !== expected || action.busy}
        onClick={() => void action.run(() => remove(typed))}
      >
        {children}
      </button>
      <ErrorMessage problem={action.problem} />
    </>
  );
}
