import type { ApiError } from '../api/client';
import { Field } from './Field';

/**
 * A required password input. `purpose` tells password managers whether to fill the saved password
 * (`current`) or offer a new one (`new`).
 */
export function PasswordField({
  label,
  name,
  purpose,
  value,
  onValue,
  problem,
}: {
  label: string;
  name: string;
  purpose: 'current' | 'new';
  value: string;
  onValue: (value: string) => void;
  problem?: ApiError | undefined;
}) {
  return (
    <Field
      label={label}
      name={name}
      type="password"
      autoComplete={`${purpose}-password`}
      required
      value={value}
      onChange={(e) => onValue(e.target.value)}
      problem={problem}
    />
  );
}
