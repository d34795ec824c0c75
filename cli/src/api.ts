import createClient from 'openapi-fetch';
import type { paths } from '../../generated/management.js';
import { CliError } from './errors.js';
import type { Connection } from './settings.js';

export type ManagementClient = ReturnType<typeof createClient<paths>>;

/** The management API, typed from the published document. */
export function managementClient(connection: Connection): ManagementClient {
  return createClient<paths>({
    baseUrl: `${connection.url}/management/v1`,
    headers: { authorization: `Bearer ${connection.token}`, 'user-agent': 'vexil-cli' },
    fetch: fetchNamingUrl(connection.url),
  });
}

/** fetch, with a network failure (refused, unknown host) turned into one line naming the URL tried. */
function fetchNamingUrl(url: string): (request: Request) => Promise<Response> {
  return async (request) => {
    try {
      return await fetch(request);
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new CliError(`Cannot reach Vexil at ${url}: ${cause?.code ?? cause?.message ?? (error as Error).message}`);
    }
  };
}

interface ErrorBody {
  message?: string;
  code?: string;
  errors?: Record<string, string[]>;
}

/**
 * The API's message as a one-line CLI error. A 422's `message` repeats its first field message
 * ("... (and 1 more error)"), so then the field messages, each named by its field, stand alone.
 */
export function apiError(status: number, body: unknown): CliError {
  const error = (typeof body === 'object' && body !== null ? body : {}) as ErrorBody;
  const fieldEntries = Object.entries(error.errors ?? {});
  const fields = fieldEntries.map(([field, messages]) => `${field}: ${messages.join(' ')}`).join('; ');
  const message = error.message ?? `HTTP ${status}`;
  const repeated = fieldEntries.some(([, messages]) => messages.some((m) => message.startsWith(m)));
  const code = error.code ? ` [${error.code}]` : '';
  const text = fields ? (repeated ? fields : `${message} (${fields})`) : message;
  return new CliError(`${text}${code}`, 1, error.code);
}

/** Awaits a request; its network failure is already one CLI line naming the URL (managementClient). */
export async function reach<R>(request: Promise<R>): Promise<R> {
  try {
    return await request;
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`Cannot reach Vexil: ${(error as Error).message}`);
  }
}

/** Unwraps an openapi-fetch result: the `data` of a success envelope, or throws the API's error. */
export async function call<T>(request: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const result = await reach(request);
  if (result.error !== undefined || !result.response.ok) throw apiError(result.response.status, result.error);
  return result.data as T;
}

/** Every item of a cursor-paginated list, following `meta.next_cursor` to the end. */
export async function collectPages<T>(
  fetchPage: (cursor: string | undefined) => Promise<{ data: T[]; meta: { next_cursor?: string | null } }>,
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await fetchPage(cursor);
    items.push(...page.data);
    cursor = page.meta.next_cursor ?? undefined;
  } while (cursor);
  return items;
}
