import { ApiError, type ApiProblem } from '../api/client';

/** What went wrong, as the API said it: code and message. Field messages are shown by their fields. */
export function ErrorMessage({ problem }: { problem: ApiProblem | undefined }) {
  if (!problem) return null;
  return (
    <div role="alert" className="error">
      {problem.code ? <code>{problem.code}</code> : null} {problem.message}
    </div>
  );
}

export function problemFrom(error: unknown): ApiProblem {
  if (error instanceof ApiError) return error.problem;
  return { status: 0, message: error instanceof Error ? error.message : String(error), fields: {} };
}
