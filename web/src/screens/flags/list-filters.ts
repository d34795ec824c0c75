import type { Schemas } from '../../api/client';

type FlagType = Schemas['FlagType'];
export const flagTypes: FlagType[] = ['boolean', 'number', 'string', 'json'];

/** The flags list's filters, as the screen holds them and as its address keeps them. */
export interface ListFilters {
  search: string;
  type: FlagType | '';
  tag: string;
  /** "staging:on" or "staging:off": flags on (or off) in one environment; '' for any. */
  state: string;
  stale: boolean;
}

/** The filters an address carries (`?type=string&on=staging&stale=true`); the rest are empty. */
export function filtersFromQuery(query: URLSearchParams): ListFilters {
  const type = query.get('type') ?? '';
  const on = query.get('on');
  const off = query.get('off');
  return {
    search: query.get('search') ?? '',
    type: (flagTypes as string[]).includes(type) ? (type as FlagType) : '',
    tag: query.get('tag') ?? '',
    state: on ? `${on}:on` : off ? `${off}:off` : '',
    stale: query.get('stale') === 'true',
  };
}

/**
 * The listFlags query parameters of the filters, which are also the address's: `on`, `off` and
 * `stale` are filtered by the API (specs/management.yaml, listFlags), never here.
 */
export function filterQuery(filters: ListFilters): Record<string, string> {
  const query: Record<string, string> = {};
  if (filters.search) query.search = filters.search;
  if (filters.type) query.type = filters.type;
  if (filters.tag.trim()) query.tag = filters.tag.trim();
  const [environment, state] = filters.state.split(':');
  if (environment && (state === 'on' || state === 'off')) query[state] = environment;
  if (filters.stale) query.stale = 'true';
  return query;
}
