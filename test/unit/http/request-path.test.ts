import { createHash } from 'node:crypto';
import type Koa from 'koa';
import { describe, expect, it } from 'vitest';
import type { EnvironmentKeyCache } from '../../../src/auth/environment-key-cache.js';
import { authenticatePublic, readApiKey } from '../../../src/auth/public-auth.js';
import { digestSecret, generateSecret } from '../../../src/auth/secrets.js';
import { serverPayloadBytes } from '../../../src/features/evaluation/controller.js';
import { publicErrorShaping } from '../../../src/features/evaluation/error-shaping.js';
import { statusOf } from '../../../src/http/error-middleware.js';
import { KeyKindNotAllowedError, NotFoundError, UnauthorizedError } from '../../../src/http/errors.js';
import { jsonContentType, setJsonContentType } from '../../../src/http/json-response.js';
import type { OperationSpec, ParameterSpec } from '../../../src/http/openapi/operations.js';
import { stagesFor, type Stage } from '../../../src/http/openapi/router.js';
import { runStages } from '../../../src/http/openapi/stages.js';
import { alwaysValidHeader, compileValidators } from '../../../src/http/openapi/validators.js';

function operation(operationId: string, parameters: ParameterSpec[] = [], secured = true): OperationSpec {
  return {
    operationId,
    method: 'get',
    pathTemplate: '/v1/x',
    routerPath: '/v1/x',
    parameters,
    bodySchema: undefined,
    bodyRequired: false,
    requiredScope: undefined,
    alsoRequiredScopes: [],
    secured,
    idempotent: false,
    noStore: false,
  };
}

function fakeCtx(headers: Record<string, string> = {}): Koa.Context {
  const set = new Map<string, string>();
  const res = {
    headersSent: false,
    hasHeader: (name: string) => set.has(name.toLowerCase()),
    setHeader: (name: string, value: string) => set.set(name.toLowerCase(), value),
    getHeader: (name: string) => set.get(name.toLowerCase()),
  };
  return { req: { headers }, res, state: {}, params: {} } as unknown as Koa.Context;
}

const header = (name: string, schema: Record<string, unknown>, required = false): ParameterSpec => ({
  name,
  in: 'header',
  required,
  schema,
});

describe('validators: checks that cannot fail are skipped', () => {
  it('knows which header parameters accept every request', () => {
    expect(alwaysValidHeader(header('X-VEXIL-CONTEXT', { type: 'string' }))).toBe(true);
    expect(alwaysValidHeader(header('If-None-Match', { type: 'string', example: '"x"' }))).toBe(true);
    expect(alwaysValidHeader(header('Idempotency-Key', { type: 'string', maxLength: 255 }))).toBe(false);
    expect(alwaysValidHeader(header('X-Required', { type: 'string' }, true))).toBe(false);
    expect(alwaysValidHeader(header('X-Number', { type: 'integer' }))).toBe(false);
    expect(alwaysValidHeader(header('X-Defaulted', { type: 'string', default: 'a' }))).toBe(false);
    expect(alwaysValidHeader(header('Set-Cookie', { type: 'string' }))).toBe(false);
  });

  it('still refuses headers and paths that a real check refuses', () => {
    const op = operation('x', [
      header('Idempotency-Key', { type: 'string', maxLength: 3 }),
      { name: 'flagKey', in: 'path', required: true, schema: { type: 'string', pattern: '^[a-z]+$' } },
    ]);
    const validators = compileValidators(op);
    expect(() => validators.headers({ 'idempotency-key': 'abcd' })).toThrow(/Invalid header/);
    expect(() => validators.path({ flagKey: 'Nope' })).toThrow(NotFoundError);
    expect(() => validators.path({ flagKey: 'yes' })).not.toThrow();
    expect(validators.checksQuery).toBe(false);
  });

  it('applies query defaults and coercion where query parameters exist', () => {
    const op = operation('x', [{ name: 'limit', in: 'query', required: false, schema: { type: 'integer', default: 20 } }]);
    const validators = compileValidators(op);
    expect(validators.checksQuery).toBe(true);
    expect(validators.query({})).toEqual({ limit: 20 });
    expect(validators.query({ limit: '5' })).toEqual({ limit: 5 });
  });
});

describe('stages specialised per operation', () => {
  it('leaves out stages with nothing to do for an operation and keeps the order of the others', async () => {
    const calls: string[] = [];
    const plain: Stage = async (_ctx, next) => {
      calls.push('plain');
      await next();
    };
    const onlyForA: Stage = async (_ctx, next) => next();
    onlyForA.forOperation = (op) =>
      op.operationId === 'a'
        ? async (_ctx, next) => {
            calls.push('a');
            await next();
          }
        : undefined;
    expect(stagesFor([plain, onlyForA], operation('b'))).toEqual([plain]);
    const forA = stagesFor([onlyForA, plain], operation('a'));
    expect(forA).toHaveLength(2);
    await runStages(forA, 0, fakeCtx(), async () => {
      calls.push('last');
    });
    expect(calls).toEqual(['a', 'plain', 'last']);
  });

  it('turns a synchronous throw of a stage into a rejection', async () => {
    const throwing = (() => {
      throw new UnauthorizedError('no');
    }) as unknown as Stage;
    const result = runStages([throwing], 0, fakeCtx(), async () => undefined);
    await expect(result).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it('error shaping runs only for the operations with documented shapes', async () => {
    expect(publicErrorShaping.forOperation?.(operation('listEvaluatedFlags'))).toBeUndefined();
    const shaping = publicErrorShaping.forOperation?.(operation('getEvaluatedFlag'));
    expect(shaping).toBeDefined();
    const failure = await shaping!(fakeCtx(), async () => {
      throw new NotFoundError('Resource not found.');
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(NotFoundError);
    expect(statusOf(failure as NotFoundError)).toBe(404);
    expect(failure).toMatchObject({ message: 'Feature flag not found.' });
  });
});

describe('public authentication', () => {
  const keys = {
    resolve: (secret: string | undefined) =>
      secret === 'srv_ok' ? { kind: 'server' } : secret === 'cli_ok' ? { kind: 'client' } : undefined,
  };
  const stage = authenticatePublic(keys as unknown as EnvironmentKeyCache);

  it('is left out of open operations and checks the key kinds of each operation', async () => {
    expect(stage.forOperation?.(operation('getPublicApiDocs', [], false))).toBeUndefined();
    const evaluate = stage.forOperation!(operation('getEvaluatedFlag'))!;
    const payload = stage.forOperation!(operation('getPayload'))!;
    const next = async () => undefined;
    // A valid key of the wrong kind: 401 key_kind_not_allowed, naming the kinds accepted.
    await expect(evaluate(fakeCtx({ 'x-vexil-api-key': 'cli_ok' }), next)).rejects.toMatchObject({
      code: 'key_kind_not_allowed',
      acceptedKinds: ['server'],
    });
    await expect(evaluate(fakeCtx({ 'x-vexil-api-key': 'cli_ok' }), next)).rejects.toBeInstanceOf(KeyKindNotAllowedError);
    await expect(payload(fakeCtx({ 'x-vexil-api-key': 'cli_ok' }), next)).resolves.toBeUndefined();
    const ctx = fakeCtx({ 'x-vexil-key': ' srv_ok ' });
    await evaluate(ctx, next);
    expect((ctx.state as { publicPrincipal?: unknown }).publicPrincipal).toEqual({ kind: 'server' });
  });

  it('reads the canonical header first; a blank header is a blank key, an empty one is absent', () => {
    expect(readApiKey(fakeCtx({ 'x-api-key': 'b', 'x-vexil-api-key': 'a' }))).toBe('a');
    expect(readApiKey(fakeCtx({ 'x-vexil-api-key': '', 'x-vexil-key': 'c' }))).toBe('c');
    expect(readApiKey(fakeCtx({ 'x-vexil-api-key': '  ' }))).toBe('');
    expect(readApiKey(fakeCtx({}))).toBeUndefined();
  });

  it('digests keys as SHA-256 hex, the stored form', () => {
    const secret = generateSecret('srv_');
    expect(digestSecret(secret)).toBe(createHash('sha256').update(secret, 'utf8').digest('hex'));
  });
});

describe('JSON responses', () => {
  it('sets the JSON content type Koa would for objects and arrays, and only when none is set', () => {
    const object = fakeCtx();
    setJsonContentType(object, { status: 'success' });
    expect(object.res.getHeader('Content-Type')).toBe(jsonContentType);
    const array = fakeCtx();
    setJsonContentType(array, []);
    expect(array.res.getHeader('Content-Type')).toBe(jsonContentType);
    const text = fakeCtx();
    setJsonContentType(text, '{"a":1}');
    setJsonContentType(text, Buffer.from('x'));
    setJsonContentType(text, null);
    expect(text.res.hasHeader('Content-Type')).toBe(false);
    const typed = fakeCtx();
    typed.res.setHeader('Content-Type', 'application/problem+json');
    setJsonContentType(typed, {});
    expect(typed.res.getHeader('Content-Type')).toBe('application/problem+json');
  });
});

describe('server payload bytes', () => {
  it('encodes a payload text once per key and again when the text changes', () => {
    const key = {};
    const first = serverPayloadBytes(key, '{"flag":"ä"}');
    expect(first.toString('utf8')).toBe('{"flag":"ä"}');
    expect(first.length).toBe(Buffer.byteLength('{"flag":"ä"}'));
    expect(serverPayloadBytes(key, '{"flag":"ä"}')).toBe(first);
    const changed = serverPayloadBytes(key, '{"flag":"b"}');
    expect(changed.toString('utf8')).toBe('{"flag":"b"}');
    expect(serverPayloadBytes({}, '{"flag":"b"}')).not.toBe(changed);
  });
});
