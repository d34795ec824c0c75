import type { AuditChanges, AuditEntryInput } from '../../audit/audit-trail.js';
import type { Clock } from '../../clock.js';
import { newId } from '../../ids.js';
import type { EventTypes } from './event-types.js';
import type { Db } from '../../storage/db.js';
import type { WebhookEventRecord, WebhookRecord, WebhookStore } from './store.js';

/** The body every delivery carries (Standard Webhooks: type, timestamp, data). */
export interface WebhookPayload {
  type: string;
  timestamp: string;
  data: {
    project: { ulid: string; key: string };
    environment: { ulid: string; key: string } | null;
    subject: { type: string | null; ulid: string | null; label: string | null };
    actor: { type: string; ulid: string | null; name: string | null };
    /** The subject before and after, and the publish comment (the audit entry's record). */
    changes: AuditChanges | null;
  };
}

type Ref = { ulid: string; key: string };

function actorOf(entry: AuditEntryInput): WebhookPayload['data']['actor'] {
  if (entry.actorType === 'system' || !entry.principal) return { type: 'system', ulid: null, name: 'system' };
  const principal = entry.principal;
  return principal.type === 'management_token'
    ? { type: 'management_token', ulid: principal.tokenUlid, name: principal.tokenName }
    : { type: 'account', ulid: principal.account.ulid, name: principal.account.name };
}

function wants(webhook: WebhookRecord, types: EventTypes, type: string, environmentKey: string | null): boolean {
  if (!types.matches(webhook.events, type)) return false;
  return webhook.environments.length === 0 || environmentKey === null || webhook.environments.includes(environmentKey);
}

/**
 * The environment an entry concerns. A deleted environment is no longer in its table when the
 * entry is written (the deletion comes first in the transaction): its key is taken from the
 * entry's record of it, so environment filters still apply to `environment.deleted`.
 */
async function environmentOf(store: WebhookStore, db: Db, entry: AuditEntryInput): Promise<Ref | null> {
  if (!entry.environmentUlid) return null;
  const row = await store.environmentRef(db, entry.environmentUlid);
  if (row) return row;
  const before = entry.changes?.before as Partial<Ref> | undefined;
  if (entry.subjectType === 'environment' && before?.ulid === entry.environmentUlid && typeof before.key === 'string') {
    return { ulid: before.ulid, key: before.key };
  }
  return null;
}

/**
 * Writes the webhook events of a change into the outbox, inside the change's own transaction
 * (the audit writer calls it for every change it records), so a committed change always has its
 * events and a rolled-back one never does. Each event is numbered in its subscription's order
 * under the subscription's row lock, so the order is the order in which the changes commit.
 */
export class WebhookOutbox {
  constructor(
    private readonly store: WebhookStore,
    private readonly clock: Clock,
    private readonly types: EventTypes,
  ) {}

  async record(db: Db, entry: AuditEntryInput): Promise<void> {
    const type = entry.action;
    if (!entry.projectUlid || !this.types.isChangeEvent(type)) return;
    const subscribers = await this.store.subscribers(db, entry.projectUlid);
    if (subscribers.length === 0) return;
    const project = await this.store.projectRef(db, entry.projectUlid);
    if (!project) return;
    const environment = await environmentOf(this.store, db, entry);
    const targets = subscribers.filter((w) => wants(w, this.types, type, environment?.key ?? null));
    if (targets.length === 0) return;
    const payload: WebhookPayload = {
      type,
      timestamp: this.clock.now().toISOString(),
      data: {
        project,
        environment,
        subject: { type: entry.subjectType ?? null, ulid: entry.subjectUlid ?? null, label: entry.subjectLabel ?? null },
        actor: actorOf(entry),
        changes: entry.changes ?? null,
      },
    };
    const sequences = await this.store.nextSequences(
      db,
      targets.map((w) => w.ulid),
      { enabledOnly: true },
    );
    const body = JSON.stringify(payload);
    const events = [...sequences].map(([webhookUlid, sequence]) => this.event(webhookUlid, type, body, sequence));
    await this.store.insertEvents(db, events);
  }

  /** A new outbox row, due at once; `sequence` null for a ping (outside the subscription's order). */
  event(
    webhookUlid: string,
    type: WebhookEventRecord['event_type'],
    payload: WebhookPayload | string,
    sequence: number | null,
  ): WebhookEventRecord {
    const now = this.clock.now().toISOString();
    return {
      ulid: newId('webhookEvent'),
      webhook_ulid: webhookUlid,
      event_type: type,
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
      status: 'pending',
      sequence,
      attempts: 0,
      next_attempt_at: now,
      last_status_code: null,
      last_error: null,
      last_duration_ms: null,
      delivered_at: null,
      created_at: now,
    };
  }
}
