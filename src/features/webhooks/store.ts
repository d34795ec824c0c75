import type { components } from '../../../generated/management.js';
import type { Knex } from 'knex';
import type { Page, PageRequest } from '../../http/pagination.js';
import { paginateByUlid } from '../../storage/paginate-by-ulid.js';
import { type Dialect, hasRowLocks } from '../../storage/database.js';
import { storageFailureOf } from '../../storage/db-errors.js';
import { inTransaction } from '../../storage/transaction.js';
import type { Db } from '../../storage/db.js';

type Schemas = components['schemas'];

export interface WebhookRecord {
  ulid: string;
  project_ulid: string;
  url: string;
  /** Validated against WebhookEventFilter when written. */
  events: Schemas['WebhookEventFilter'][];
  environments: string[];
  description: string | null;
  enabled: boolean;
  consecutive_failures: number;
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
}

/** The subscription fields a change may set (never the secret, which is written once). */
export type WebhookChange = Pick<
  WebhookRecord,
  'url' | 'events' | 'environments' | 'description' | 'enabled' | 'consecutive_failures' | 'disabled_reason' | 'updated_at'
>;

export interface WebhookEventRecord {
  ulid: string;
  webhook_ulid: string;
  /** Written only by the outbox, from a change event or a ping. */
  event_type: Schemas['WebhookEventType'];
  payload: string;
  status: 'pending' | 'delivered' | 'failed';
  /** Position in the subscription's order (commit order); null for pings, which are outside it. */
  sequence: number | null;
  attempts: number;
  next_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  last_duration_ms: number | null;
  delivered_at: string | null;
  created_at: string;
}

/** An event ready for an attempt, with what sending it needs. */
export interface DueEvent extends WebhookEventRecord {
  url: string;
  /** Clear only in rows written before secrets were sealed. */
  secret: string | null;
  secret_sealed: string | null;
  /** The secret before the last rotation, which still signs until `previous_secret_until`. */
  previous_secret_sealed: string | null;
  previous_secret_until: string | null;
}

export interface AttemptRecord {
  status: WebhookEventRecord['status'];
  code: number | null;
  error: string | null;
  durationMs: number;
  nextAttemptAt: string | null;
  nowIso: string;
}

const webhookColumns = [
  'ulid',
  'project_ulid',
  'url',
  'events',
  'environments',
  'description',
  'enabled',
  'consecutive_failures',
  'disabled_reason',
  'created_at',
  'updated_at',
];
const eventColumns = [
  'ulid',
  'webhook_ulid',
  'event_type',
  'payload',
  'status',
  'sequence',
  'attempts',
  'next_attempt_at',
  'last_status_code',
  'last_error',
  'last_duration_ms',
  'delivered_at',
  'created_at',
];

type WebhookRow = Omit<WebhookRecord, 'events' | 'environments' | 'enabled'> & { events: string; environments: string; enabled: unknown };

function toWebhook(row: WebhookRow): WebhookRecord {
  return { ...row, events: JSON.parse(row.events), environments: JSON.parse(row.environments), enabled: Boolean(row.enabled) };
}

function toEvent<T extends WebhookEventRecord>(row: T): T {
  return { ...row, sequence: row.sequence === null ? null : Number(row.sequence) };
}

/**
 * Webhook subscriptions and their outbox rows, on either database. Each method takes the `Db` it
 * runs on: the service's, or the pool the delivery task, the secrets and the backlog metric read through.
 */
export class WebhookStore {
  constructor(private readonly dialect: Dialect) {}

  /**
   * The database's clock plus `plusMs`, in the stored timestamp form. Leases are taken and
   * checked in this one clock, so instances whose clocks disagree cannot steal each other's.
   */
  private databaseTime(db: Db, plusMs = 0): Knex.Raw {
    if (this.dialect === 'sqlite') return db.raw(`strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?)`, [`+${(plusMs / 1000).toFixed(3)} seconds`]);
    if (this.dialect === 'postgres') {
      // The statement's start, as MySQL's utc_timestamp(3) (now() would be the transaction's).
      return db.raw(
        `to_char((statement_timestamp() + cast(? as double precision) * interval '1 millisecond') at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
        [plusMs],
      );
    }
    return db.raw(`concat(left(date_format(utc_timestamp(3) + interval ? microsecond, '%Y-%m-%dT%H:%i:%s.%f'), 23), 'Z')`, [plusMs * 1000]);
  }

  list(db: Db, projectUlid: string, page: PageRequest): Promise<Page<WebhookRecord>> {
    return paginateByUlid<WebhookRow & Record<string, unknown>, WebhookRecord>(
      db('webhooks').where('project_ulid', projectUlid).select(webhookColumns),
      'ulid',
      `webhooks:${projectUlid}`,
      page,
      toWebhook,
    );
  }

  /** Which of `keys` name environments of the project. */
  async existingEnvironmentKeys(db: Db, projectUlid: string, keys: string[]): Promise<Set<string>> {
    const rows = (await db('environments').where('project_ulid', projectUlid).whereIn('key', keys).select('key')) as Array<{ key: string }>;
    return new Set(rows.map((r) => r.key));
  }

  async find(db: Db, projectUlid: string, ulid: string, options: { lock?: boolean } = {}): Promise<WebhookRecord | undefined> {
    const query = db('webhooks').where({ project_ulid: projectUlid, ulid }).first(webhookColumns);
    if (options.lock && hasRowLocks(this.dialect)) query.forUpdate();
    const row = (await query) as WebhookRow | undefined;
    return row ? toWebhook(row) : undefined;
  }

  async insert(trx: Knex.Transaction, record: WebhookRecord, secretSealed: string): Promise<void> {
    await trx('webhooks').insert({
      ...record,
      events: JSON.stringify(record.events),
      environments: JSON.stringify(record.environments),
      secret: '',
      secret_sealed: secretSealed,
      last_sequence: 0,
    });
  }

  async update(trx: Knex.Transaction, ulid: string, change: WebhookChange): Promise<void> {
    await trx('webhooks')
      .where({ ulid })
      .update({ ...change, events: JSON.stringify(change.events), environments: JSON.stringify(change.environments) });
  }

  /** The sealed secrets of a subscription (current, and the previous one during a rotation's grace period). */
  async secrets(trx: Knex.Transaction, ulid: string): Promise<{ secret: string | null; secret_sealed: string | null } | undefined> {
    return (await trx('webhooks').where({ ulid }).first('secret', 'secret_sealed')) as
      | { secret: string | null; secret_sealed: string | null }
      | undefined;
  }

  /** A rotation: the new sealed secret, and the previous one with the end of its grace period (null: none). */
  async rotateSecret(
    trx: Knex.Transaction,
    ulid: string,
    rotation: { secretSealed: string; previousSealed: string | null; previousUntil: string | null; updatedAt: string },
  ): Promise<void> {
    await trx('webhooks').where({ ulid }).update({
      secret: '',
      secret_sealed: rotation.secretSealed,
      previous_secret_sealed: rotation.previousSealed,
      previous_secret_until: rotation.previousUntil,
      updated_at: rotation.updatedAt,
    });
  }

  async remove(trx: Knex.Transaction, ulid: string): Promise<void> {
    await trx('webhook_events').where('webhook_ulid', ulid).delete();
    await trx('webhooks').where({ ulid }).delete();
  }

  /** The key and ulid of a project, for an event's payload (read in the change's transaction). */
  async projectRef(db: Db, projectUlid: string): Promise<{ ulid: string; key: string } | undefined> {
    return (await db('projects').where('ulid', projectUlid).first('ulid', 'key')) as { ulid: string; key: string } | undefined;
  }

  /** The key and ulid of an environment, for an event's payload; undefined once it is deleted. */
  async environmentRef(db: Db, environmentUlid: string): Promise<{ ulid: string; key: string } | undefined> {
    return (await db('environments').where('ulid', environmentUlid).first('ulid', 'key')) as { ulid: string; key: string } | undefined;
  }

  /** Enabled subscriptions of a project, read inside the transaction of a change. */
  async subscribers(db: Db, projectUlid: string): Promise<WebhookRecord[]> {
    const rows = (await db('webhooks').where({ project_ulid: projectUlid, enabled: true }).select(webhookColumns)) as WebhookRow[];
    return rows.map(toWebhook);
  }

  /**
   * Numbers one new event for each of `webhookUlids` that is still enabled, under the
   * subscriptions' row locks: a transaction numbering after another waits for it to end, so the
   * numbers follow commit order (a rolled-back transaction's numbers are handed out again).
   * Returns the sequence of each subscription that takes the event (with `enabledOnly`, those
   * still enabled under the lock).
   */
  async nextSequences(db: Db, webhookUlids: string[], options: { enabledOnly: boolean }): Promise<Map<string, number>> {
    if (webhookUlids.length === 0) return new Map();
    const sorted = [...webhookUlids].sort();
    const query = db('webhooks').whereIn('ulid', sorted).orderBy('ulid').select('ulid', 'last_sequence');
    if (options.enabledOnly) query.where('enabled', true);
    if (hasRowLocks(this.dialect)) query.forUpdate();
    const rows = (await query) as Array<{ ulid: string; last_sequence: number | string }>;
    if (rows.length === 0) return new Map();
    await db('webhooks')
      .whereIn(
        'ulid',
        rows.map((r) => r.ulid),
      )
      .update({ last_sequence: db.raw('last_sequence + 1') });
    return new Map(rows.map((r) => [r.ulid, Number(r.last_sequence) + 1]));
  }

  async insertEvents(db: Db, events: WebhookEventRecord[]): Promise<void> {
    if (events.length > 0) await db('webhook_events').insert(events);
  }

  listEvents(db: Db, webhookUlid: string, page: PageRequest): Promise<Page<WebhookEventRecord>> {
    return paginateByUlid<WebhookEventRecord & Record<string, unknown>, WebhookEventRecord>(
      db('webhook_events').where('webhook_ulid', webhookUlid).select(eventColumns),
      'ulid',
      `webhook-events:${webhookUlid}`,
      page,
      toEvent,
    );
  }

  async findEvent(db: Db, webhookUlid: string, ulid: string): Promise<WebhookEventRecord | undefined> {
    const row = (await db('webhook_events').where({ webhook_ulid: webhookUlid, ulid }).first(eventColumns)) as
      | WebhookEventRecord
      | undefined;
    return row ? toEvent(row) : undefined;
  }

  /**
   * Work waiting for an attempt: per enabled subscription, its queue's head when it is due and
   * nobody holds it, and its due pings (outside the queue). One row per subscription at most
   * for the queue: the head goes out before anything behind it.
   */
  async dueWork(db: Db, nowIso: string, limit: number): Promise<Array<{ webhook_ulid: string; ulid: string; ping: boolean }>> {
    const free = (q: Knex.QueryBuilder) => q.whereNull('e.locked_until').orWhere('e.locked_until', '<', this.databaseTime(db));
    const heads = db
      .from('webhooks as w')
      .where('w.enabled', true)
      .select(
        'w.ulid as webhook_ulid',
        db.raw(`(select min(e2.sequence) from webhook_events e2 where e2.webhook_ulid = w.ulid and e2.status = 'pending') as head`),
      )
      .as('h');
    const queue = (await db
      .from(heads)
      .join('webhook_events as e', (j) => j.on('e.webhook_ulid', 'h.webhook_ulid').andOn('e.sequence', 'h.head'))
      .where('e.next_attempt_at', '<=', nowIso)
      .where(free)
      .orderBy('e.next_attempt_at')
      .limit(limit)
      .select('e.webhook_ulid', 'e.ulid')) as Array<{ webhook_ulid: string; ulid: string }>;
    const pings = (await db('webhook_events as e')
      .join('webhooks as w', 'w.ulid', 'e.webhook_ulid')
      .where('w.enabled', true)
      .where('e.status', 'pending')
      .whereNull('e.sequence')
      .where('e.next_attempt_at', '<=', nowIso)
      .where(free)
      .orderBy('e.ulid')
      .limit(limit)
      .select('e.webhook_ulid', 'e.ulid')) as Array<{ webhook_ulid: string; ulid: string }>;
    return [...queue.map((r) => ({ ...r, ping: false })), ...pings.map((r) => ({ ...r, ping: true }))];
  }

  /** The head of a subscription's queue when it is due and free, with what sending it needs. */
  async queueHead(db: Db, webhookUlid: string, nowIso: string): Promise<DueEvent | undefined> {
    const head = (await db('webhook_events')
      .where({ webhook_ulid: webhookUlid, status: 'pending' })
      .whereNotNull('sequence')
      .min({ head: 'sequence' })
      .first()) as { head: number | string | null } | undefined;
    if (head?.head === null || head?.head === undefined) return undefined;
    return this.dueEvent(db, (q) => q.where({ 'e.webhook_ulid': webhookUlid, 'e.sequence': head.head }), nowIso);
  }

  /** A pending event by ulid when it is due and free (pings). */
  dueEventByUlid(db: Db, ulid: string, nowIso: string): Promise<DueEvent | undefined> {
    return this.dueEvent(db, (q) => q.where('e.ulid', ulid), nowIso);
  }

  private async dueEvent(db: Db, which: (q: Knex.QueryBuilder) => void, nowIso: string): Promise<DueEvent | undefined> {
    const query = db('webhook_events as e')
      .join('webhooks as w', 'w.ulid', 'e.webhook_ulid')
      .where('w.enabled', true)
      .where('e.status', 'pending')
      .where('e.next_attempt_at', '<=', nowIso)
      .where((q) => q.whereNull('e.locked_until').orWhere('e.locked_until', '<', this.databaseTime(db)))
      .first(
        eventColumns
          .map((c) => `e.${c}`)
          .concat(['w.url', 'w.secret', 'w.secret_sealed', 'w.previous_secret_sealed', 'w.previous_secret_until']),
      );
    which(query);
    const row = (await query) as DueEvent | undefined;
    return row ? toEvent(row) : undefined;
  }

  /**
   * Takes the event's lease for one attempt: `token` names this claim, and the lease lasts
   * `leaseMs` of database time. False when another claim holds it or the event is settled.
   */
  async claim(db: Db, eventUlid: string, token: string, leaseMs: number): Promise<boolean> {
    const changed = await db('webhook_events')
      .where({ ulid: eventUlid, status: 'pending' })
      .where((q) => q.whereNull('locked_until').orWhere('locked_until', '<', this.databaseTime(db)))
      .update({ locked_until: this.databaseTime(db, leaseMs), lease_token: token, attempts: db.raw('attempts + 1') });
    return changed === 1;
  }

  /**
   * Records an attempt's outcome, only while `token` is still the event's claim: an instance whose
   * lease ran out and was taken over writes nothing (its result would overwrite a newer one).
   * Returns whether it was recorded.
   */
  async recordAttempt(
    pool: Knex,
    event: Pick<WebhookEventRecord, 'ulid' | 'webhook_ulid'>,
    token: string,
    outcome: AttemptRecord,
    disableAfter: number,
  ): Promise<boolean> {
    return inTransaction(pool, async (trx) => {
      // The subscription's row first, then its event: the order every change and a subscription's
      // deletion lock them in, so recording a result cannot deadlock with them.
      if (hasRowLocks(this.dialect)) await trx('webhooks').where('ulid', event.webhook_ulid).forUpdate().first('ulid');
      const recorded = await trx('webhook_events')
        .where({ ulid: event.ulid, lease_token: token, status: 'pending' })
        .update({
          status: outcome.status,
          last_status_code: outcome.code,
          last_error: outcome.error?.slice(0, 500) ?? null,
          last_duration_ms: outcome.durationMs,
          next_attempt_at: outcome.nextAttemptAt,
          delivered_at: outcome.status === 'delivered' ? outcome.nowIso : null,
          locked_until: null,
          lease_token: null,
        });
      if (recorded !== 1) return false;
      if (outcome.status === 'delivered') {
        await trx('webhooks').where('ulid', event.webhook_ulid).where('consecutive_failures', '>', 0).update({ consecutive_failures: 0 });
        return true;
      }
      await trx('webhooks')
        .where('ulid', event.webhook_ulid)
        .update({ consecutive_failures: trx.raw('consecutive_failures + 1') });
      await trx('webhooks')
        .where('ulid', event.webhook_ulid)
        .where('enabled', true)
        .where('consecutive_failures', '>=', disableAfter)
        .update({
          enabled: false,
          disabled_reason: `Disabled after ${disableAfter} failed deliveries in a row.`,
          updated_at: outcome.nowIso,
        });
      return true;
    });
  }

  /** Deletes delivered and failed events created before `beforeIso`, at most `limit`; returns how many. */
  async purgeSettled(db: Db, beforeIso: string, limit: number): Promise<number> {
    const rows = (await db('webhook_events')
      .whereIn('status', ['delivered', 'failed'])
      .where('created_at', '<', beforeIso)
      .limit(limit)
      .select('ulid')) as Array<{ ulid: string }>;
    if (rows.length === 0) return 0;
    await db('webhook_events')
      .whereIn(
        'ulid',
        rows.map((r) => r.ulid),
      )
      .delete();
    return rows.length;
  }

  /** The key material (base64) kept in `secret_keys` under `name`, if any (webhooks/secrets.ts). */
  async storedSecretKey(db: Db, name: string): Promise<string | undefined> {
    const row = (await db('secret_keys').where('name', name).first('key_material')) as { key_material: string } | undefined;
    return row?.key_material;
  }

  /** Keeps key material under `name` unless a key is there already (two instances starting together: the first wins). */
  async insertSecretKeyIfAbsent(db: Db, name: string, material: string, createdAt: string): Promise<void> {
    try {
      await db('secret_keys').insert({ name, key_material: material, created_at: createdAt });
    } catch (error) {
      if (storageFailureOf(error) !== 'unique_violation') throw error;
    }
  }

  /** Every subscription's stored secret: sealed, or clear in rows written before sealing existed. */
  async storedSecrets(db: Db): Promise<Array<{ ulid: string; secret: string | null; secret_sealed: string | null }>> {
    return (await db('webhooks').select('ulid', 'secret', 'secret_sealed')) as Array<{
      ulid: string;
      secret: string | null;
      secret_sealed: string | null;
    }>;
  }

  /** Stores a re-sealed secret only if the row still holds `was` (null: no sealed secret); returns whether it did. */
  async resealSecret(db: Db, ulid: string, was: string | null, sealed: string): Promise<boolean> {
    const n = await db('webhooks')
      .where({ ulid })
      .where((q) => (was ? q.where('secret_sealed', was) : q.whereNull('secret_sealed')))
      .update({ secret_sealed: sealed, secret: '' });
    return n === 1;
  }

  /** Events waiting to be delivered, all subscriptions, and the creation time of the oldest (the backlog metric). */
  async pendingBacklog(db: Db): Promise<{ count: number; oldest: string | null }> {
    const row = (await db('webhook_events')
      .where('status', 'pending')
      .first(db.raw('count(*) as count'), db.raw('min(created_at) as oldest'))) as
      | { count: number | string; oldest: string | null }
      | undefined;
    return { count: Number(row?.count ?? 0), oldest: row?.oldest ?? null };
  }
}
