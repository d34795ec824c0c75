import type { AuditChanges, AuditEntryInput } from '../../audit/audit-trail.js';
import type { Clock } from '../../clock.js';
import { newId } from '../../ids.js';
import type { Db, WebhookEventRecord, WebhookRecord, WebhookStore } from './store.js';

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

function actorOf(entry: AuditEntryInput): WebhookPayload['data']['actor'] {
  if (entry.actorType === 'system' || !entry.principal) return { type: 'system', ulid: null, name: 'system' };
  const principal = entry.principal;
  return principal.type === 'management_token'
    ? { type: 'management_token', ulid: principal.tokenUlid, name: principal.tokenName }
    : { type: 'account', ulid: principal.account.ulid, name: principal.account.name };
}

function wants(webhook: WebhookRecord, type: string, environmentKey: string | null): boolean {
  if (!webhook.events.includes('*') && !webhook.events.includes(type)) return false;
  return webhook.environments.length === 0 || environmentKey === null || webhook.environments.includes(environmentKey);
}

/**
 * Writes the webhook events of a change into the outbox, inside the change's own transaction
 * (the audit writer calls it for every change it records), so a committed change always has its
 * events and a rolled-back one never does.
 */
export class WebhookOutbox {
  constructor(
    private readonly store: WebhookStore,
    private readonly clock: Clock,
    /** Audit actions that are webhook events (the document's WebhookEventType). */
    private readonly eventTypes: ReadonlySet<string>,
  ) {}

  async record(db: Db, entry: AuditEntryInput): Promise<void> {
    if (!entry.projectUlid || !this.eventTypes.has(entry.action)) return;
    const subscribers = await this.store.subscribers(db, entry.projectUlid);
    if (subscribers.length === 0) return;
    const project = (await db('projects').where('ulid', entry.projectUlid).first('ulid', 'key')) as { ulid: string; key: string } | undefined;
    if (!project) return;
    const environment = entry.environmentUlid
      ? ((await db('environments').where('ulid', entry.environmentUlid).first('ulid', 'key')) as { ulid: string; key: string } | undefined) ?? null
      : null;
    const targets = subscribers.filter((w) => wants(w, entry.action, environment?.key ?? null));
    if (targets.length === 0) return;
    const payload: WebhookPayload = {
      type: entry.action,
      timestamp: this.clock.now().toISOString(),
      data: {
        project,
        environment,
        subject: { type: entry.subjectType ?? null, ulid: entry.subjectUlid ?? null, label: entry.subjectLabel ?? null },
        actor: actorOf(entry),
        changes: entry.changes ?? null,
      },
    };
    await this.store.insertEvents(db, targets.map((w) => this.event(w.ulid, entry.action, payload)));
  }

  /** A new outbox row, due at once. */
  event(webhookUlid: string, type: string, payload: WebhookPayload): WebhookEventRecord {
    const now = this.clock.now().toISOString();
    return {
      ulid: newId('webhookEvent'),
      webhook_ulid: webhookUlid,
      event_type: type,
      payload: JSON.stringify(payload),
      status: 'pending',
      attempts: 0,
      next_attempt_at: now,
      locked_until: null,
      last_status_code: null,
      last_error: null,
      last_duration_ms: null,
      delivered_at: null,
      created_at: now,
    };
  }
}
