import type { Knex } from 'knex';
import type { operations as managementOperations } from '../../../generated/management.js';
import type { components as publicComponents, operations as publicOperations } from '../../../generated/public.js';
import type { EnvironmentKeyCache } from '../../auth/environment-key-cache.js';
import { readApiKey } from '../../auth/public-auth.js';
import { auditActionByOperation } from '../../audit/actions.js';
import { describePublicAudit } from '../../audit/public-audit.js';
import { BadRequestError, OfrepError, UnprocessableError, publicMessages } from '../../http/errors.js';
import type { ManagementRequest, OperationResult, PublicRequest } from '../../http/operation.js';
import type { StreamHub } from '../../runtime/stream-hub.js';
import { findFlagEnvironment } from '../shared/lookup.js';
import { ofrepContext, type InputDecoder } from './inputs.js';
import { platformOf, type EvaluationService } from './service.js';

type FlagParams = publicOperations['getEvaluatedFlag']['parameters']['path'];
type UsageBody = publicComponents['schemas']['UsageReport'] | undefined;
type EvaluateParams = managementOperations['evaluateFlag']['parameters']['path'];

const json = { 'Content-Type': 'application/json; charset=utf-8' };

/**
 * OFREP evaluations are per key and context (specs/public.yaml, OfrepCacheControl, OfrepVary):
 * no shared cache keeps them, a client revalidates (bulk: with the ETag). Vary is appended, so
 * CORS's `Origin` stays.
 */
const ofrepCacheControl = 'private, no-cache';
const ofrepVary = ['X-VEXIL-API-KEY', 'X-API-KEY', 'X-VEXIL-KEY'];

function ofrepCaching(request: PublicRequest, headers: Record<string, string> = {}): Record<string, string> {
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
  knex: Knex;
}

/** Public handlers (specs/public.yaml), keyed by operationId. */
export function publicEvaluationHandlers({ service, decoder, hub, keyCache }: EvaluationHandlerDeps) {
  /** Names the flag of the request's public audit entry from the snapshot (spares the writer a lookup). */
  const nameAuditedFlag = async (request: Pick<PublicRequest, 'principal' | 'ctx'>, flagKey: string): Promise<void> => {
    const entry = await service.environment(request.principal);
    describePublicAudit(request.ctx, { subjectUlid: entry.flagUlids.get(flagKey) ?? null });
  };

  return {
    async listEvaluatedFlags(request: PublicRequest): Promise<OperationResult> {
      const context = decoder.contextHeader(request.headers);
      const defaults = decoder.defaultsHeader(request.headers);
      return { headers: json, body: await service.listEvaluated(request.principal, context, defaults) };
    },

    async getEvaluatedFlag(request: PublicRequest<FlagParams>): Promise<OperationResult> {
      const context = decoder.contextHeader(request.headers);
      const defaults = decoder.defaultsHeader(request.headers);
      await nameAuditedFlag(request, request.params.flagKey);
      return { headers: json, body: await service.getEvaluated(request.principal, request.params.flagKey, context, defaults) };
    },

    async recordFlagUsage(request: PublicRequest<FlagParams, unknown, UsageBody>): Promise<OperationResult> {
      const body: NonNullable<UsageBody> = request.body ?? {};
      let context = null;
      if (body.context !== undefined) {
        context = decoder.contextOf(body.context) ?? null;
        // The router validated the body against UsageReport already; this is the engine's check.
        if (!context) throw new BadRequestError(publicMessages.invalidContext);
      }
      await nameAuditedFlag(request, request.params.flagKey);
      await service.recordUsage(request.principal, request.params.flagKey, body.count ?? 1, context);
      return { body: { status: 'success' } };
    },

    async getPayload(request: PublicRequest): Promise<OperationResult> {
      const server = request.principal.kind === 'server';
      // Validated for every key; server keys get the compiled configuration, so they are not used.
      const sentContext = decoder.contextHeader(request.headers);
      const sentDefaults = decoder.defaultsHeader(request.headers);
      const context = server ? null : sentContext;
      const defaults = server ? [] : sentDefaults;
      const result = await service.payload(request.principal, context, defaults, request.headers['if-none-match']);
      if (result.notModified) return { status: 304, headers: { ETag: result.etag } };
      if (result.json !== undefined) {
        return { headers: { ...json, ETag: result.etag }, body: serverPayloadBytes(request.principal, result.json) };
      }
      return { headers: { ETag: result.etag }, body: result.body };
    },

    async streamPayloadChanges(request: PublicRequest): Promise<OperationResult> {
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

    async ofrepEvaluateFlag(request: PublicRequest<{ key: string }>): Promise<OperationResult> {
      const parsed = ofrepContext(request.body);
      if (!parsed.ok) throw new OfrepError(400, parsed.errorCode, parsed.details, request.params.key);
      await nameAuditedFlag(request, request.params.key);
      const result = await service.ofrepEvaluate(request.principal, request.params.key, parsed.context);
      return { headers: ofrepCaching(request), body: result };
    },

    async ofrepEvaluateFlags(request: PublicRequest): Promise<OperationResult> {
      const parsed = ofrepContext(request.body);
      if (!parsed.ok) throw new OfrepError(400, parsed.errorCode, parsed.details);
      const result = await service.ofrepEvaluateAll(request.principal, parsed.context, request.headers['if-none-match']);
      if (result.notModified) return { status: 304, headers: ofrepCaching(request, { ETag: result.etag }) };
      return { headers: ofrepCaching(request, { ETag: result.etag }), body: { flags: result.flags } };
    },
  };
}

/** Management handler: evaluateFlag (specs/management.yaml). */
export function managementEvaluationHandlers({ service, decoder, knex }: EvaluationHandlerDeps) {
  return {
    async evaluateFlag(request: ManagementRequest<EvaluateParams, { context?: string }>): Promise<OperationResult> {
      const { project, flag, environment } = await findFlagEnvironment(knex, request.principal.access, request.params);
      request.audit.describe({
        action: auditActionByOperation.evaluateFlag ?? 'flag.evaluated',
        subjectType: 'flag',
        subjectUlid: flag.ulid,
        subjectLabel: flag.key,
        projectUlid: project.ulid,
        environmentUlid: environment.ulid,
      });
      let context = null;
      const text = request.query.context;
      if (text !== undefined && text !== '') {
        context = decoder.contextText(text) ?? null;
        if (!context) {
          throw new UnprocessableError(
            'Invalid query parameter: context must be the JSON text of a Context object (type and identifier required).',
          );
        }
      }
      const data = await service.evaluateForManagement(environment.ulid, flag, context);
      return { body: { status: 'success', data } };
    },
  };
}
