import { useId } from 'react';
import { fieldMessages, type ApiProblem } from '../api/client';
import { FieldMessages } from './Field';

const hex = /^#[0-9a-fA-F]{6}$/;

/**
 * A colour as a colour picker and as hex text side by side: the picker for choosing, the text for
 * pasting a brand colour. The text may be mid-edit (not yet a colour); the picker keeps the last
 * valid one. The API's message for `name` is shown beneath.
 */
export function ColourField({
  label,
  name,
  value,
  onChange,
  problem,
}: {
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  problem?: ApiProblem;
}) {
  const id = useId();
  const messages = fieldMessages(problem, name);
  return (
    <div className="field colour">
      <span id={`${id}-label`}>{label}</span>
      <span className="colour-inputs">
        <input
          type="color"
          aria-labelledby={`${id}-label`}
          aria-describedby={`${id}-hint`}
          value={hex.test(value) ? value.toLowerCase() : '#808080'}
          onChange={(e) => onChange(e.target.value)}
        />
        <input
          id={`${id}-text`}
          name={name}
          aria-label={`${label} (hex)`}
          aria-invalid={messages.length > 0 || !hex.test(value)}
          aria-describedby={messages.length > 0 ? `${id}-error` : `${id}-hint`}
          size={8}
          maxLength={7}
          spellCheck={false}
          value={value}
          onChange={(e) => onChange(e.target.value.trim())}
        />
      </span>
      <small id={`${id}-hint`}>#rrggbb</small>
      <FieldMessages id={`${id}-error`} messages={messages} />
    </div>
  );
}
