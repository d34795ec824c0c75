import type { Knex } from 'knex';
import type Koa from 'koa';
import type { Stage } from '../http/openapi/stages.js';

/** The request path's tracing, present only when trace export is on. */
export interface Tracing {
  /** Outermost middleware: a server span per request, a child of the caller's `traceparent`. */
  middleware: Koa.Middleware;
  /** Innermost stage around each handler: a span named after the operation. */
  handlerStage: Stage;
  /** Spans for the statements a request runs. */
  traceQueries(knex: Knex, system: 'sqlite' | 'mysql' | 'postgres'): void;
  /** Sends what is left and stops. */
  shutdown(): Promise<void>;
}
