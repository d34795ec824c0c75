import { ApiError } from '../api/client';

/** What went wrong, as the API said it: code and message. Field messages are shown by their fields. */
export function ErrorMessage({ problem }: { problem: ApiError | undefined }) {
  if (!problem) return null;
  return (
    <div role="alert" className="error">
      {problem.code ? <code>{problem.code}</code> : null} {problem.message}
    </div>
  );
}

export function problemFrom(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return new ApiError(0, undefined, error instanceof Error ? error.message : String(error));
}
