import type { components } from '../../../generated/management.js';
import type { ManagementPrincipal } from '../../auth/principal.js';
import type { Clock } from '../../clock.js';
import { FieldErrorList, NotFoundError } from '../../http/errors.js';
import type { Page, PageRequest } from '../../http/pagination.js';
import { newId } from '../../ids.js';
import { requireAdministrator, requireWholeProject } from '../shared/access-rules.js';
import type { LookupStore, ProjectRef } from '../shared/lookup.js';
import type { Auditor, Transactor } from '../shared/transactions.js';
import type { WebhookOutbox } from './outbox.js';
import type { WebhookSecrets } from './secrets.js';
import type { WebhookSettings } from './settings.js';
import { generateWebhookSecret } from './signing.js';
import type { Db } from '../../storage/db.js';
import type { WebhookEventRecord, WebhookRecord, WebhookStore } from './store.js';
import { refuseWebhookUrl, type Resolver } from './url-guard.js';

type Schemas = components['schemas'];

export type WebhookWriteInput = Schemas['WebhookWrite'];

/** The API form of a subscription (the secret is shown only in the creation's answer). */
export function toWebhookView({ project_ulid: _project, ...view }: WebhookRecord): Schemas['Webhook'] {
  return view;
}

/** The API form of an outbox row (the delivery log). */
export function toDeliveryView(e: WebhookEventRecord): Schemas['WebhookDelivery'] {
  return {
    ulid: e.ulid,
    event_type: e.event_type,
    status: e.status,
    sequence: e.sequence,
    attempts: e.attempts,
    last_status_code: e.last_status_code,
    last_error: e.last_error,
    last_duration_ms: e.last_duration_ms,
    next_attempt_at: e.status === 'pending' ? e.next_attempt_at : null,
    delivered_at: e.delivered_at,
    created_at: e.created_at,
  };
}

/** What WebhookService is built from. */
export interface WebhookServiceDeps {
  /** The pool, for reads outside a change. */
  db: Db;
  tx: Transactor;
  /** The path lookups. */
  lookups: LookupStore;
  store: WebhookStore;
  /** Builds the events a redelivery or a ping queues. */
  outbox: WebhookOutbox;
  secrets: WebhookSecrets;
  settings: WebhookSettings;
  clock: Clock;
  /** How a URL's host is resolved before it is checked; the system resolver when absent. */
  resolve?: Resolver;
}

/**
 * Webhook subscriptions of a project: validation, secrets, and the audit of every change.
 * Subscriptions see every environment's changes, so every operation needs the whole project
 * (a token granted only some environments gets 403) and an owner or admin behind the token.
 */
export class WebhookService {
  constructor(private readonly deps: WebhookServiceDeps) {}

  private async project(principal: ManagementPrincipal, projectKey: string): Promise<ProjectRef> {
    const project = await this.deps.lookups.findProject(this.deps.db, principal.access, projectKey);
    requireAdministrator(principal);
    requireWholeProject(principal.access, project.ulid);
    return project;
  }

  private async webhook(project: ProjectRef, ulid: string): Promise<WebhookRecord> {
    const webhook = await this.deps.store.find(this.deps.db, project.ulid, ulid);
    if (!webhook) throw new NotFoundError(`Webhook "${ulid}" not found.`);
    return webhook;
  }

  private subject(project: ProjectRef, action: string, webhook?: Pick<WebhookRecord, 'ulid' | 'url'>) {
    return { action, subjectType: 'webhook', subjectUlid: webhook?.ulid, subjectLabel: webhook?.url, projectUlid: project.ulid };
  }

  /** The URL's host, and environment keys that exist in the project: field-keyed 422s naming the rule. */
  private async check(db: Db, project: ProjectRef, input: WebhookWriteInput): Promise<void> {
    const errors = new FieldErrorList();
    // The document states the form (an http(s) URI without credentials); the rest is a setting or the network.
    const refused = await refuseWebhookUrl(input.url, this.deps.settings, this.deps.resolve);
    if (refused) errors.add('url', refused, 'url_not_allowed');
    const keys = input.environments ?? [];
    if (keys.length > 0) {
      const known = await this.deps.store.existingEnvironmentKeys(db, project.ulid, keys);
      keys.forEach((key, i) => {
        if (!known.has(key)) errors.add(`environments.${i}`, `Environment "${key}" does not exist in this project.`, 'reference_not_found');
      });
    }
    errors.check();
  }

  async list(
    principal: ManagementPrincipal,
    projectKey: string,
    page: PageRequest,
    audit: Pick<Auditor, 'describe'>,
  ): Promise<Page<ReturnType<typeof toWebhookView>>> {
    const project = await this.project(principal, projectKey);
    audit.describe(this.subject(project, 'webhook.listed'));
    const result = await this.deps.store.list(this.deps.db, project.ulid, page);
    return { data: result.data.map(toWebhookView), meta: result.meta };
  }

  async get(principal: ManagementPrincipal, projectKey: string, ulid: string, audit: Pick<Auditor, 'describe'>) {
    const project = await this.project(principal, projectKey);
    const webhook = await this.webhook(project, ulid);
    audit.describe(this.subject(project, 'webhook.read', webhook));
    return toWebhookView(webhook);
  }

  async create(principal: ManagementPrincipal, projectKey: string, input: WebhookWriteInput, audit: Auditor) {
    const project = await this.project(principal, projectKey);
    await this.check(this.deps.db, project, input);
    const now = this.deps.clock.now().toISOString();
    const webhook: WebhookRecord = {
      ulid: newId('webhook'),
      project_ulid: project.ulid,
      url: input.url,
      events: input.events,
      environments: input.environments ?? [],
      description: input.description ?? null,
      enabled: input.enabled ?? true,
      consecutive_failures: 0,
      disabled_reason: null,
      created_at: now,
      updated_at: now,
    };
    const secret = generateWebhookSecret();
    // Sealed before any query carries it: no statement (or error text) ever holds the clear secret.
    const sealed = await this.deps.secrets.seal(webhook.ulid, secret);
    await this.deps.tx.transaction(async (trx) => {
      await this.deps.store.insert(trx, webhook, sealed);
      await audit.commit(trx, { ...this.subject(project, 'webhook.created', webhook), changes: { after: toWebhookView(webhook) } });
    });
    return { ...toWebhookView(webhook), secret };
  }

  async update(principal: ManagementPrincipal, projectKey: string, ulid: string, input: WebhookWriteInput, audit: Auditor) {
    const project = await this.project(principal, projectKey);
    await this.check(this.deps.db, project, input);
    return this.deps.tx.transaction(async (trx) => {
      const current = await this.deps.store.find(trx, project.ulid, ulid, { lock: true });
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
        updated_at: this.deps.clock.now().toISOString(),
      };
      const { ulid: _ulid, project_ulid: _project, created_at: _created, ...change } = updated;
      await this.deps.store.update(trx, current.ulid, change);
      await audit.commit(trx, {
        ...this.subject(project, 'webhook.updated', updated),
        changes: { before: toWebhookView(current), after: toWebhookView(updated) },
      });
      return toWebhookView(updated);
    });
  }

  async delete(principal: ManagementPrincipal, projectKey: string, ulid: string, audit: Auditor): Promise<void> {
    const project = await this.project(principal, projectKey);
    await this.deps.tx.transaction(async (trx) => {
      const current = await this.deps.store.find(trx, project.ulid, ulid, { lock: true });
      if (!current) throw new NotFoundError(`Webhook "${ulid}" not found.`);
      await this.deps.store.remove(trx, ulid);
      await audit.commit(trx, { ...this.subject(project, 'webhook.deleted', current), changes: { before: toWebhookView(current) } });
    });
  }

  async deliveries(principal: ManagementPrincipal, projectKey: string, ulid: string, page: PageRequest, audit: Pick<Auditor, 'describe'>) {
    const project = await this.project(principal, projectKey);
    const webhook = await this.webhook(project, ulid);
    audit.describe(this.subject(project, 'webhook.deliveries_listed', webhook));
    const result = await this.deps.store.listEvents(this.deps.db, webhook.ulid, page);
    return { data: result.data.map(toDeliveryView), meta: result.meta };
  }

  /** Queues a copy of an event as a new delivery (new id), at the end of the subscription's order. */
  async redeliver(principal: ManagementPrincipal, projectKey: string, ulid: string, deliveryUlid: string, audit: Auditor) {
    const project = await this.project(principal, projectKey);
    const webhook = await this.webhook(project, ulid);
    const original = await this.deps.store.findEvent(this.deps.db, webhook.ulid, deliveryUlid);
    if (!original) throw new NotFoundError(`Delivery "${deliveryUlid}" not found.`);
    return this.deps.tx.transaction(async (trx) => {
      // A ping stays a ping (outside the order); a change event takes the next place in it.
      const sequence =
        original.sequence === null
          ? null
          : (await this.deps.store.nextSequences(trx, [webhook.ulid], { enabledOnly: false })).get(webhook.ulid);
      if (sequence === undefined) throw new NotFoundError(`Webhook "${ulid}" not found.`);
      const copy = this.deps.outbox.event(webhook.ulid, original.event_type, original.payload, sequence);
      await this.deps.store.insertEvents(trx, [copy]);
      await audit.commit(trx, {
        ...this.subject(project, 'webhook.redelivered', webhook),
        changes: { after: toDeliveryView(copy) },
      });
      return toDeliveryView(copy);
    });
  }

  /** Queues a test event, outside the subscription's order: it does not wait behind a backlog. */
  async ping(principal: ManagementPrincipal, projectKey: string, ulid: string, audit: Auditor) {
    const project = await this.project(principal, projectKey);
    const webhook = await this.webhook(project, ulid);
    const event = this.deps.outbox.event(
      webhook.ulid,
      'webhook.ping',
      {
        type: 'webhook.ping',
        timestamp: this.deps.clock.now().toISOString(),
        data: {
          project: { ulid: project.ulid, key: project.key },
          environment: null,
          subject: { type: 'webhook', ulid: webhook.ulid, label: webhook.url },
          actor: { type: 'system', ulid: null, name: 'ping' },
          changes: null,
        },
      },
      null,
    );
    await this.deps.tx.transaction(async (trx) => {
      await this.deps.store.insertEvents(trx, [event]);
      await audit.commit(trx, { ...this.subject(project, 'webhook.pinged', webhook), changes: { after: toDeliveryView(event) } });
    });
    return toDeliveryView(event);
  }

  /**
   * A new signing secret, shown once. The previous one keeps signing beside it for
   * `gracePeriodSeconds` (receivers accept either while they switch); 0 ends it at once. A
   * rotation during another's grace period drops the older secret.
   */
  async rotateSecret(principal: ManagementPrincipal, projectKey: string, ulid: string, gracePeriodSeconds: number, audit: Auditor) {
    const project = await this.project(principal, projectKey);
    const webhook = await this.webhook(project, ulid);
    const secret = generateWebhookSecret();
    // Sealed before any query carries it, like the secret of a creation.
    const sealed = await this.deps.secrets.seal(webhook.ulid, secret);
    const now = this.deps.clock.now();
    const until = gracePeriodSeconds > 0 ? new Date(now.getTime() + gracePeriodSeconds * 1000).toISOString() : null;
    await this.deps.tx.transaction(async (trx) => {
      const current = await this.deps.store.secrets(trx, webhook.ulid);
      if (!current) throw new NotFoundError(`Webhook "${ulid}" not found.`);
      // A secret written before sealing existed is sealed now, to be kept as the previous one.
      const previous =
        until === null
          ? null
          : (current.secret_sealed ?? (current.secret ? await this.deps.secrets.seal(webhook.ulid, current.secret) : null));
      await this.deps.store.rotateSecret(trx, webhook.ulid, {
        secretSealed: sealed,
        previousSealed: previous,
        previousUntil: previous === null ? null : until,
        updatedAt: now.toISOString(),
      });
      await audit.commit(trx, {
        ...this.subject(project, 'webhook.secret_rotated', webhook),
        changes: { after: { previous_secret_expires_at: previous === null ? null : until } },
      });
    });
    return { secret, previous_secret_expires_at: until };
  }
}
