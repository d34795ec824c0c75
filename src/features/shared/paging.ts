import type { PageRequest } from '../../http/pagination.js';

/** The page a list request asks for (per_page is defaulted and range-checked by the query validator). */
export function pageOf(query: { per_page?: number; cursor?: string } | undefined): PageRequest {
  return { per_page: query?.per_page ?? 25, cursor: query?.cursor };
}
