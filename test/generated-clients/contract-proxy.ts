/**
 * A proxy between a generated client and the server that checks every response against the
 * served documents (as test/support/contract.ts does for the in-process tests): the status must be
 * documented for the operation, a JSON body must match its schema, and each event of a
 * Server-Sent Events stream must match the schema of its `text/event-stream` content. It also
 * records which operations each client called, so the suite can tell that a flow calls them all.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { StringDecoder } from 'node:string_decoder';
import zlib from 'node:zlib';
import { dereference } from '@apidevtools/json-schema-ref-parser';
import { SseParser, type SseEvent } from '../../sdk/src/sse.js';
import { createAjv } from '../../src/http/openapi/ajv.js';
import type { OpenApiDocument } from '../../src/http/openapi/document.js';
import { readOperations, type OperationSpec } from '../../src/http/openapi/operations.js';
import { normaliseSchema } from '../../src/http/openapi/schema-normaliser.js';

type Responses = Record<string, { content?: Record<string, { schema?: Record<string, unknown> }> }>;

interface Route {
  op: OperationSpec;
  pattern: RegExp;
  params: number;
  responses: Responses;
}

export interface Call {
  operationId: string;
  /** The operation as `METHOD /path/{template}`: operation ids repeat across the two documents (evaluateFlag). */
  operation: string;
  method: string;
  path: string;
  status: number;
  /** Server-Sent Events checked (a stream's events that passed through before the client closed it). */
  events: number;
}

export interface ContractProxy {
  readonly label: string;
  readonly url: string;
  readonly calls: Call[];
  /** One line per response that does not match the documents (or request that matches no operation). */
  readonly failures: string[];
  close(): Promise<void>;
}

const ajv = createAjv({ coerce: false });

export class ContractRoutes {
  private constructor(
    private readonly routes: Route[],
    /** Every operation of the documents, as `METHOD /path/{template}` (see Call.operation). */
    readonly operations: string[],
  ) {}

  /** Routes of the documents as the server serves them. */
  static async of(documents: OpenApiDocument[]): Promise<ContractRoutes> {
    const routes: Route[] = [];
    for (const document of documents) {
      const dereferenced = (await dereference(structuredClone(document), { dereference: { circular: 'ignore' } })) as OpenApiDocument;
      const base = (dereferenced.servers?.[0]?.url ?? '/').replace(/\/$/, '');
      for (const op of readOperations(dereferenced)) {
        const raw = dereferenced.paths[op.pathTemplate.slice(base.length)]?.[op.method] as { responses: Responses };
        const pattern = new RegExp('^' + op.pathTemplate.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+') + '$');
        routes.push({ op, pattern, params: (op.pathTemplate.match(/\{/g) ?? []).length, responses: raw.responses });
      }
    }
    // A concrete path wins over a template (POST /v1/flags/evaluate is not /v1/flags/{flagKey}).
    routes.sort((a, b) => a.params - b.params);
    return new ContractRoutes(routes, routes.map(operationOf));
  }

  find(method: string, path: string): Route | undefined {
    const m = method.toLowerCase();
    return this.routes.find((r) => r.op.method === m && r.pattern.test(path));
  }

  /** Undefined when the response fits the documents; otherwise what is wrong. */
  check(route: Route, status: number, contentType: string, text: string): string | undefined {
    const response = ContractRoutes.response(route, status);
    if (!response) return `status ${status} is not documented`;
    if (status >= 500) return `status ${status}: ${text.slice(0, 300)}`;
    if (!contentType.includes('json')) {
      if (contentType === '' && text === '') return undefined;
      const declared = Object.keys(response.content ?? {});
      const type = contentType.split(';')[0]!.trim();
      return declared.includes(type) ? undefined : `content type ${type} is not documented (${declared.join(', ') || 'no body'})`;
    }
    const schema = response.content?.['application/json']?.schema;
    if (!schema) return text === '' ? undefined : 'a JSON body where none is documented';
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return 'the body is not JSON';
    }
    const problem = mismatch(schema, body);
    return problem === undefined ? undefined : `body does not match the schema: ${problem} body: ${text.slice(0, 500)}`;
  }

  /**
   * Undefined when one event of a stream (as an SSE parser reads it: `event`, `data`, and `id`
   * when the stream set one) matches the schema the document gives its `text/event-stream` content.
   */
  checkEvent(route: Route, status: number, event: SseEvent): string | undefined {
    const schema = ContractRoutes.response(route, status)?.content?.['text/event-stream']?.schema;
    if (!schema) return 'an event where the document describes no event stream';
    const read = { event: event.event, data: event.data, ...(event.id === undefined ? {} : { id: event.id }) };
    const problem = mismatch(schema, read);
    return problem === undefined ? undefined : `event does not match the schema: ${problem} event: ${JSON.stringify(read).slice(0, 500)}`;
  }

  private static response(route: Route, status: number): Responses[string] | undefined {
    return route.responses[String(status)] ?? route.responses[`${String(status)[0]}XX`] ?? route.responses.default;
  }
}

function operationOf(route: Route): string {
  return `${route.op.method.toUpperCase()} ${route.op.pathTemplate}`;
}

/** Undefined when `value` matches `schema`; otherwise the first validation errors. */
function mismatch(schema: Record<string, unknown>, value: unknown): string | undefined {
  normaliseSchema(schema);
  const validate = ajv.compile(schema);
  return validate(value) ? undefined : JSON.stringify(validate.errors?.slice(0, 3));
}

/** Starts a proxy to `target` (http://host:port) that checks every response. */
/** The body as its Content-Encoding (gzip, br or none) says to read it. */
function decoded(bytes: Buffer, encoding: string | undefined): Buffer {
  if (encoding === 'br') return zlib.brotliDecompressSync(bytes);
  if (encoding === 'gzip') return zlib.gunzipSync(bytes);
  return bytes;
}

export async function startContractProxy(label: string, target: string, routes: ContractRoutes): Promise<ContractProxy> {
  const upstream = new URL(target);
  const calls: Call[] = [];
  const failures: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const method = req.method ?? 'GET';
      const path = (req.url ?? '/').split('?')[0] as string;
      const route = routes.find(method, path);
      if (!route) failures.push(`${method} ${path}: no documented operation`);
      const headers = { ...req.headers, host: upstream.host };
      const forward = http.request({ hostname: upstream.hostname, port: upstream.port, method, path: req.url, headers }, (answer) => {
        const status = answer.statusCode ?? 0;
        const contentType = String(answer.headers['content-type'] ?? '');
        const call = route
          ? { operationId: route.op.operationId, operation: operationOf(route), method, path, status, events: 0 }
          : undefined;
        if (call) calls.push(call);
        if (contentType.startsWith('text/event-stream')) {
          // A stream never ends by itself: pass it through as it comes, checking each event
          // before the client gets it; the client closes it.
          if (route && call) {
            const problem = routes.check(route, status, contentType, '');
            if (problem) failures.push(`${method} ${path} (${route.op.operationId}): ${problem}`);
            const parser = new SseParser();
            const decoder = new StringDecoder('utf8');
            answer.on('data', (chunk: Buffer) => {
              for (const event of parser.feed(decoder.write(chunk))) {
                call.events++;
                const wrong = routes.checkEvent(route, status, event);
                if (wrong) failures.push(`${method} ${path} (${route.op.operationId}): ${wrong}`);
              }
            });
            answer.on('close', () => {
              if (status < 300 && call.events === 0)
                failures.push(`${method} ${path} (${route.op.operationId}): the stream closed before its first event`);
            });
          }
          res.writeHead(status, answer.headers);
          answer.pipe(res);
          res.on('close', () => answer.destroy());
          return;
        }
        const body: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => body.push(chunk));
        answer.on('end', () => {
          const bytes = Buffer.concat(body);
          if (route) {
            // The client is sent the bytes as they came (compressed when it asked for that); the
            // check reads what they decode to.
            const problem = routes.check(route, status, contentType, decoded(bytes, answer.headers['content-encoding']).toString('utf8'));
            if (problem) failures.push(`${method} ${path} (${route.op.operationId}): ${problem}`);
          }
          const out = { ...answer.headers };
          delete out['transfer-encoding'];
          delete out.connection;
          out['content-length'] = String(bytes.length);
          res.writeHead(status, out);
          res.end(bytes);
        });
      });
      forward.on('error', (error) => {
        failures.push(`${method} ${path}: the server did not answer (${error.message})`);
        if (!res.headersSent) res.writeHead(502);
        res.end();
      });
      // The client went away before the answer was complete (a stream it closed): stop upstream too.
      res.on('close', () => {
        if (!res.writableFinished) forward.destroy();
      });
      forward.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    label,
    url,
    calls,
    failures,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
