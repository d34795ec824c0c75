/**
 * OpenFeature provider for @openfeature/web-sdk, on top of the client-side client (a client or
 * mobile key: the service evaluates for the static context). The OpenFeature context maps to a
 * Vexil context (targetingKey -> identifier, contextType -> type, other members -> attributes);
 * a context change re-fetches the values (the SDK shows RECONCILING meanwhile). Events: READY,
 * CONFIGURATION_CHANGED (changed keys), ERROR (no values and the service unreachable), STALE.
 *
 *   import { OpenFeature } from '@openfeature/web-sdk';
 *   await OpenFeature.setProviderAndWait(new VexilWebProvider({ baseUrl, apiKey: 'cli_...', storage: localStorage }));
 *   await OpenFeature.setContext({ targetingKey: user.id, plan: user.plan });
 */
import {
  GeneralError,
  InvalidContextError,
  OpenFeatureEventEmitter,
  ProviderEvents,
  TargetingKeyMissingError,
  type ErrorCode,
  type EvaluationContext,
  type Hook,
  type JsonValue as OpenFeatureJsonValue,
  type Provider,
  type ResolutionDetails,
} from '@openfeature/web-sdk';
import { VexilClientSideClient, type ClientSideOptions } from '../client-side-client.js';
import type { EvaluationDetails, JsonValue, VexilError } from '../types.js';
import { fromOpenFeatureContext, toResolution, type MappedContext } from './context.js';

export type VexilWebProviderOptions = Omit<ClientSideOptions, 'context'>;

function resolution<T>(details: EvaluationDetails<T>): ResolutionDetails<T> {
  const r = toResolution(details);
  return { ...r, errorCode: r.errorCode as ErrorCode | undefined };
}

function contextError(mapped: Extract<MappedContext, { ok: false }>): Error {
  return mapped.code === 'TARGETING_KEY_MISSING' ? new TargetingKeyMissingError(mapped.message) : new InvalidContextError(mapped.message);
}

function notReady<T>(defaultValue: T): ResolutionDetails<T> {
  return {
    value: defaultValue,
    reason: 'ERROR',
    errorCode: 'PROVIDER_NOT_READY' as ErrorCode,
    errorMessage: 'The Vexil provider is not initialized.',
  };
}

function isSyncError(error: VexilError): boolean {
  return error.code !== 'USAGE' && error.code !== 'STORAGE' && error.code !== 'BOOTSTRAP';
}

export class VexilWebProvider implements Provider {
  readonly metadata = { name: 'vexil' } as const;
  readonly runsOn = 'client' as const;
  readonly hooks: Hook[] = [];
  readonly events = new OpenFeatureEventEmitter();
  private clientValue: VexilClientSideClient | undefined;
  private initialized = false;
  /** An ERROR was announced (by a failed initialize or a forwarded error) and no READY since. */
  private errorAnnounced = false;
  private reconciling = 0;
  private unsubscribe: (() => void)[] = [];

  constructor(private readonly options: VexilWebProviderOptions) {}

  /** The client-side client (created by initialize). */
  get client(): VexilClientSideClient | undefined {
    return this.clientValue;
  }

  async initialize(context?: EvaluationContext): Promise<void> {
    const mapped = fromOpenFeatureContext(context);
    if (!mapped.ok) throw contextError(mapped);
    const client = new VexilClientSideClient({ ...this.options, context: mapped.context });
    this.clientValue = client;
    this.unsubscribe = [
      client.on('ready', () => {
        this.errorAnnounced = false;
        if (this.initialized && this.reconciling === 0)
          this.events.emit(ProviderEvents.Ready, { message: 'Vexil values confirmed by the service.' });
      }),
      client.on('change', (e) => {
        // values arriving for a new context are announced by the SDK's own CONTEXT_CHANGED
        if (this.initialized && this.reconciling === 0) {
          this.events.emit(ProviderEvents.ConfigurationChanged, { flagsChanged: [...e.keys], metadata: { revision: e.revision } });
        }
      }),
      client.on('stale', (e) => {
        if (this.initialized) this.events.emit(ProviderEvents.Stale, { message: e.message });
      }),
      client.on('error', (e) => {
        if (this.initialized && !this.errorAnnounced && client.status === 'not_ready' && isSyncError(e)) {
          this.errorAnnounced = true;
          this.events.emit(ProviderEvents.Error, { message: e.message, metadata: { code: e.code } });
        }
      }),
    ];
    try {
      const ready = await client.ready();
      if (!ready && client.status === 'not_ready') this.announceDegradedStart(client.lastError?.message);
      if (!ready && client.status === 'stale') {
        const message = client.lastError?.message ?? 'Serving stored values: the service could not be reached.';
        setTimeout(() => {
          if (client.status === 'stale') this.events.emit(ProviderEvents.Stale, { message });
        }, 0);
      }
    } finally {
      this.initialized = true;
    }
  }

  /** Fetches the values for the new context; rejects when they could not be fetched (the SDK then reports an error). */
  async onContextChange(_oldContext: EvaluationContext, newContext: EvaluationContext): Promise<void> {
    const mapped = fromOpenFeatureContext(newContext);
    if (!mapped.ok) throw contextError(mapped);
    const client = this.clientValue;
    if (client === undefined) return;
    this.reconciling++;
    try {
      const ok = await client.setContext(mapped.context);
      if (!ok) throw new GeneralError(`Vexil: values for the new context could not be fetched. ${client.lastError?.message ?? ''}`.trim());
    } finally {
      this.reconciling--;
    }
  }

  /**
   * The service could not be reached at start: the provider still starts (setProviderAndWait
   * resolves, evaluations answer the caller's defaults with PROVIDER_NOT_READY), announces ERROR,
   * and announces READY once the client, which keeps retrying, gets the values.
   */
  private announceDegradedStart(cause: string | undefined): void {
    this.errorAnnounced = true;
    const message = `Vexil: no values yet, serving defaults. ${cause ?? 'The service could not be reached.'}`;
    setTimeout(() => {
      if (this.clientValue?.status === 'not_ready') this.events.emit(ProviderEvents.Error, { message });
    }, 0);
  }

  async onClose(): Promise<void> {
    for (const off of this.unsubscribe) off();
    this.unsubscribe = [];
    await this.clientValue?.close();
  }

  resolveBooleanEvaluation(flagKey: string, defaultValue: boolean): ResolutionDetails<boolean> {
    const client = this.clientValue;
    return client === undefined ? notReady(defaultValue) : resolution(client.booleanDetails(flagKey, defaultValue));
  }

  resolveStringEvaluation(flagKey: string, defaultValue: string): ResolutionDetails<string> {
    const client = this.clientValue;
    return client === undefined ? notReady(defaultValue) : resolution(client.stringDetails(flagKey, defaultValue));
  }

  resolveNumberEvaluation(flagKey: string, defaultValue: number): ResolutionDetails<number> {
    const client = this.clientValue;
    return client === undefined ? notReady(defaultValue) : resolution(client.numberDetails(flagKey, defaultValue));
  }

  resolveObjectEvaluation<T extends OpenFeatureJsonValue>(flagKey: string, defaultValue: T): ResolutionDetails<T> {
    const client = this.clientValue;
    if (client === undefined) return notReady(defaultValue);
    return resolution(client.jsonDetails(flagKey, defaultValue as JsonValue)) as ResolutionDetails<T>;
  }
}

export { fromOpenFeatureContext } from './context.js';
