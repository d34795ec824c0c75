/**
 * Which requests get a log line at info (VEXIL_REQUEST_LOG):
 * - `management` (the default): every request but those of the public API (/v1, /ofrep/v1), which
 *   the public audit trail records already, one entry each;
 * - `all`: every request;
 * - `none`: no request line (errors are still logged).
 */
export type RequestLogScope = 'management' | 'all' | 'none';

export const requestLogScopes: readonly RequestLogScope[] = ['management', 'all', 'none'];

/** Whether `path` is one of the public API's (the evaluation API and OFREP). */
export function isPublicApiPath(path: string): boolean {
  return path.startsWith('/v1/') || path.startsWith('/ofrep/v1/');
}

/** Whether a request to `path` gets a line under `scope` (the level is checked apart). */
export function logsRequestTo(scope: RequestLogScope, path: string): boolean {
  if (scope === 'all') return true;
  return scope === 'management' && !isPublicApiPath(path);
}
