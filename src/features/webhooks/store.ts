import type { Knex } from 'knex';
import { paginateByUlid, type Page, type PageRequest } from '../../http/pagination.js';

export interface WebhookRecord {
  ulid: string;
  project_ulid: string;
  url: string;
  events: string[];
  environments: string[];
  description: string | null;
  enabled: boolean;
  secret: string;
  consecutive_failures: number;
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookEventRecord {
  ulid: string;
  webhook_ulid: string;
  event_type: string;
  payload: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  next_attempt_at: string | null;
  locked_until: string | null;
  last_status_code: number | null;
  last_error: string | null;
  last_duration_ms: number | null;
  delivered_at: string | null;
  created_at: string;
}

export type Db = Knex | Knex.Transaction;

type WebhookRow = Omit<WebhookRecord, 'events' | 'environments' | 'enabled'> & { events: string; environments: string; enabled: unknown };

function toWebhook(row: WebhookRow): WebhookRecord {
  return { ...row, events: JSON.parse(row.events), environments: JSON.parse(row.environments), enabled: Boolean(row.enabled) };
}

function toRow(record: WebhookRecord): Record<string, unknown> {
  return { ...record, events: JSON.stringify(record.events), environments: JSON.stringify(record.environments) };
}

/** Webhook subscriptions and their outbox rows, on either database. */
export class WebhookStore {
  constructor(private readonly knex: Knex) {}

  /** The pool, for reads outside a transaction. */
  get db(): Knex {
    return this.knex;
  }

  transaction<T>(work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
    return this.knex.transaction(work);
  }

  list(projectUlid: string, page: PageRequest): Promise<Page<WebhookRecord>> {
    return paginateByUlid<WebhookRow & Record<string, unknown>, WebhookRecord>(
      this.knex('webhooks').where('project_ulid', projectUlid).select('*'),
      'ulid',
      `webhooks:${projectUlid}`,
      page,
      toWebhook,
    );
  }

  async find(db: Db, projectUlid: string, ulid: string): Promise<WebhookRecord | undefined> {
    const row = (await db('webhooks').where({ project_ulid: projectUlid, ulid }).first()) as WebhookRow | undefined;
    return row ? toWebhook(row) : undefined;
  }

  async insert(trx: Knex.Transaction, record: WebhookRecord): Promise<void> {
    await trx('webhooks').insert(toRow(record));
  }

  async replace(trx: Knex.Transaction, record: WebhookRecord): Promise<void> {
    const { ulid, ...rest } = toRow(record);
    await trx('webhooks').where({ ulid }).update(rest);
  }

  async remove(trx: Knex.Transaction, ulid: string): Promise<void> {
    await trx('webhook_events').where('webhook_ulid', ulid).delete();
    await trx('webhooks').where({ ulid }).delete();
  }

  /** Enabled subscriptions of a project, read inside the transaction of a change. */
  async subscribers(db: Db, projectUlid: string): Promise<WebhookRecord[]> {
    const rows = (await db('webhooks').where({ project_ulid: projectUlid, enabled: true })) as WebhookRow[];
    return rows.map(toWebhook);
  }

  async insertEvents(db: Db, events: WebhookEventRecord[]): Promise<void> {
    if (events.length > 0) await db('webhook_events').insert(events);
  }

  listEvents(webhookUlid: string, page: PageRequest): Promise<Page<WebhookEventRecord>> {
    return paginateByUlid<WebhookEventRecord & Record<string, unknown>, WebhookEventRecord>(
      this.knex('webhook_events').where('webhook_ulid', webhookUlid).select('*'),
      'ulid',
      `webhook-events:${webhookUlid}`,
      page,
      (row) => row,
    );
  }

  async findEvent(webhookUlid: string, ulid: string): Promise<WebhookEventRecord | undefined> {
    return (await this.knex('webhook_events').where({ webhook_ulid: webhookUlid, ulid }).first()) as WebhookEventRecord | undefined;
  }

  /**
   * The oldest waiting event of each enabled subscription, when it is due and nobody holds it.
   * Only the oldest: a subscription's events go out one at a time, in order.
   */
  async dueHeads(nowIso: string, limit: number): Promise<(WebhookEventRecord & { url: string; secret: string })[]> {
    return (await this.knex('webhook_events as e')
      .join('webhooks as w', 'w.ulid', 'e.webhook_ulid')
      .where('w.enabled', true)
      .where('e.status', 'pending')
      .whereRaw('e.ulid = (select min(e2.ulid) from webhook_events e2 where e2.webhook_ulid = e.webhook_ulid and e2.status = ?)', ['pending'])
      .where('e.next_attempt_at', '<=', nowIso)
      .where((q) => q.whereNull('e.locked_until').orWhere('e.locked_until', '<', nowIso))
      .orderBy('e.ulid')
      .limit(limit)
      .select('e.*', 'w.url', 'w.secret')) as (WebhookEventRecord & { url: string; secret: string })[];
  }

  /** Takes the event's lease for one attempt; false when another instance holds or finished it. */
  async claim(eventUlid: string, nowIso: string, untilIso: string): Promise<boolean> {
    const changed = await this.knex('webhook_events')
      .where({ ulid: eventUlid, status: 'pending' })
      .where((q) => q.whereNull('locked_until').orWhere('locked_until', '<', nowIso))
      .update({ locked_until: untilIso, attempts: this.knex.raw('attempts + 1') });
    return changed === 1;
  }

  async recordAttempt(
    event: Pick<WebhookEventRecord, 'ulid' | 'webhook_ulid'>,
    outcome: { status: WebhookEventRecord['status']; code: number | null; error: string | null; durationMs: number; nextAttemptAt: string | null; nowIso: string },
    disableAfter: number,
  ): Promise<void> {
    await this.knex.transaction(async (trx) => {
      await trx('webhook_events').where('ulid', event.ulid).update({
        status: outcome.status,
        last_status_code: outcome.code,
        last_error: outcome.error?.slice(0, 500) ?? null,
        last_duration_ms: outcome.durationMs,
        next_attempt_at: outcome.nextAttemptAt,
        delivered_at: outcome.status === 'delivered' ? outcome.nowIso : null,
        locked_until: null,
      });
      if (outcome.status === 'delivered') {
        await trx('webhooks').where('ulid', event.webhook_ulid).update({ consecutive_failures: 0 });
        return;
      }
      await trx('webhooks').where('ulid', event.webhook_ulid).update({ consecutive_failures: trx.raw('consecutive_failures + 1') });
      await trx('webhooks')
        .where('ulid', event.webhook_ulid)
        .where('enabled', true)
        .where('consecutive_failures', '>=', disableAfter)
        .update({ enabled: false, disabled_reason: `Disabled after ${disableAfter} failed deliveries in a row.`, updated_at: outcome.nowIso });
    });
  }
}
