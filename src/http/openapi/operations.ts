import type { OpenApiDocument } from './document.js';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';
const methods: readonly HttpMethod[] = ['get', 'post', 'put', 'patch', 'delete'];

export interface ParameterSpec {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Record<string, unknown>;
}

/** What the server needs to know about one operation, read once from the dereferenced document. */
export interface OperationSpec {
  operationId: string;
  method: HttpMethod;
  /** Full path template as clients call it, e.g. /management/v1/projects/{projectKey}. */
  pathTemplate: string;
  /** The same path in @koa/router syntax. */
  routerPath: string;
  parameters: ParameterSpec[];
  bodySchema: Record<string, unknown> | undefined;
  bodyRequired: boolean;
  /** Management: the scope from `x-required-scope`; undefined when the operation is open. */
  requiredScope: string | undefined;
  /** Management: further scopes from `x-also-required-scopes`, checked with the first. */
  alsoRequiredScopes: string[];
  /** False for operations whose `security` is an empty list (api-docs) or allows no credential (`{}`: metrics). */
  secured: boolean;
  /** Whether the operation accepts an Idempotency-Key header (an Idempotency-Key header parameter in the document). */
  idempotent: boolean;
  /** Whether its answers carry a secret or a session: a response declares `Cache-Control: no-store`. */
  noStore: boolean;
}

export function readOperations(doc: OpenApiDocument): OperationSpec[] {
  const base = (doc.servers?.[0]?.url ?? '/').replace(/\/$/, '');
  const globalSecurity = doc.security as unknown[] | undefined;
  const result: OperationSpec[] = [];
  for (const [pathKey, pathItem] of Object.entries(doc.paths)) {
    const shared = (pathItem.parameters as ParameterSpec[] | undefined) ?? [];
    for (const method of methods) {
      const op = pathItem[method] as Record<string, unknown> | undefined;
      if (!op) continue;
      const own = (op.parameters as ParameterSpec[] | undefined) ?? [];
      // Operation-level parameters override path-level ones with the same name and location.
      const parameters = [...shared.filter((s) => !own.some((o) => o.name === s.name && o.in === s.in)), ...own]
        .filter((p) => p.in !== ('cookie' as string))
        // A parameter described by `content` (e.g. a JSON document in a header) arrives as text:
        // the router checks it is a string; its handler decodes and validates the document.
        .map((p) => (p.schema === undefined && (p as { content?: unknown }).content ? { ...p, schema: { type: 'string' } } : p));
      const body = op.requestBody as { required?: boolean; content?: Record<string, { schema?: Record<string, unknown> }> } | undefined;
      const security = (op.security as unknown[] | undefined) ?? globalSecurity ?? [];
      const pathTemplate = base + pathKey;
      result.push({
        operationId: String(op.operationId),
        method,
        pathTemplate,
        routerPath: pathTemplate.replace(/\{([^}]+)\}/g, ':$1'),
        parameters,
        bodySchema: body?.content?.['application/json']?.schema,
        bodyRequired: body?.required === true,
        requiredScope: op['x-required-scope'] as string | undefined,
        alsoRequiredScopes: (op['x-also-required-scopes'] as string[] | undefined) ?? [],
        secured: security.length > 0 && !security.some((requirement) => Object.keys(requirement as object).length === 0),
        idempotent: parameters.some((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key'),
        noStore: declaresNoStore(op.responses),
      });
    }
  }
  return result;
}

/** Whether any response of an operation declares the `Cache-Control: no-store` header. */
function declaresNoStore(responses: unknown): boolean {
  return Object.values((responses ?? {}) as Record<string, { headers?: Record<string, { schema?: { enum?: unknown[] } }> }>).some(
    (response) => {
      const header = Object.entries(response.headers ?? {}).find(([name]) => name.toLowerCase() === 'cache-control')?.[1];
      return header?.schema?.enum?.includes('no-store') === true;
    },
  );
}
