import { AsyncLocalStorage } from 'node:async_hooks';
import { defaultTextMapGetter, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type Sampler,
} from '@opentelemetry/sdk-trace';
import type { Knex } from 'knex';
import type Koa from 'koa';
import type { Logger } from 'pino';
import { operationState } from '../http/operation.js';
import type { Stage } from '../http/openapi/stages.js';
import { observeQueries, sqlVerb } from './query-events.js';
import { apiOf } from './request-metrics.js';
import type { Tracing } from './tracing-hooks.js';
import type { TracingSettings } from './tracing-settings.js';

// Loaded only when trace export is on (tracing.ts imports this module dynamically).

function samplerOf(settings: TracingSettings): Sampler {
  switch (settings.sampler) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(settings.samplerRatio);
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(settings.samplerRatio) });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

function ended(span: Span, error?: unknown): void {
  if (error !== undefined) {
    span.recordException(error instanceof Error ? error : String(error));
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}

/**
 * Spans for each request (server), its handler (internal) and the statements it runs (client),
 * exported over OTLP/HTTP in batches. The active span travels in this module's own
 * AsyncLocalStorage: nothing is registered globally, so several instances in one process (tests)
 * each trace on their own.
 */
export function createTracing(settings: TracingSettings, logger: Logger): Tracing {
  const exporter = settings.protocol === 'http/json' ? new JsonExporter() : new ProtobufExporter();
  const resource = resourceFromAttributes({ 'service.name': 'vexil' }).merge(detectResources({ detectors: [envDetector] }));
  const provider = new TracerProvider({
    resource,
    sampler: samplerOf(settings),
    spanProcessors: [new BatchSpanProcessor({ exporter, scheduledDelayMillis: settings.exportDelayMs })],
  });
  const tracer = provider.getTracer('vexil');
  const propagator = new W3CTraceContextPropagator();
  const active = new AsyncLocalStorage<Context>();

  const middleware: Koa.Middleware = (ctx, next) => {
    // A malformed traceparent is ignored by the propagator: the request starts a new trace.
    const parent = propagator.extract(ROOT_CONTEXT, ctx.req.headers, defaultTextMapGetter);
    const span = tracer.startSpan(
      ctx.method,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': ctx.method, 'url.path': ctx.path, 'vexil.api': apiOf(ctx.path) } },
      parent,
    );
    const finish = (error?: unknown) => {
      const operation = operationState(ctx).operation;
      if (operation) {
        span.updateName(`${ctx.method} ${operation.pathTemplate}`);
        span.setAttribute('http.route', operation.pathTemplate);
        span.setAttribute('vexil.operation_id', operation.operationId);
      }
      const status = error === undefined ? ctx.status : 500;
      span.setAttribute('http.response.status_code', status);
      const requestId = (ctx.state as { requestId?: string }).requestId;
      if (requestId) span.setAttribute('vexil.request_id', requestId);
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      ended(span, error);
    };
    return active.run(trace.setSpan(parent, span), next).then(
      () => finish(),
      (error: unknown) => {
        finish(error);
        throw error;
      },
    );
  };

  const handlerStage: Stage = (ctx, next) => next();
  handlerStage.forOperation = (op) => {
    const name = `handler ${op.operationId}`;
    return (ctx, next) => {
      const parent = active.getStore() ?? ROOT_CONTEXT;
      const span = tracer.startSpan(name, { attributes: { 'vexil.operation_id': op.operationId } }, parent);
      return active.run(trace.setSpan(parent, span), next).then(
        () => ended(span),
        (error: unknown) => {
          ended(span, error);
          throw error;
        },
      );
    };
  };

  return {
    middleware,
    handlerStage,
    traceQueries(knex: Knex, system: 'sqlite' | 'mysql' | 'postgres') {
      const running = new Map<string, Span>();
      observeQueries(knex, {
        started(uid, sql) {
          // Statements outside a request (background tasks polling every fraction of a second) are not traced.
          const parent = active.getStore();
          if (!parent || running.size >= 10_000) return;
          const verb = sqlVerb(sql);
          const span = tracer.startSpan(
            `${verb} ${system}`,
            {
              kind: SpanKind.CLIENT,
              attributes: {
                'db.system.name': system === 'postgres' ? 'postgresql' : system,
                'db.operation.name': verb,
                'db.query.text': sql,
              },
            },
            parent,
          );
          running.set(uid, span);
        },
        finished(uid, failed) {
          const span = running.get(uid);
          if (!span) return;
          running.delete(uid);
          if (failed) span.setStatus({ code: SpanStatusCode.ERROR });
          span.end();
        },
      });
    },
    async shutdown() {
      await provider.shutdown().catch((err: unknown) => logger.warn({ err }, 'trace export could not be finished'));
    },
  };
}
