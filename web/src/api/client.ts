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

/**
 * Called when the API says the session has ended (a 401 other than a wrong password): the
 * console's one place that sends the person back to sign in (App).
 */
const sessionEndedListeners = new Set<() => void>();
export function onSessionEnded(listener: () => void): () => void {
  sessionEndedListeners.add(listener);
  return () => void sessionEndedListeners.delete(listener);
}

const sessionEnd: Middleware = {
  async onResponse({ response }) {
    if (response.status !== 401) return response;
    const body: unknown = await response
      .clone()
      .json()
      .catch(() => undefined);
    // A wrong password (sign-in, changing one's own) is the form's problem, not an ended session.
    if (!(isErrorBody(body) && body.code === 'invalid_credentials')) for (const listener of sessionEndedListeners) listener();
    return response;
  },
};

/**
 * Called with each 429 a request receives: a rate limit concerns the whole screen, which says so
 * once (App), rather than each list or form that asked.
 */
const rateLimitedListeners = new Set<(problem: ApiError) => void>();
export function onRateLimited(listener: (problem: ApiError) => void): () => void {
  rateLimitedListeners.add(listener);
  return () => void rateLimitedListeners.delete(listener);
}

/** The management API, typed from the published document; the session cookie authenticates it. */
export const api = createClient<paths>({ baseUrl: '/management/v1', credentials: 'same-origin' });
api.use(csrf, sessionEnd);

/**
 * An error body as the document describes it: the standard envelope (a 403 adds
 * `required_scope`) or the field-keyed 422, whose keys are dotted paths (`criteria.0.values`).
 */
export type ErrorBody = Schemas['ErrorEnvelope'] | Schemas['ScopeErrorEnvelope'] | Schemas['ValidationError'];

function isErrorBody(body: unknown): body is ErrorBody {
  return typeof body === 'object' && body !== null && typeof (body as { message?: unknown }).message === 'string';
}

/**
 * A refused or failed request as the console shows it: the HTTP status (0 when Vexil could not be
 * reached) and the API's error body when it sent one.
 */
export class ApiError extends Error {
  readonly body: ErrorBody | undefined;

  constructor(
    readonly status: number,
    body: unknown,
    fallback = `The request failed (HTTP ${status}).`,
    /** Of a 429: the seconds the API asked to wait (Retry-After). */
    readonly retryAfterSeconds?: number,
  ) {
    const typed = isErrorBody(body) ? body : undefined;
    super(status === 429 ? tooManyRequests(retryAfterSeconds) : (typed?.message ?? fallback));
    this.body = typed;
  }

  get code(): Schemas['ErrorCode'] | undefined {
    return this.body?.code;
  }

  /** Field-keyed messages of a 422 (empty for other errors). */
  get fields(): Schemas['ValidationError']['errors'] {
    return this.body && 'errors' in this.body ? this.body.errors : {};
  }
}

/** A rate limit's refusal in words, with when to try again. */
function tooManyRequests(seconds: number | undefined): string {
  if (seconds === undefined || !Number.isFinite(seconds)) return 'Too many requests for now: Vexil asks to wait before trying again.';
  const at = new Date(Date.now() + seconds * 1000).toLocaleTimeString();
  return `Too many requests for now: try again in ${seconds} second${seconds === 1 ? '' : 's'} (at ${at}).`;
}

/** A failed request as screens hold it (the name forms and hooks use for an ApiError). */
export type ApiProblem = ApiError;

/**
 * The messages for one field of a form: those keyed by its name and by paths under it, so
 * `criteria.0.values.2` reaches the field `criteria.0.values` and `grants.projects.1` the field
 * `grants.projects`.
 */
export function fieldMessages(problem: ApiError | undefined, name: string): string[] {
  if (!problem) return [];
  return Object.entries(problem.fields)
    .filter(([key]) => key === name || key.startsWith(`${name}.`))
    .flatMap(([, messages]) => messages);
}

/** The `data` of a success envelope, or an ApiError carrying the API's error body. */
export async function unwrap<T>(request: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let result: { data?: T; error?: unknown; response: Response };
  try {
    result = await request;
  } catch {
    throw new ApiError(0, undefined, 'Vexil cannot be reached.');
  }
  if (!result.response.ok || result.error !== undefined) {
    const retryAfter = result.response.headers.get('retry-after');
    const problem = new ApiError(result.response.status, result.error, undefined, retryAfter === null ? undefined : Number(retryAfter));
    if (problem.status === 429) for (const listener of rateLimitedListeners) listener(problem);
    throw problem;
  }
  return result.data as T;
}
