import { decodeCursor, encodeCursor, type Page, type PageRequest } from '../../http/pagination.js';
import type { FlagOverview } from './serving-overview.js';
import type { FlagRecord } from './store-types.js';

/** listFlags' filters on what a flag serves (specs/management.yaml, listFlags `on`, `off`, `stale`). */
export interface ServingFilter {
  /** Only flags on in this environment. */
  on?: string;
  /** Only flags off in this environment. */
  off?: string;
  stale?: boolean;
  /** The days without use after which `stale` counts a flag stale (the request's `stale_days`). */
  staleDays: number;
}

export const hasServingFilter = (filter: ServingFilter): boolean =>
  filter.on !== undefined || filter.off !== undefined || filter.stale !== undefined;

/** Whether a flag's overview passes `filter`, by the one definition of on and off (serving-state.ts). */
export function passes(filter: ServingFilter, overview: FlagOverview): boolean {
  const onIn = (key: string) => overview.environments.find((s) => s.environment_key === key)?.on;
  if (filter.on !== undefined && onIn(filter.on) !== true) return false;
  if (filter.off !== undefined && onIn(filter.off) !== false) return false;
  return filter.stale === undefined || overview.stale === filter.stale;
}

/** Flags read per batch while a filtered page fills. */
const BATCH = 500;

/**
 * A page of flags whose overview passes a filter the database cannot apply (on and off are worked
 * out in code, serving-state.ts): the unfiltered list is read in batches from the cursor, in the
 * cursor's direction, until `per_page` flags pass or the list ends. The cursors are those of the
 * unfiltered list (`list`), placed at the first and last flag shown.
 */
export async function filteredPage(
  list: string,
  page: PageRequest,
  readBatch: (page: PageRequest) => Promise<Page<FlagRecord>>,
  overviewOf: (flags: FlagRecord[]) => Promise<Map<string, FlagOverview>>,
  filter: ServingFilter,
): Promise<Page<{ flag: FlagRecord; overview: FlagOverview }>> {
  const backwards = page.cursor ? decodeCursor(page.cursor, list).d === 'p' : false;
  const found: Array<{ flag: FlagRecord; overview: FlagOverview }> = [];
  let more = false;
  let scan: string | null | undefined = page.cursor;
  do {
    const batch = await readBatch({ per_page: BATCH, cursor: scan ?? undefined });
    const overviews = await overviewOf(batch.data);
    // Nearest the cursor first: going back, a batch is read from its end.
    for (const flag of backwards ? [...batch.data].reverse() : batch.data) {
      const overview = overviews.get(flag.ulid);
      if (!overview || !passes(filter, overview)) continue;
      if (found.length === page.per_page) {
        more = true;
        break;
      }
      found.push({ flag, overview });
    }
    scan = backwards ? batch.meta.prev_cursor : batch.meta.next_cursor;
  } while (!more && scan);
  if (backwards) found.reverse();

  const first = found[0]?.flag.ulid;
  const last = found[found.length - 1]?.flag.ulid;
  // As the unfiltered list does: going back, a later page exists; going on from a cursor, an earlier one.
  const hasNext = backwards ? true : more;
  const hasPrev = backwards ? more : page.cursor !== undefined;
  return {
    data: found,
    meta: {
      per_page: page.per_page,
      next_cursor: hasNext && last ? encodeCursor({ l: list, u: last, d: 'n' }) : null,
      prev_cursor: hasPrev && first ? encodeCursor({ l: list, u: first, d: 'p' }) : null,
    },
  };
}
