import { UnprocessableError } from './errors.js';

export interface PageRequest {
  per_page: number;
  cursor?: string;
}

export interface ListMeta {
  per_page: number;
  next_cursor: string | null;
  prev_cursor: string | null;
}

export interface Page<T> {
  data: T[];
  meta: ListMeta;
}

interface CursorPayload {
  /** Which list the cursor belongs to, e.g. `flags:prj_...`; a cursor from another list is refused. */
  l: string;
  /** The ulid the page starts after (next) or before (prev). */
  u: string;
  d: 'n' | 'p';
}

export function encodeCursor(payload: CursorPayload): string {
  return Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string, list: string): CursorPayload {
  try {
    const payload = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as CursorPayload;
    if (payload.l === list && typeof payload.u === 'string' && (payload.d === 'n' || payload.d === 'p')) return payload;
  } catch {
    // fall through to the refusal below
  }
  throw new UnprocessableError('Invalid cursor: it is malformed or belongs to another list.').withCode('invalid_cursor');
}
