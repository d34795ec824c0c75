import type { Schemas } from '../../api/client';

type Entry = Schemas['AuditEntry'];

/** The entries one request wrote, led by the one of its operation (the change a person made). */
export interface RequestGroup {
  key: string;
  lead: Entry;
  /** The request's other entries, in the page's order. */
  others: Entry[];
}

/**
 * Consecutive entries of a page that share their request (AuditEntry.request.ulid) as one group;
 * an entry without a request (a system action) is a group of its own. The lead is the entry
 * whose action is the request's (`request.action`), else the first of the group.
 */
export function groupByRequest(entries: Entry[]): RequestGroup[] {
  const groups: Entry[][] = [];
  for (const entry of entries) {
    const last = groups.at(-1);
    if (last && entry.request && last[0]?.request?.ulid === entry.request.ulid) last.push(entry);
    else groups.push([entry]);
  }
  return groups.map((members) => {
    const first = members[0] as Entry;
    const lead = members.find((e) => e.action === first.request?.action) ?? first;
    return { key: first.request?.ulid ?? first.ulid, lead, others: members.filter((e) => e !== lead) };
  });
}
