import type { components } from '../../../generated/management.js';

type WebhookEventType = components['schemas']['WebhookEventType'];

/**
 * The events a subscription can ask for, read from the management document: `WebhookEventType`
 * lists the events (change events and `webhook.ping`), `WebhookEventFilter` what `events` may
 * hold (those, `*`, and family patterns such as `flag.*`).
 */
export class EventTypes {
  /** Audit actions that are webhook events. */
  private readonly changes: ReadonlySet<string>;

  constructor(eventTypes: readonly string[]) {
    this.changes = new Set(eventTypes.filter((type) => type !== 'webhook.ping' && type !== '*'));
  }

  isChangeEvent(action: string): action is WebhookEventType {
    return this.changes.has(action);
  }

  /**
   * Whether a subscription's filters take `type`: `*` takes everything, `family.*` every event
   * whose type starts with `family.` (`flag.*` takes flag.created, not flag_value.created), any
   * other filter only its own type.
   */
  matches(filters: readonly string[], type: string): boolean {
    return filters.some((filter) => filter === '*' || filter === type || (filter.endsWith('.*') && type.startsWith(filter.slice(0, -1))));
  }
}
