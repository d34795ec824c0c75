/**
 * OpenFeature provider for @openfeature/server-sdk, on top of the server-side client (local
 * evaluation). Events: PROVIDER_READY (payload confirmed by the service, also after recovering),
 * PROVIDER_CONFIGURATION_CHANGED (with the changed flag keys), PROVIDER_ERROR (no payload and the
 * service unreachable or the key refused), PROVIDER_STALE (serving the last good payload or the
 * bootstrap while the service is unreachable). Reasons: TARGETING_MATCH (rule), SPLIT (rollout, or
 * a weighted split: variant = the split's variant), STATIC (target), DEFAULT (default),
 * PREREQUISITE_FAILED (prerequisite); flag metadata carries resolved_by, type and revision, and
 * split_weight after a split.
 *
 *   import { OpenFeature } from '@openfeature/server-sdk';
 *   await OpenFeature.setProviderAndWait(new VexilServerProvider({ baseUrl, apiKey: 'srv_...' }));
 */
import {
  OpenFeatureEventEmitter,
  ProviderEvents,
  type ErrorCode,
  type EvaluationContext,
  type Hook,
  type JsonValue as OpenFeatureJsonValue,
  type Provider,
  type ResolutionDetails,
} from '@openfeature/server-sdk';
import { VexilServerClient, type ServerClientOptions } from '../server-client.js';
import type { EvaluationDetails, JsonValue, VexilError } from '../types.js';
import { fromOpenFeatureContext, toResolution } from './context.js';

function resolution<T>(details: EvaluationDetails<T>): ResolutionDetails<T> {
  const r = toResolution(details);
  return { ...r, errorCode: r.errorCode as ErrorCode | undefined };
}

/** Errors that leave the payload usable are not provider errors. */
function isSyncError(error: VexilError): boolean {
  return error.code !== 'USAGE' && error.code !== 'STORAGE' && error.code !== 'BOOTSTRAP';
}

export class VexilServerProvider implements Provider {
  readonly metadata = { name: 'vexil' } as const;
  readonly runsOn = 'server' as const;
  readonly hooks: Hook[] = [];
  readonly events = new OpenFeatureEventEmitter();
  /** The client the provider evaluates with. */
  readonly client: VexilServerClient;
  private readonly ownsClient: boolean;
  private initialized = false;
  /** An ERROR was announced (by a failed initialize or a forwarded error) and no READY since. */
  private errorAnnounced = false;
  private readonly unsubscribe: (() => void)[];

  /** Give options (the provider creates and owns the client) or an existing client (shared, not closed by the provider). */
  constructor(clientOrOptions: VexilServerClient | ServerClientOptions) {
    this.ownsClient = !(clientOrOptions instanceof VexilServerClient);
    this.client = clientOrOptions instanceof VexilServerClient ? clientOrOptions : new VexilServerClient(clientOrOptions);
    this.unsubscribe = [
      this.client.on('ready', () => {
        this.errorAnnounced = false;
        if (this.initialized) this.events.emit(ProviderEvents.Ready, { message: 'Vexil payload confirmed by the service.' });
      }),
      this.client.on('change', (e) => {
        if (this.initialized) {
          this.events.emit(ProviderEvents.ConfigurationChanged, { flagsChanged: [...e.keys], metadata: { revision: e.revision } });
        }
      }),
      this.client.on('stale', (e) => {
        if (this.initialized) this.events.emit(ProviderEvents.Stale, { message: e.message });
      }),
      this.client.on('error', (e) => {
        if (this.initialized && !this.errorAnnounced && this.client.status === 'not_ready' && isSyncError(e)) {
          this.errorAnnounced = true;
          this.events.emit(ProviderEvents.Error, { message: e.message, metadata: { code: e.code } });
        }
      }),
    ];
  }

  /** Waits for the first attempt to reach the service; fails (status ERROR) when there is nothing to serve. */
  async initialize(_context?: EvaluationContext): Promise<void> {
    try {
      const ready = await this.client.ready();
      if (!ready && this.client.status === 'not_ready') this.announceDegradedStart(this.client.lastError?.message);
      if (!ready && this.client.status === 'stale') {
        // serving the bootstrap: READY first (the SDK emits it when initialize resolves), then STALE
        const message = this.client.lastError?.message ?? 'Serving the bootstrap: the service could not be reached.';
        setTimeout(() => {
          if (this.client.status === 'stale') this.events.emit(ProviderEvents.Stale, { message });
        }, 0);
      }
    } finally {
      this.initialized = true;
    }
  }

  /**
   * The service could not be reached at start: the provider still starts (setProviderAndWait
   * resolves, evaluations answer the caller's defaults with PROVIDER_NOT_READY), announces ERROR,
   * and announces READY once the client, which keeps retrying, gets the payload.
   */
  private announceDegradedStart(cause: string | undefined): void {
    this.errorAnnounced = true;
    const message = `Vexil: no payload yet, serving defaults. ${cause ?? 'The service could not be reached.'}`;
    setTimeout(() => {
      if (this.client?.status === 'not_ready') this.events.emit(ProviderEvents.Error, { message });
    }, 0);
  }

  async onClose(): Promise<void> {
    for (const off of this.unsubscribe) off();
    if (this.ownsClient) await this.client.close();
  }

  async resolveBooleanEvaluation(flagKey: string, defaultValue: boolean, context: EvaluationContext): Promise<ResolutionDetails<boolean>> {
    const mapped = fromOpenFeatureContext(context);
    if (!mapped.ok) return { value: defaultValue, reason: 'ERROR', errorCode: mapped.code as ErrorCode, errorMessage: mapped.message };
    return resolution(this.client.booleanDetails(flagKey, mapped.context, defaultValue));
  }

  async resolveStringEvaluation(flagKey: string, defaultValue: string, context: EvaluationContext): Promise<ResolutionDetails<string>> {
    const mapped = fromOpenFeatureContext(context);
    if (!mapped.ok) return { value: defaultValue, reason: 'ERROR', errorCode: mapped.code as ErrorCode, errorMessage: mapped.message };
    return resolution(this.client.stringDetails(flagKey, mapped.context, defaultValue));
  }

  async resolveNumberEvaluation(flagKey: string, defaultValue: number, context: EvaluationContext): Promise<ResolutionDetails<number>> {
    const mapped = fromOpenFeatureContext(context);
    if (!mapped.ok) return { value: defaultValue, reason: 'ERROR', errorCode: mapped.code as ErrorCode, errorMessage: mapped.message };
    return resolution(this.client.numberDetails(flagKey, mapped.context, defaultValue));
  }

  async resolveObjectEvaluation<T extends OpenFeatureJsonValue>(
    flagKey: string,
    defaultValue: T,
    context: EvaluationContext,
  ): Promise<ResolutionDetails<T>> {
    const mapped = fromOpenFeatureContext(context);
    if (!mapped.ok) return { value: defaultValue, reason: 'ERROR', errorCode: mapped.code as ErrorCode, errorMessage: mapped.message };
    return resolution(this.client.jsonDetails(flagKey, mapped.context, defaultValue as JsonValue)) as ResolutionDetails<T>;
  }
}

export { fromOpenFeatureContext } from './context.js';
