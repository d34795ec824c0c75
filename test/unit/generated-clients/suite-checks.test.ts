import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OpenApiDocument } from '../../../src/http/openapi/document.js';
import { ContractRoutes, startContractProxy } from '../../generated-clients/contract-proxy.js';
import { openapiGeneratorProblems } from '../../generated-clients/generators.js';

/** The judgements the generated-clients suite makes (test/generated-clients): they must be able to fail. */
describe('generated-clients suite: openapi-generator output', () => {
  const caller = (frame: string) => [
    `Caller+0\t at org.openapitools.codegen.utils.ModelUtils.getSimpleRef(ModelUtils.java:396)`,
    `Caller+1\t at ${frame}(X.java:1)`,
    'Caller+2\t at y(Y.java:2)',
  ];
  const nullName = '[main] WARN  o.o.codegen.utils.ModelUtils - Failed to get the schema name: null';

  it('accepts the python generator’s own warning only from where it comes from', () => {
    const known = [nullName, ...caller('org.openapitools.codegen.languages.AbstractPythonCodegen.toDefaultValue')].join('\n');
    expect(openapiGeneratorProblems(known, 'python')).toEqual([]);
    expect(openapiGeneratorProblems(known, 'typescript-fetch')).toHaveLength(1);
    const elsewhere = [nullName, ...caller('org.openapitools.codegen.OpenAPINormalizer.isSelfReference')].join('\n');
    expect(openapiGeneratorProblems(elsewhere, 'python')).toEqual([expect.stringContaining('Failed to get the schema name: null')]);
  });

  it('accepts the go and java generators’ known warnings only from those generators and callers', () => {
    const goType = [
      '[main] WARN  o.o.c.languages.AbstractGoCodegen - type (reserved word) cannot be used as parameter name. Renamed to type_',
      'Caller+0\t at org.openapitools.codegen.languages.AbstractGoCodegen.toParamName(AbstractGoCodegen.java:268)',
      'Caller+1\t at org.openapitools.codegen.DefaultCodegen.fromParameter(DefaultCodegen.java:5891)',
    ].join('\n');
    expect(openapiGeneratorProblems(goType, 'go')).toEqual([]);
    expect(openapiGeneratorProblems(goType, 'java')).toHaveLength(1);
    const javaExample = [
      '[main] WARN  o.o.c.languages.AbstractJavaCodegen - Ignoring complex example on request body',
      'Caller+0\t at org.openapitools.codegen.languages.AbstractJavaCodegen.setParameterExampleValue(AbstractJavaCodegen.java:1827)',
    ];
    expect(
      openapiGeneratorProblems(
        [...javaExample, 'Caller+1\t at org.openapitools.codegen.DefaultCodegen.fromRequestBody(DefaultCodegen.java:8581)'].join('\n'),
        'java',
      ),
    ).toEqual([]);
    expect(
      openapiGeneratorProblems(
        [...javaExample, 'Caller+1\t at org.openapitools.codegen.DefaultCodegen.fromParameter(DefaultCodegen.java:1)'].join('\n'),
        'java',
      ),
    ).toHaveLength(1);
  });

  it('reports any other warning or error, and every schema the generator had to name', () => {
    const output = [
      '[main] INFO  o.o.codegen.DefaultGenerator - Generating with dryRun=false',
      '[main] INFO  o.o.codegen.InlineModelResolver - Inline schema created as listProjects_403_response. To have complete control of the model name, set the `title` field',
      '[main] WARN  o.o.codegen.DefaultCodegen - Null schema found. Default type to `NULL_SCHEMA_ERR`',
      ...caller('org.openapitools.codegen.DefaultCodegen.getSchemaType'),
      '[main] ERROR o.o.codegen.DefaultGenerator - something broke',
    ].join('\n');
    const problems = openapiGeneratorProblems(output, 'python');
    expect(problems).toHaveLength(3);
    expect(problems[0]).toContain('listProjects_403_response');
    expect(problems[1]).toContain('NULL_SCHEMA_ERR');
    expect(problems[2]).toContain('something broke');
  });
});

describe('generated-clients suite: the checking proxy', () => {
  const document: OpenApiDocument = {
    openapi: '3.0.3',
    servers: [{ url: '/' }],
    paths: {
      '/things/{id}': {
        get: {
          operationId: 'getThing',
          responses: {
            '200': {
              description: 'ok',
              content: { 'application/json': { schema: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } } } },
            },
            '404': { description: 'missing' },
          },
        },
      },
    },
  };
  let upstream: http.Server;
  let target = '';
  beforeAll(async () => {
    // /things/good answers per the document; /things/bad a body that does not match; /things/odd an undocumented 418.
    upstream = http.createServer((req, res) => {
      const id = req.url?.split('/').pop();
      if (id === 'odd') return void res.writeHead(418).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(id === 'good' ? { id } : { name: id }));
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    target = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => upstream.close(() => resolve())));

  it('passes answers through, records the operations called, and reports every answer the document does not allow', async () => {
    const proxy = await startContractProxy('test', target, await ContractRoutes.of([document]));
    try {
      const good = await fetch(`${proxy.url}/things/good`);
      expect(await good.json()).toEqual({ id: 'good' });
      expect(proxy.failures).toEqual([]);
      await (await fetch(`${proxy.url}/things/bad`)).text();
      await (await fetch(`${proxy.url}/things/odd`)).text();
      await (await fetch(`${proxy.url}/elsewhere`)).text();
      expect(proxy.failures).toEqual([
        expect.stringMatching(/^GET \/things\/bad \(getThing\): body does not match the schema/),
        expect.stringMatching(/^GET \/things\/odd \(getThing\): status 418 is not documented/),
        expect.stringMatching(/^GET \/elsewhere: no documented operation/),
      ]);
      expect(proxy.calls.map((c) => [c.operationId, c.status])).toEqual([
        ['getThing', 200],
        ['getThing', 200],
        ['getThing', 418],
      ]);
    } finally {
      await proxy.close();
    }
  });
});

describe('generated-clients suite: the checking proxy on an event stream', () => {
  const eventSchema = {
    type: 'object',
    additionalProperties: false,
    required: ['event', 'data'],
    properties: { event: { type: 'string', enum: ['etag'] }, data: { type: 'string', pattern: '^\\{"etag":' } },
  };
  const document: OpenApiDocument = {
    openapi: '3.0.3',
    servers: [{ url: '/' }],
    paths: {
      '/stream/{kind}': {
        get: {
          operationId: 'stream',
          responses: { '200': { description: 'events', content: { 'text/event-stream': { schema: eventSchema } } } },
        },
      },
    },
  };
  let upstream: http.Server;
  let target = '';
  beforeAll(async () => {
    // /stream/good: one event that fits, split across writes; /stream/bad: one that fits, then two
    // that do not (another event name, an id); /stream/empty: a comment, then the end. The first
    // two stay open, as the real stream does.
    upstream = http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
      const kind = req.url?.split('/').pop();
      if (kind === 'empty') return void res.end(': heartbeat\n\n');
      res.write('event: etag\ndata: {"etag":');
      res.write('"\\"e-1\\""}\n\n');
      if (kind === 'bad') res.write('event: other\ndata: {"etag":"x"}\n\nid: 7\nevent: etag\ndata: {"etag":"y"}\n\n');
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    target = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  });
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        upstream.closeAllConnections();
        upstream.close(() => resolve());
      }),
  );

  /** Reads until `text` has arrived, then closes the stream, as a client that wants one event does. */
  async function readUntil(url: string, text: string): Promise<void> {
    const controller = new AbortController();
    const reader = (await fetch(url, { signal: controller.signal })).body!.getReader();
    let seen = '';
    while (!seen.includes(text)) {
      const { done, value } = await reader.read();
      if (done) break;
      seen += new TextDecoder().decode(value);
    }
    controller.abort();
  }

  it('checks every event against the schema of the stream and counts them', async () => {
    const proxy = await startContractProxy('test', target, await ContractRoutes.of([document]));
    try {
      await readUntil(`${proxy.url}/stream/good`, '}\n\n');
      await readUntil(`${proxy.url}/stream/bad`, '"y"}\n\n');
      await (await fetch(`${proxy.url}/stream/empty`)).text();
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(proxy.calls.map((c) => [c.operation, c.events])).toEqual([
        ['GET /stream/{kind}', 1],
        ['GET /stream/{kind}', 3],
        ['GET /stream/{kind}', 0],
      ]);
      expect(proxy.failures).toEqual([
        expect.stringMatching(
          /^GET \/stream\/bad \(stream\): event does not match the schema: .*"allowedValues".* event: \{"event":"other"/,
        ),
        expect.stringMatching(/^GET \/stream\/bad \(stream\): event does not match the schema: .*"additionalProperty":"id"/),
        'GET /stream/empty (stream): the stream closed before its first event',
      ]);
    } finally {
      await proxy.close();
    }
  });
});
