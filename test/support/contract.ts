import { createAjv } from '../../src/http/openapi/ajv.js';
import { loadDocument, type LoadedDocument } from '../../src/http/openapi/document.js';
import { readOperations, type OperationSpec } from '../../src/http/openapi/operations.js';
import { normaliseSchema } from '../../src/http/openapi/schema-normaliser.js';

interface Route {
  op: OperationSpec;
  pattern: RegExp;
  params: number;
  responses: Record<string, { content?: Record<string, { schema?: Record<string, unknown> }> }>;
}

const ajv = createAjv({ coerce: false });
const validatorCache = new WeakMap<object, ReturnType<typeof ajv.compile>>();

async function routesOf(doc: LoadedDocument): Promise<Route[]> {
  const ops = readOperations(doc.dereferenced);
  const base = (doc.dereferenced.servers?.[0]?.url ?? '/').replace(/\/$/, '');
  return ops
    .map((op) => {
      const raw = doc.dereferenced.paths[op.pathTemplate.slice(base.length)]?.[op.method] as {
        responses: Route['responses'];
      };
      const pattern = new RegExp('^' + op.pathTemplate.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+') + '$');
      return { op, pattern, params: (op.pathTemplate.match(/\{/g) ?? []).length, responses: raw.responses };
    })
    .sort((a, b) => a.params - b.params);
}

const routes = (await routesOf(await loadDocument('public'))).concat(await routesOf(await loadDocument('management')));

/** The documented operation for a request, or undefined for an undocumented path. */
export function findOperation(method: string, path: string): Route | undefined {
  const m = method.toLowerCase();
  return routes.find((r) => r.op.method === m && r.pattern.test(path));
}

/**
 * Throws unless the response is documented for the operation: its status listed, and a JSON body
 * valid against the documented schema. Undocumented paths (404 for unknown routes) are not checked.
 */
export function assertMatchesContract(method: string, path: string, status: number, body: unknown, contentType: string): void {
  const route = findOperation(method, path);
  if (!route) return;
  const response = route.responses[String(status)] ?? route.responses[`${String(status)[0]}XX`] ?? route.responses.default;
  if (!response) {
    throw new Error(`${method} ${path}: status ${status} is not documented for ${route.op.operationId}`);
  }
  if (!contentType.includes('json')) return;
  const schema = response.content?.['application/json']?.schema;
  if (!schema) {
    if (body !== undefined && body !== '') {
      throw new Error(`${method} ${path}: ${status} has a JSON body but ${route.op.operationId} documents none`);
    }
    return;
  }
  let validate = validatorCache.get(schema);
  if (!validate) {
    normaliseSchema(schema);
    validate = ajv.compile(schema);
    validatorCache.set(schema, validate);
  }
  if (!validate(body)) {
    throw new Error(
      `${method} ${path}: ${status} body does not match ${route.op.operationId}'s documented schema: ` +
        JSON.stringify(validate.errors?.slice(0, 5)) +
        `\nbody: ${JSON.stringify(body).slice(0, 1000)}`,
    );
  }
}
