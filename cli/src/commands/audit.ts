import { setTimeout as sleep } from 'node:timers/promises';
import { call } from '../api.js';
import { connectionOptions, stringOption, type Command } from '../command.js';
import { clientFor } from '../context-helpers.js';
import { UsageError } from '../errors.js';
import { cutText } from '../compact.js';
import { printable, type Output } from '../output.js';
import type { components } from '../../../generated/management.js';

type AuditEntry = components['schemas']['AuditEntry'];

function positiveInteger(text: string | undefined, name: string, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new UsageError(`--${name} must be a positive whole number.`);
  return value;
}

function actorLabel(entry: AuditEntry): string {
  if (!entry.actor) return 'unauthenticated';
  return entry.actor.email ?? entry.actor.name ?? entry.actor.type;
}

/**
 * Columns of a fixed width, so rows printed later (--follow) line up with the header printed
 * first; a longer value is cut. Widths fit a timestamp, every action and result.
 */
const columns: [string, number][] = [
  ['time', 24],
  ['actor', 24],
  ['action', 30],
  ['subject', 32],
  ['result', 12],
  ['status', 6],
];

function row(cells: unknown[]): string {
  return cells
    .map((value, i) => {
      const text = printable(value === null || value === undefined ? '-' : String(value));
      return cutText(text, columns[i]![1]).padEnd(columns[i]![1]);
    })
    .join('  ')
    .trimEnd();
}

function printHeader(out: Output): void {
  const header = row(columns.map(([name]) => name.toUpperCase()));
  out.write((out.colour ? `\u001b[1m${header}\u001b[22m` : header) + '\n');
}

function print(out: Output, entries: AuditEntry[]): void {
  if (out.json) {
    // One JSON document per line, so a script can read the stream as it grows.
    for (const entry of entries) out.write(JSON.stringify(entry) + '\n');
    return;
  }
  for (const e of entries)
    out.write(row([e.created_at, actorLabel(e), e.action, e.subject_label ?? e.subject_ulid, e.result, e.status_code]) + '\n');
}

/**
 * Reads of the audit log itself, the command's own polling among them (each poll is audited),
 * are left out unless asked for with --action, so following shows changes rather than itself.
 */
const ownReads = (action: string | undefined) => (entry: AuditEntry) => action !== undefined || entry.action !== 'audit_log.listed';

export const auditTail: Command = {
  words: ['audit', 'tail'],
  summary: 'Show the newest management audit entries, and with --follow keep showing new ones (reads of the audit log left out)',
  usage: 'vexil audit tail [--lines 20] [--follow] [--interval 2000] [--action ACTION] [--json]',
  options: {
    ...connectionOptions,
    lines: { type: 'string', short: 'n' },
    follow: { type: 'boolean', short: 'f' },
    interval: { type: 'string' },
    action: { type: 'string' },
  },
  async run(context) {
    const client = clientFor(context);
    const lines = Math.min(positiveInteger(stringOption(context.options, 'lines'), 'lines', 20), 100);
    const intervalMs = positiveInteger(stringOption(context.options, 'interval'), 'interval', 2000);
    const action = stringOption(context.options, 'action') as AuditEntry['action'] | undefined;
    const shown = ownReads(action);
    const newest = await call(client.GET('/audit-logs', { params: { query: { per_page: 100, sort: 'created_at_desc', action } } }));
    const first = newest.data.filter(shown).slice(0, lines).reverse();
    if (!context.out.json) printHeader(context.out);
    print(context.out, first);
    if (!context.out.json && first.length === 0) context.out.write('(none)\n');
    if (!context.options.follow) return;

    // Entries at the last timestamp seen are asked for again; their ulids keep them from repeating.
    let from = first.at(-1)?.created_at ?? new Date().toISOString();
    let seen = new Set(first.filter((e) => e.created_at === from).map((e) => e.ulid));
    const stop = new AbortController();
    process.once('SIGINT', () => stop.abort());
    process.once('SIGTERM', () => stop.abort());
    while (!stop.signal.aborted) {
      await sleep(intervalMs, undefined, { signal: stop.signal }).catch(() => undefined);
      if (stop.signal.aborted) break;
      let cursor: string | undefined;
      do {
        const page = await call(
          client.GET('/audit-logs', { params: { query: { per_page: 100, sort: 'created_at_asc', from, cursor, action } } }),
        );
        const fresh = page.data.filter((e) => !seen.has(e.ulid));
        print(context.out, fresh.filter(shown));
        for (const entry of fresh) {
          if (entry.created_at !== from) {
            from = entry.created_at;
            seen = new Set();
          }
          seen.add(entry.ulid);
        }
        cursor = page.meta.next_cursor ?? undefined;
      } while (cursor && !stop.signal.aborted);
    }
  },
};
