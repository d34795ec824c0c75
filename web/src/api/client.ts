import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from '../../../generated/management';

export type Schemas = components['schemas'];

/** The session's CSRF token: in memory only, never in localStorage. */
let csrfToken: string | undefined;
export function setCsrfToken(token: string | undefined): void {
  csrfToken = token;
}

const csrf: Middleware = {
  onRequest({ request }) {
    if (request.method !== 'GET' && csrfToken) request.headers.set('X-CSRF-Token', csrfToken);
    return request;
  },
};

/** The management API, typed from the published document; the session cookie authenticates it. */
export const api = createClient<paths>({ baseUrl: '/management/v1', credentials: 'same-origin' });
api.use(csrf);

/** An API error as the console shows it: its code, its message, and field messages by field. */
export interface ApiProblem {
  status: number;
  code?: string;
  message: string;
  fields: Record<string, string[]>;
}

export function problemOf(status: number, body: unknown): ApiProblem {
  const error = (typeof body === 'object' && body !== null ? body : {}) as { message?: string; code?: string; errors?: Record<string, string[]> };
  return { status, code: error.code, message: error.message ?? `The request failed (HTTP ${status}).`, fields: error.errors ?? {} };
}

export class ApiError extends Error {
  constructor(readonly problem: ApiProblem) {
    super(problem.message);
  }
}

/** The `data` of a success envelope, or an ApiError carrying the API's problem. */
export async function unwrap<T>(request: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let result: { data?: T; error?: unknown; response: Response };
  try {
    result = await request;
  } catch {
    throw new ApiError({ status: 0, message: 'Vexil cannot be reached.', fields: {} });
  }
  if (!result.response.ok || result.error !== undefined) throw new ApiError(problemOf(result.response.status, result.error));
  return result.data as T;
}
