import type { Knex } from 'knex';
import type { AuditSubject } from '../../audit/audit-trail.js';
import type { ManagementPrincipal, ResourceAccess } from '../../auth/principal.js';
import { FieldErrorList, ForbiddenError, ValidationError, type ErrorCode } from '../../http/errors.js';
import { decodeCursor, encodeCursor, type Page, type PageRequest } from '../../http/pagination.js';
import { inTransaction } from '../../storage/transaction.js';

/**
 * Pieces shared by the administration features (projects, environments, environment keys,
 * management tokens, accounts): how services run transactions, how they talk to the audit
 * trail, and the text and access rules every administration body follows.
 */
export type Db = Knex | Knex.Transaction;

/** What a service needs of the request's audit trail (AuditTrail implements it). */
export interface Auditor {
  commit(trx: Knex.Transaction, subject: AuditSubject): Promise<void>;
  describe(subject: AuditSubject): void;
}

/** Runs work in one transaction; a thrown error leaves no write behind. */
export interface Transactor {
  transaction<T>(work: (trx: Knex.Transaction) => Promise<T>): Promise<T>;
}

export function knexTransactor(knex: Knex): Transactor {
  return { transaction: (work) => inTransaction(knex, work) };
}

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
// Control characters other than tab, newline and carriage return have no place in a name.
const controlCharacter = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/**
 * Rules for text fields Ajv cannot express: valid Unicode (no lone surrogates, which the
 * databases would silently replace), no control characters in names, names not blank.
 */
export class TextRules {
  private readonly errors = new FieldErrorList();

  name(field: string, value: string | undefined): this {
    if (value === undefined) return this;
    if (value.trim() === '') this.add(field, `The ${field} field must not be blank.`);
    else if (controlCharacter.test(value)) this.add(field, `The ${field} field must not contain control characters.`);
    else this.text(field, value);
    return this;
  }

  text(field: string, value: string | null | undefined): this {
    if (typeof value === 'string' && loneSurrogate.test(value)) {
      this.add(field, `The ${field} field must be valid Unicode text.`);
    }
    return this;
  }

  add(field: string, message: string, code?: ErrorCode): this {
    this.errors.add(field, message, code);
    return this;
  }

  /** Throws the collected errors as one field-keyed 422. */
  check(): void {
    this.errors.check();
  }
}

/** `expires_at` of a new token: absent or null never expires, otherwise it must lie ahead. */
export function futureExpiry(field: string, value: string | null | undefined, now: Date): string | null {
  if (value === undefined || value === null) return null;
  const time = Date.parse(value);
  if (Number.isNaN(time)) throw ValidationError.field(field, `The ${field} field must be a date-time.`);
  if (time <= now.getTime()) {
    throw ValidationError.field(field, `The ${field} field must be a date-time in the future.`, 'date_not_in_future');
  }
  return new Date(time).toISOString();
}

/**
 * Administration (config:write) is for owners and admins. Personal access tokens of members are
 * refused by the scope check already; this also covers a management token owned by a member.
 */
export function requireAdministrator(principal: ManagementPrincipal): void {
  if (principal.account.role === 'member') {
    throw new ForbiddenError('Member accounts cannot administer projects, environments or keys.');
  }
}

/**
 * Whether the caller reaches the whole project, not only some of its environments: reaching an
 * environment it was not granted one by one means the project itself is granted (or no grant
 * restricts the caller). The empty string is an environment ulid no environment has.
 */
export function reachesWholeProject(access: ResourceAccess, projectUlid: string): boolean {
  return access.canSeeProject(projectUlid) && access.canSeeEnvironment(projectUlid, '');
}

export function requireWholeProject(access: ResourceAccess, projectUlid: string): void {
  if (!reachesWholeProject(access, projectUlid)) {
    throw new ForbiddenError('This token has no grant for the whole project.');
  }
}

/** Ulids the caller may see among `ulids`, or null when nothing restricts the caller. */
export function visibleAmong(ulids: string[], restricted: boolean, canSee: (ulid: string) => boolean): string[] | null {
  return restricted ? ulids.filter(canSee) : null;
}

/**
 * In-memory keyset pagination with the same cursors and meta as paginateByUlid, for the fake
 * stores of the unit tests. `items` must be in ulid order.
 */
export function paginateInMemory<T extends { ulid: string }>(
  items: T[],
  list: string,
  page: PageRequest,
): Page<T> {
  const cursor = page.cursor ? decodeCursor(page.cursor, list) : undefined;
  const sorted = [...items].sort((a, b) => (a.ulid < b.ulid ? -1 : a.ulid > b.ulid ? 1 : 0));
  let slice: T[];
  let hasNext: boolean;
  let hasPrev: boolean;
  if (cursor?.d === 'p') {
    const before = sorted.filter((i) => i.ulid < cursor.u);
    slice = before.slice(Math.max(0, before.length - page.per_page));
    hasPrev = before.length > page.per_page;
    hasNext = true;
  } else {
    const after = cursor ? sorted.filter((i) => i.ulid > cursor.u) : sorted;
    slice = after.slice(0, page.per_page);
    hasNext = after.length > page.per_page;
    hasPrev = cursor !== undefined && slice[0] !== undefined && sorted.some((i) => i.ulid < (slice[0] as T).ulid);
  }
  const first = slice[0]?.ulid;
  const last = slice[slice.length - 1]?.ulid;
  return {
    data: slice,
    meta: {
      per_page: page.per_page,
      next_cursor: hasNext && last ? encodeCursor({ l: list, u: last, d: 'n' }) : null,
      prev_cursor: hasPrev && first ? encodeCursor({ l: list, u: first, d: 'p' }) : null,
    },
  };
}

/** The page a list request asks for (per_page is defaulted and range-checked by the query validator). */
export function pageOf(query: { per_page?: number; cursor?: string } | undefined): PageRequest {
  return { per_page: query?.per_page ?? 25, cursor: query?.cursor };
}
