import type { IncomingMessage } from 'node:http';
import type Koa from 'koa';
import getRawBody from 'raw-body';
import { BadRequestError, PayloadTooLargeError, UnsupportedMediaTypeError } from './errors.js';
import { exceedsJsonDepth, MAX_JSON_INPUT_DEPTH } from './json-depth.js';

const jsonType = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;
const jsonWhiteSpaceOnly = /^[ \t\n\r]*$/;

/**
 * Reads and parses a JSON request body. Returns undefined when the request has no body.
 * Any valid JSON parses, member names such as `__proto__` and `constructor` included: JSON.parse
 * makes them plain own members, so a schema that lists its members refuses them as unknown
 * fields (422) and a free-form map keeps them. Maps keyed by such names are built without a
 * prototype (emptyFieldErrors in http/errors.ts), so no name reaches Object.prototype.
 */
export function readJsonBody(ctx: Koa.Context, limitBytes: number): Promise<unknown> {
  return readJsonRequest(ctx.req, limitBytes);
}

/** The declared length of a request's body, as Koa's `ctx.request.length` reads Content-Length. */
export function declaredLength(req: IncomingMessage): number | undefined {
  const text = req.headers['content-length'];
  if (text === undefined || text === '') return undefined;
  return ~~text;
}

/** readJsonBody on Node's request (the public reads answered in front of Koa read bodies too). */
export async function readJsonRequest(req: IncomingMessage, limitBytes: number): Promise<unknown> {
  const length = declaredLength(req);
  const hasBody = (length !== undefined && length > 0) || (req.headers['transfer-encoding'] ?? '') !== '';
  if (!hasBody) return undefined;
  const type = req.headers['content-type'] ?? '';
  if (!jsonType.test(type)) {
    throw new UnsupportedMediaTypeError('Request body must be JSON (Content-Type: application/json).');
  }
  let text: string;
  try {
    text = await getRawBody(req, { limit: limitBytes, length, encoding: 'utf8' });
  } catch (error) {
    const type = (error as { type?: string }).type;
    if (type === 'entity.too.large') throw new PayloadTooLargeError(`Request body exceeds ${limitBytes} bytes.`);
    throw new BadRequestError('Request body could not be read.');
  }
  // Only JSON's own white space makes an empty body; anything else (a form feed) must parse.
  if (jsonWhiteSpaceOnly.test(text)) return undefined;
  if (exceedsJsonDepth(text)) {
    throw new BadRequestError(`Request body nests arrays and objects more than ${MAX_JSON_INPUT_DEPTH} levels deep.`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new BadRequestError('Malformed JSON in request body.');
  }
}
