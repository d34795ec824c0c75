/**
 * A proxy between a generated client and the server that checks every response against the
 * served documents (as test/support/contract.ts does for the in-process tests): the status must be
 * documented for the operation and a JSON body must match its schema. It also records which
 * operations each client called, so the suite can tell that the flows together call them all.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { dereference } from '@apidevtools/json-schema-ref-parser';
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
  method: string;
  path: string;
  status: number;
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
    readonly operationIds: string[],
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
    return new ContractRoutes(routes, routes.map((r) => r.op.operationId));
  }

  find(method: string, path: string): Route | undefined {
    const m = method.toLowerCase();
    return this.routes.find((r) => r.op.method === m && r.pattern.test(path));
  }

  /** Undefined when the response fits the documents; otherwise what is wrong. */
  check(route: Route, status: number, contentType: string, text: string): string | undefined {
    const response = route.responses[String(status)] ?? route.responses[`${String(status)[0]}XX`] ?? route.responses.default;
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
    normaliseSchema(schema);
    const validate = ajv.compile(schema);
    if (!validate(body)) {
      return `body does not match the schema: ${JSON.stringify(validate.errors?.slice(0, 3))} body: ${text.slice(0, 500)}`;
    }
    return undefined;
  }
}

/** Starts a proxy to `target` (http://host:port) that checks every response. */
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
      const forward = http.request(
        { hostname: upstream.hostname, port: upstream.port, method, path: req.url, headers },
        (answer) => {
          const status = answer.statusCode ?? 0;
          const contentType = String(answer.headers['content-type'] ?? '');
          if (route) calls.push({ operationId: route.op.operationId, method, path, status });
          if (contentType.startsWith('text/event-stream')) {
            // A stream never ends by itself: pass it through as it comes; the client closes it.
            if (route) {
              const problem = routes.check(route, status, contentType, '');
              if (problem) failures.push(`${method} ${path} (${route.op.operationId}): ${problem}`);
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
              const problem = routes.check(route, status, contentType, bytes.toString('utf8'));
              if (problem) failures.push(`${method} ${path} (${route.op.operationId}): ${problem}`);
            }
            const out = { ...answer.headers };
            delete out['transfer-encoding'];
            delete out.connection;
            out['content-length'] = String(bytes.length);
            res.writeHead(status, out);
            res.end(bytes);
          });
        },
      );
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
