import { useId } from 'react';

/** A field where the person types a key to confirm something that cannot be undone or needs care. */
export function TypedConfirmation({ expected, value, onChange, what }: { expected: string; value: string; onChange: (value: string) => void; what: string }) {
  const id = useId();
  return (
    <div className="field confirm">
      <label htmlFor={id}>
        Type <strong>{expected}</strong> to {what}
      </label>
      <input id={id} name="confirmation" autoComplete="off" value={value} onChange={(e) => onChange(e.target.value)} />
    </div>
  );
}
