import { useEffect, useRef, useState } from 'react';
import { copyToClipboard } from './clipboard';

/**
 * Copies a secret and says whether it did; where the browser lets nothing copy, it shows the
 * text selected in a field so the person copies it with the keyboard.
 */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [outcome, setOutcome] = useState<'copied' | 'select'>();
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => setOutcome(undefined), [text]);
  useEffect(() => {
    if (outcome === 'select') field.current?.select();
  }, [outcome]);
  return (
    <span className="copy">
      <button type="button" onClick={() => void copyToClipboard(text).then((copied) => setOutcome(copied ? 'copied' : 'select'))}>
        {label}
      </button>{' '}
      {outcome === 'select' ? (
        <input
          ref={field}
          readOnly
          value={text}
          aria-label="Text to copy"
          size={Math.min(text.length, 60)}
          onFocus={(e) => e.target.select()}
        />
      ) : null}{' '}
      <span role="status">
        {outcome === 'copied'
          ? 'Copied to the clipboard.'
          : outcome === 'select'
            ? 'Select and copy: the text is selected, press Ctrl+C (⌘C on a Mac).'
            : ''}
      </span>
    </span>
  );
}
