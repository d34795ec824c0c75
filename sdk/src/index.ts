/**
 * @vexil/sdk: the Vexil feature-flag SDK for Node 20 and browsers.
 *
 * - createServerClient (server key): local evaluation of the whole environment with the
 *   server's own engine, kept current by the payload stream.
 * - createClientSideClient (mobile or client key): values evaluated by the service for one
 *   context, kept current by the stream, cached in caller-supplied storage.
 * OpenFeature providers: '@vexil/sdk/openfeature/server' and '@vexil/sdk/openfeature/web'.
 */
export { createServerClient, VexilServerClient, type ServerBootstrap, type ServerClientOptions } from './server-client.js';
export {
  createClientSideClient,
  MemoryStorage,
  VexilClientSideClient,
  type ClientSideOptions,
  type StorageLike,
} from './client-side-client.js';
export { REASON_BY_RESOLUTION } from './details.js';
export { backoffDelay } from './backoff.js';
export { SseParser, type SseEvent } from './sse.js';
export type { UsageStats } from './usage.js';
export {
  VexilError,
  type AttributeInput,
  type ChangeEvent,
  type ClientEvents,
  type ClientFlag,
  type ClientPayload,
  type ClientStatus,
  type CommonOptions,
  type CompiledFlag,
  type CompiledSegment,
  type Context,
  type ContextAttribute,
  type ContextAttributeValue,
  type DefaultValueDeclaration,
  type EnvironmentConfig,
  type EvaluationDetails,
  type EvaluationErrorCode,
  type FlagType,
  type JsonValue,
  type Logger,
  type Payload,
  type PayloadEnvironment,
  type Reason,
  type ResolvedBy,
  type SdkContext,
  type ServerPayload,
  type UsageOptions,
  type VexilErrorCode,
} from './types.js';
