import type Koa from 'koa';
import { operationState } from '../http/operation.js';
import type { OperationSpec } from '../http/openapi/operations.js';
import type { Histogram, HistogramSeries } from './metric-types.js';
import type { ApiName } from './metrics.js';

/** The `api` label of a request path. */
export function apiOf(path: string): ApiName {
  if (path.startsWith('/v1/') || path === '/v1') return 'public';
  if (path.startsWith('/ofrep/')) return 'ofrep';
  if (path.startsWith('/management/') || path === '/management') return 'management';
  if (path === '/health' || path === '/ready' || path === '/metrics') return 'operations';
  return 'console';
}

/** Answered before routing, so no operation is in the request state: their operationIds. */
const operationsAnsweredFirst: Record<string, string> = { '/health': 'getHealth', '/ready': 'getReadiness', '/metrics': 'getMetrics' };

/** One series per status class (index: status / 100), made on first use. */
type ByStatusClass = Array<HistogramSeries | undefined>;

/**
 * The request duration histogram's series, found without building a key per request: by the
 * operation object the router put in the request state, else by API and a fixed operation label
 * (`unmatched` for API paths no operation matches, `cors_preflight`, `console` for the console's
 * files). Label values come only from the documents and these fixed names, never from the path.
 */
class DurationSeries {
  private readonly byOperation = new Map<OperationSpec, ByStatusClass>();
  private readonly byFixedLabel = new Map<string, ByStatusClass>();

  constructor(private readonly histogram: Histogram) {}

  of(ctx: Koa.Context, status: number): HistogramSeries {
    const index = status >= 100 && status < 600 ? (status / 100) | 0 : 5;
    const operation = operationState(ctx).operation;
    let row: ByStatusClass | undefined;
    let api: ApiName;
    let operationId: string;
    if (operation) {
      row = this.byOperation.get(operation);
      if (row?.[index]) return row[index];
      api = apiOf(ctx.path);
      operationId = operation.operationId;
      if (!row) this.byOperation.set(operation, (row = []));
    } else {
      api = apiOf(ctx.path);
      operationId = fixedLabel(ctx, api, status);
      const key = `${api} ${operationId}`;
      row = this.byFixedLabel.get(key);
      if (row?.[index]) return row[index];
      if (!row) this.byFixedLabel.set(key, (row = []));
    }
    const series = this.histogram.series(api, operationId, `${index}xx`);
    row[index] = series;
    return series;
  }
}

function fixedLabel(ctx: Koa.Context, api: ApiName, status: number): string {
  const answeredFirst = operationsAnsweredFirst[ctx.path];
  if (answeredFirst !== undefined) return answeredFirst;
  if (api === 'console') return 'console';
  if (ctx.method === 'OPTIONS' && status === 204) return 'cors_preflight';
  return 'unmatched';
}

/**
 * Observes every request's duration (vexil_http_request_duration_seconds). Placed outside the
 * error middleware, so the status is the one answered. Per request: two clock reads, one map
 * lookup and a few additions.
 */
export function requestMetrics(histogram: Histogram): Koa.Middleware {
  const series = new DurationSeries(histogram);
  return (ctx, next) => {
    const started = performance.now();
    return next().then(
      () => series.of(ctx, ctx.status).observe((performance.now() - started) / 1000),
      (error: unknown) => {
        series.of(ctx, 500).observe((performance.now() - started) / 1000);
        throw error;
      },
    );
  };
}
