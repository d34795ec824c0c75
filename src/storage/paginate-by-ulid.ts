import type { Knex } from 'knex';
import { decodeCursor, encodeCursor, type Page, type PageRequest } from '../http/pagination.js';

/**
 * Keyset pagination in creation order over a ulid column: a page deep in a long list costs the
 * same as the first. `query` is the filtered base query; `column` the qualified ulid column.
 */
export async function paginateByUlid<Row extends Record<string, unknown>, T>(
  query: Knex.QueryBuilder,
  column: string,
  list: string,
  page: PageRequest,
  toItem: (row: Row) => T,
): Promise<Page<T>> {
  const cursor = page.cursor ? decodeCursor(page.cursor, list) : undefined;
  const limit = page.per_page;
  const backwards = cursor?.d === 'p';
  const q = query.clone();
  if (cursor) q.where(column, backwards ? '<' : '>', cursor.u);
  const rows = (await q.orderBy(column, backwards ? 'desc' : 'asc').limit(limit + 1)) as Row[];
  const more = rows.length > limit;
  const pageRows = rows.slice(0, limit);
  if (backwards) pageRows.reverse();
  const ulidOf = (row: Row | undefined) => (row ? String(row[column.split('.').pop() as string]) : undefined);
  const first = ulidOf(pageRows[0]);
  const last = ulidOf(pageRows[pageRows.length - 1]);

  let hasNext: boolean;
  let hasPrev: boolean;
  if (backwards) {
    hasPrev = more;
    hasNext = true;
  } else {
    hasNext = more;
    hasPrev = cursor !== undefined && first !== undefined && (await exists(query, column, '<', first));
  }
  return {
    data: pageRows.map(toItem),
    meta: {
      per_page: limit,
      next_cursor: hasNext && last ? encodeCursor({ l: list, u: last, d: 'n' }) : null,
      prev_cursor: hasPrev && first ? encodeCursor({ l: list, u: first, d: 'p' }) : null,
    },
  };
}

async function exists(query: Knex.QueryBuilder, column: string, op: '<' | '>', ulid: string): Promise<boolean> {
  const row = await query.clone().where(column, op, ulid).first(column);
  return row !== undefined;
}
