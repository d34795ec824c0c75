import type { AuditTrail } from '../../audit/audit-trail.js';
import type { ResourceAccess } from '../../auth/principal.js';
import type { Clock } from '../../clock.js';
import { NotFoundError, ValidationError } from '../../http/errors.js';
import type { Page, PageRequest } from '../../http/pagination.js';
import { newId } from '../../ids.js';
import { findProject, type ProjectRef } from '../shared/lookup.js';
import type { WebhookOutbox } from './outbox.js';
import type { WebhookSettings } from './settings.js';
import { generateWebhookSecret } from './signing.js';
import type { WebhookEventRecord, WebhookRecord, WebhookStore } from './store.js';
import { refuseWebhookUrl } from './url-guard.js';

export interface WebhookWriteInput {
  url: string;
  events: string[];
  environments?: string[];
  description?: string | null;
  enabled?: boolean;
}

export interface Caller {
  access: ResourceAccess;
  audit: AuditTrail;
}

/** The API form of a subscription: everything but the secret. */
export function toWebhookView({ secret: _secret, project_ulid: _project, ...view }: WebhookRecord) {
  return view;
}

/** The API form of an outbox row (the delivery log). */
export function toDeliveryView(e: WebhookEventRecord) {
  return {
    ulid: e.ulid,
    event_type: e.event_type,
    status: e.status,
    attempts: e.attempts,
    last_status_code: e.last_status_code,
    last_error: e.last_error,
    last_duration_ms: e.last_duration_ms,
    next_attempt_at: e.status === 'pending' ? e.next_attempt_at : null,
    delivered_at: e.delivered_at,
    created_at: e.created_at,
  };
}

/** Webhook subscriptions of a project: validation, secrets, and the audit of every change. */
export class WebhookService {
  constructor(
    private readonly store: WebhookStore,
    private readonly outbox: WebhookOutbox,
    private readonly settings: WebhookSettings,
    private readonly clock: Clock,
  ) {}

  private async project(caller: Caller, projectKey: string): Promise<ProjectRef> {
    return findProject(this.store.db, caller.access, projectKey);
  }

  private async webhook(project: ProjectRef, ulid: string): Promise<WebhookRecord> {
    const webhook = await this.store.find(this.store.db, project.ulid, ulid);
    if (!webhook) throw new NotFoundError(`Webhook "${ulid}" not found.`);
    return webhook;
  }

  private subject(project: ProjectRef, action: string, webhook?: Pick<WebhookRecord, 'ulid' | 'url'>) {
    return { action, subjectType: 'webhook', subjectUlid: webhook?.ulid, subjectLabel: webhook?.url, projectUlid: project.ulid };
  }

  private async checkUrl(url: string): Promise<void> {
    const refused = await refuseWebhookUrl(url, this.settings);
    // The document states the form (an http(s) URI without credentials); the rest is a setting or the network.
    if (refused) throw ValidationError.field('url', refused, 'url_not_allowed');
  }

  async list(caller: Caller, projectKey: string, page: PageRequest): Promise<Page<ReturnType<typeof toWebhookView>>> {
    const project = await this.project(caller, projectKey);
    caller.audit.describe(this.subject(project, 'webhook.listed'));
    const result = await this.store.list(project.ulid, page);
    return { data: result.data.map(toWebhookView), meta: result.meta };
  }

  async get(caller: Caller, projectKey: string, ulid: string) {
    const project = await this.project(caller, projectKey);
    const webhook = await this.webhook(project, ulid);
    caller.audit.describe(this.subject(project, 'webhook.read', webhook));
    return toWebhookView(webhook);
  }

  async create(caller: Caller, projectKey: string, input: WebhookWriteInput) {
    const project = await this.project(caller, projectKey);
    await this.checkUrl(input.url);
    const now = this.clock.now().toISOString();
    const webhook: WebhookRecord = {
      ulid: newId('webhook'),
      project_ulid: project.ulid,
      url: input.url,
      events: input.events,
      environments: input.environments ?? [],
      description: input.description ?? null,
      enabled: input.enabled ?? true,
      secret: generateWebhookSecret(),
      consecutive_failures: 0,
      disabled_reason: null,
      created_at: now,
      updated_at: now,
    };
    await this.store.transaction(async (trx) => {
      await this.store.insert(trx, webhook);
      await caller.audit.commit(trx, this.subject(project, 'webhook.created', webhook));
    });
    return { ...toWebhookView(webhook), secret: webhook.secret };
  }

  async update(caller: Caller, projectKey: string, ulid: string, input: WebhookWriteInput) {
    const project = await this.project(caller, projectKey);
    await this.checkUrl(input.url);
    return this.store.transaction(async (trx) => {
      const current = await this.store.find(trx, project.ulid, ulid);
      if (!current) throw new NotFoundError(`Webhook "${ulid}" not found.`);
      const enabled = input.enabled ?? true;
      const reenabled = enabled && !current.enabled;
      const updated: WebhookRecord = {
        ...current,
        url: input.url,
        events: input.events,
        environments: input.environments ?? [],
        description: input.description ?? null,
        enabled,
        consecutive_failures: reenabled ? 0 : current.consecutive_failures,
        disabled_reason: enabled ? null : current.disabled_reason,
        updated_at: this.clock.now().toISOString(),
      };
      await this.store.replace(trx, updated);
      await caller.audit.commit(trx, this.subject(project, 'webhook.updated', updated));
      return toWebhookView(updated);
    });
  }

  async delete(caller: Caller, projectKey: string, ulid: string): Promise<void> {
    const project = await this.project(caller, projectKey);
    await this.store.transaction(async (trx) => {
      const current = await this.store.find(trx, project.ulid, ulid);
      if (!current) throw new NotFoundError(`Webhook "${ulid}" not found.`);
      await this.store.remove(trx, ulid);
      await caller.audit.commit(trx, this.subject(project, 'webhook.deleted', current));
    });
  }

  async deliveries(caller: Caller, projectKey: string, ulid: string, page: PageRequest) {
    const project = await this.project(caller, projectKey);
    const webhook = await this.webhook(project, ulid);
    caller.audit.describe(this.subject(project, 'webhook.deliveries_listed', webhook));
    const result = await this.store.listEvents(webhook.ulid, page);
    return { data: result.data.map(toDeliveryView), meta: result.meta };
  }

  /** Queues a copy of an event as a new delivery (new id), behind the subscription's waiting events. */
  async redeliver(caller: Caller, projectKey: string, ulid: string, deliveryUlid: string) {
    const project = await this.project(caller, projectKey);
    const webhook = await this.webhook(project, ulid);
    const original = await this.store.findEvent(webhook.ulid, deliveryUlid);
    if (!original) throw new NotFoundError(`Delivery "${deliveryUlid}" not found.`);
    const copy = this.outbox.event(webhook.ulid, original.event_type, JSON.parse(original.payload));
    await this.store.transaction(async (trx) => {
      await this.store.insertEvents(trx, [copy]);
      await caller.audit.commit(trx, this.subject(project, 'webhook.redelivered', webhook));
    });
    return toDeliveryView(copy);
  }

  async ping(caller: Caller, projectKey: string, ulid: string) {
    const project = await this.project(caller, projectKey);
    const webhook = await this.webhook(project, ulid);
    const event = this.outbox.event(webhook.ulid, 'webhook.ping', {
      type: 'webhook.ping',
      timestamp: this.clock.now().toISOString(),
      data: {
        project: { ulid: project.ulid, key: project.key },
        environment: null,
        subject: { type: 'webhook', ulid: webhook.ulid, label: webhook.url },
        actor: { type: 'system', ulid: null, name: 'ping' },
        changes: null,
      },
    });
    await this.store.transaction(async (trx) => {
      await this.store.insertEvents(trx, [event]);
      await caller.audit.commit(trx, this.subject(project, 'webhook.pinged', webhook));
    });
    return toDeliveryView(event);
  }
}
