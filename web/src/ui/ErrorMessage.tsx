import { useContext, useLayoutEffect, useRef, useState } from 'react';
import { ApiError } from '../api/client';
import { RateLimitShownAbove } from './rate-limit-notice';

/** The part of a 422's message that repeats its first field's message ("... (and 2 more errors)"). */
const firstFieldMessage = (problem: ApiError) => problem.message.replace(/ \(and \d+ more errors?\)$/, '');

/**
 * What went wrong, once and in words: the API's message, or, when the fields it concerns already
 * show their messages beside them, a pointer to those. The code and HTTP status are in a detail
 * (for a report or a search), not in the sentence.
 */
export function ErrorMessage({ problem }: { problem: ApiError | undefined }) {
  const box = useRef<HTMLDivElement>(null);
  const [shownBeside, setShownBeside] = useState(false);
  const rateLimitShownAbove = useContext(RateLimitShownAbove);
  useLayoutEffect(() => {
    if (!problem || Object.keys(problem.fields).length === 0 || !box.current) return setShownBeside(false);
    const around = box.current.closest('form, dialog, section, li, main') ?? document.body;
    const beside = [...around.querySelectorAll('.field-error')].map((e) => e.textContent ?? '');
    const first = firstFieldMessage(problem);
    setShownBeside(beside.some((text) => text.includes(first)));
  }, [problem]);
  if (!problem || (problem.status === 429 && rateLimitShownAbove)) return null;
  const fieldCount = Object.keys(problem.fields).length;
  const words = shownBeside
    ? `Nothing was saved: ${fieldCount === 1 ? 'one field needs a change (see the message beside it)' : `${fieldCount} fields need a change (see the messages beside them)`}.`
    : problem.message;
  return (
    <div role="alert" className="error" ref={box}>
      <span className="error-words">{words}</span>
      {problem.code || problem.status ? (
        <details className="error-detail">
          <summary>Details</summary>
          {problem.code ? <code>{problem.code}</code> : null}
          {problem.status ? <span> HTTP {problem.status}</span> : null}
          {shownBeside ? <span> {problem.message}</span> : null}
        </details>
      ) : null}
    </div>
  );
}

export function problemFrom(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return new ApiError(0, undefined, error instanceof Error ? error.message : String(error));
}
