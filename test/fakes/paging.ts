import { decodeCursor, encodeCursor, type Page, type PageRequest } from '../../src/http/pagination.js';

/**
 * In-memory keyset pagination with the same cursors and meta as paginateByUlid, for the fake
 * stores of the unit tests. `items` must be in ulid order.
 */
export function paginateInMemory<T extends { ulid: string }>(items: T[], list: string, page: PageRequest): Page<T> {
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
