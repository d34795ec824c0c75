import type { components as managementComponents, operations as managementOperations } from '../../../generated/management.js';
import type { components as publicComponents, operations as publicOperations } from '../../../generated/public.js';
import type { EnvironmentKeyCache } from '../../auth/environment-key-cache.js';
import { readApiKey } from '../../auth/public-auth.js';
import { auditActionByOperation } from '../../audit/actions.js';
import { describePublicAudit } from '../../audit/public-audit.js';
import type { Context } from '../../engine/index.js';
import { BadRequestError, OfrepError, InvalidQueryError, ValidationError, publicMessages } from '../../http/errors.js';
import type { ManagementHandlers, PublicHandlers } from '../../http/handler-map.js';
import { jsonText } from '../../http/json-text.js';
import type { FastReadRequest, ManagementRequest, PublicRequest } from '../../http/operation.js';
import type { StreamHub } from '../../runtime/stream-hub.js';
import { ofrepContext, type EvaluationBody, type EvaluationInputs, type InputDecoder } from './inputs.js';
import type { OfrepService } from './ofrep-service.js';
import type { PreviewService } from './preview-service.js';
import type { EvaluationService } from './service.js';
import { platformOf } from './visible-flags.js';

type FlagParams = publicOperations['getEvaluatedFlag']['parameters']['path'];
type UsageBody = publicComponents['schemas']['UsageReport'] | undefined;
type EvaluateParams = managementOperations['evaluateFlag']['parameters']['path'];
type OfrepBulkBody = publicOperations['ofrepEvaluateFlags']['responses'][200]['content']['application/json'];
/** A POST twin's request: the context and default values in an EvaluationRequest body. */
type TwinRequest<P = Record<string, string>> = PublicRequest<P, Record<string, unknown>, EvaluationBody | undefined>;
type ManagementEvaluateBody = managementOperations['evaluateFlagForContext']['requestBody'];
type ManagementContextBody = NonNullable<ManagementEvaluateBody>['content']['application/json'] | undefined;

const json = { 'Content-Type': 'application/json; charset=utf-8' };

/**
 * OFREP evaluations are per key and context (specs/public.yaml, OfrepCacheControl, OfrepVary):
 * no shared cache keeps them, a client revalidates (bulk: with the ETag). Vary is appended, so
 * CORS's `Origin` stays.
 */
const ofrepCacheControl = 'private, no-cache';
const ofrepVary = ['X-VEXIL-API-KEY', 'X-API-KEY', 'X-VEXIL-KEY'];

function ofrepCaching(request: Pick<FastReadRequest, 'ctx'>, headers: Record<string, string> = {}): Record<string, string> {
  request.ctx.vary(ofrepVary);
  return { ...headers, 'Cache-Control': ofrepCacheControl };
}

/**
 * The server payload's bytes, encoded once per payload text and key rather than per request
 * (Koa would measure and encode the whole text on every response). Held per principal, so an
 * entry goes when the key cache drops the key; the text is compared so a new snapshot re-encodes.
 */
const payloadBytes = new WeakMap<object, { text: string; bytes: Buffer }>();

export function serverPayloadBytes(holder: object, text: string): Buffer {
  const cached = payloadBytes.get(holder);
  if (cached && cached.text === text) return cached.bytes;
  const bytes = Buffer.from(text, 'utf8');
  payloadBytes.set(holder, { text, bytes });
  return bytes;
}

export interface EvaluationHandlerDeps {
  service: EvaluationService;
  decoder: InputDecoder;
  hub: StreamHub;
  keyCache: EnvironmentKeyCache;
  ofrep: OfrepService;
  preview: PreviewService;
}

/** Public handlers (specs/public.yaml), keyed by operationId. */
export function publicEvaluationHandlers({ service, ofrep, decoder, hub, keyCache }: EvaluationHandlerDeps) {
  /**
   * Names the flag of the request's public audit entry from the snapshot (spares the writer a
   * lookup). A key the snapshot does not hold (unknown, or a flag the snapshot has not taken in
   * yet) is left to the writer, which looks it up by key once per batch.
   */
  const nameAuditedFlag = async (request: Pick<FastReadRequest, 'principal' | 'ctx'>, flagKey: string): Promise<void> => {
    // From memory without an await when the snapshot is there (every request but the first).
    const entry = service.heldEnvironment(request.principal) ?? (await service.environment(request.principal));
    const flagUlid = entry.flagUlids.get(flagKey);
    if (flagUlid !== undefined) describePublicAudit(request.ctx, { subjectUlid: flagUlid });
  };

  /** The inputs of a header operation: the context header first, then the default-value header. */
  const headerInputs = (request: Pick<PublicRequest, 'headers'>): EvaluationInputs => ({
    context: decoder.contextHeader(request.headers),
    defaults: decoder.defaultsHeader(request.headers),
  });

  // Each header operation and its POST twin (inputs in the body) answer through the same function.
  const listEvaluated = async (request: Pick<PublicRequest, 'principal'>, { context, defaults }: EvaluationInputs) => ({
    headers: json,
    body: await service.listEvaluated(request.principal, context, defaults),
  });

  const evaluatedFlag = async (request: FastReadRequest<FlagParams>, { context, defaults }: EvaluationInputs) => {
    await nameAuditedFlag(request, request.params.flagKey);
    return { headers: json, body: await service.getEvaluated(request.principal, request.params.flagKey, context, defaults) };
  };

  const payload = async (request: Pick<PublicRequest, 'principal' | 'headers'>, sent: EvaluationInputs) => {
    // Validated for every key; server keys get the compiled configuration, so they are not used.
    const server = request.principal.kind === 'server';
    const context = server ? null : sent.context;
    const defaults = server ? [] : sent.defaults;
    const result = await service.payload(request.principal, context, defaults, request.headers['if-none-match']);
    if (result.notModified) return { status: 304, headers: { ETag: result.etag } };
    if (result.bytes !== undefined) return { headers: { ...json, ETag: result.etag }, body: result.bytes };
    return { headers: { ...json, ETag: result.etag }, body: serverPayloadBytes(request.principal, result.json) };
  };

  return {
    listEvaluatedFlags: (request: FastReadRequest) => listEvaluated(request, headerInputs(request)),
    evaluateFlags: (request: TwinRequest) => listEvaluated(request, decoder.evaluationBody(request.body)),

    getEvaluatedFlag: (request: FastReadRequest<FlagParams>) => evaluatedFlag(request, headerInputs(request)),
    evaluateFlag: (request: TwinRequest<FlagParams>) => evaluatedFlag(request, decoder.evaluationBody(request.body)),

    async recordFlagUsage(request: PublicRequest<FlagParams, unknown, UsageBody>) {
      const body: NonNullable<UsageBody> = request.body ?? {};
      let context = null;
      if (body.context !== undefined) {
        context = decoder.contextOf(body.context) ?? null;
        // The router validated the body against UsageReport already; this is the engine's check.
        if (!context) throw new BadRequestError(publicMessages.invalidContext);
      }
      const exposed = [];
      for (const raw of body.contexts ?? []) {
        const parsed = decoder.contextOf(raw);
        if (!parsed) throw new BadRequestError(publicMessages.invalidContext);
        exposed.push(parsed);
      }
      await nameAuditedFlag(request, request.params.flagKey);
      await service.recordUsage(request.principal, request.params.flagKey, body.count ?? 1, context, exposed);
      return { body: { status: 'success' } };
    },

    getPayload: (request: FastReadRequest) => payload(request, headerInputs(request)),
    getPayloadForContext: (request: TwinRequest) => payload(request, decoder.evaluationBody(request.body)),

    async streamPayloadChanges(request: PublicRequest) {
      const server = request.principal.kind === 'server';
      const sentContext = decoder.contextHeader(request.headers);
      const sentDefaults = decoder.defaultsHeader(request.headers);
      const context = server ? null : sentContext;
      const defaults = server ? [] : sentDefaults;
      const principal = request.principal;
      const entry = await service.environment(principal);
      const platform = platformOf(principal);
      const secret = readApiKey(request.ctx);

      const ctx = request.ctx;
      // The response is written directly (Koa's stream piping reports every client disconnect as an error).
      ctx.respond = false;
      ctx.status = 200;
      ctx.req.socket.setTimeout(0);
      ctx.req.socket.setNoDelay(true);
      ctx.req.socket.setKeepAlive(true);
      const res = ctx.res;
      res.writeHead(200, {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-cache',
        Connection: 'keep-alive',
        'X-Accel-Buffering': 'no',
      });
      const close = hub.open(
        {
          environmentUlid: principal.environmentUlid,
          sink: {
            write: (text) => {
              if (!res.writableEnded && !res.destroyed) res.write(text);
            },
            end: () => {
              if (!res.writableEnded) res.end();
            },
          },
          etagFor: (snapshot) => service.payloadEtag(snapshot, platform, context, defaults),
          authorized: () => keyCache.resolve(secret)?.keyUlid === principal.keyUlid,
        },
        entry,
      );
      res.on('close', close);
      // The client may already have gone while the stream was being set up.
      if (res.destroyed) close();
      return { streamed: true };
    },

    async ofrepEvaluateFlag(request: PublicRequest<{ key: string }>) {
      const parsed = ofrepContext(request.body);
      if (!parsed.ok) throw new OfrepError(400, parsed.errorCode, parsed.details, request.params.key);
      await nameAuditedFlag(request, request.params.key);
      const result = await ofrep.evaluate(request.principal, request.params.key, parsed.context);
      return { headers: ofrepCaching(request), body: result };
    },

    async ofrepEvaluateFlags(request: FastReadRequest) {
      const parsed = ofrepContext(request.body);
      if (!parsed.ok) throw new OfrepError(400, parsed.errorCode, parsed.details);
      // Equal contexts as one object: the answer for a context asked for again is kept.
      const result = await ofrep.evaluateAll(request.principal, decoder.shared(parsed.context), request.headers['if-none-match']);
      if (result.notModified) return { status: 304, headers: ofrepCaching(request, { ETag: result.etag }) };
      const headers = ofrepCaching(request, { ...json, ETag: result.etag });
      if ('bytes' in result) return { headers, body: jsonText<OfrepBulkBody, Buffer>(result.bytes) };
      return { headers, body: { flags: result.flags } };
    },
  } satisfies Partial<PublicHandlers>;
}

/** Management handlers: evaluateFlag and its twin evaluateFlagForContext (specs/management.yaml). */
export function managementEvaluationHandlers({ decoder, preview }: EvaluationHandlerDeps) {
  /** Evaluates and audits; `readContext` runs once the path is resolved (GET: a 404 wins over a bad context). */
  const evaluate = async (request: ManagementRequest<EvaluateParams>, readContext: () => Context | null) => {
    const action = auditActionByOperation[request.operation.operationId] ?? 'flag.evaluated';
    const data = await preview.evaluate(request.principal, request.params, readContext, action, request.audit);
    return { body: { status: 'success', data } satisfies managementComponents['schemas']['EvaluationResultResponse'] };
  };

  return {
    evaluateFlag: (request: ManagementRequest<EvaluateParams, { context?: string }>) =>
      evaluate(request, () => {
        const text = request.query.context;
        if (text === undefined || text === '') return null;
        const context = decoder.contextText(text);
        if (!context) {
          throw new InvalidQueryError(
            'Invalid query parameter: context must be the JSON text of a Context object (type and identifier required).',
          );
        }
        return context;
      }),

    evaluateFlagForContext: (request: ManagementRequest<EvaluateParams, Record<string, unknown>, ManagementContextBody>) =>
      evaluate(request, () => {
        if (request.body?.context === undefined) return null;
        // The router validated the body against ManagementEvaluationRequest; this is the engine's check.
        const context = decoder.contextOf(request.body.context);
        if (!context) throw new ValidationError({ context: ['The context field is invalid.'] });
        return context;
      }),
  } satisfies Partial<ManagementHandlers>;
}
