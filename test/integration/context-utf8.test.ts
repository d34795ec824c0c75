import net from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { expectOk } from '../support/expect-ok.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** Sends GET /v1/flags/{flag} with a header as raw bytes (fetch cannot send non-Latin-1 headers); the context header by default. */
function rawGet(
  baseUrl: string,
  path: string,
  key: string,
  bytes: Buffer,
  header = 'X-VEXIL-CONTEXT',
): Promise<{ status: number; body: string }> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname, () => {
      socket.write(
        Buffer.concat([
          Buffer.from(`GET ${path} HTTP/1.1\r\nHost: ${url.host}\r\nX-VEXIL-API-KEY: ${key}\r\n${header}: `),
          bytes,
          Buffer.from('\r\nConnection: close\r\n\r\n'),
        ]),
      );
    });
    let data = '';
    socket.on('data', (chunk) => (data += chunk.toString('utf8')));
    socket.on('end', () => resolve({ status: Number(data.slice(9, 12)), body: data.slice(data.indexOf('\r\n\r\n') + 4) }));
    socket.on('error', reject);
  });
}

// Non-ASCII text in the context and default-value headers, sent as raw UTF-8, is the text it is.
describeEachDatabase('context and default-value headers in UTF-8', (db) => {
  let app: TestApp;
  let key: string;
  const p = `/projects/utf8-${Date.now().toString(36)}`;
  beforeAll(async () => {
    app = await startTestApp(db);
    await expectOk(app, 'POST', '/projects', {
      key: p.slice(10),
      name: 'UTF-8',
      environments: [{ key: 'production', name: 'Production' }],
    });
    await expectOk(app, 'POST', `${p}/flags`, { key: 'swiss', name: 'Swiss', type: 'boolean' });
    const values: Array<{ ulid: string; display: string }> = await expectOk(app, 'GET', `${p}/flags/swiss/values`);
    const draft = await expectOk(app, 'POST', `${p}/flags/swiss/environments/production/targets`);
    const target = `${p}/flags/swiss/environments/production/targets/${draft.ulid}`;
    await expectOk(app, 'POST', `${target}/rules`, {
      value_ulid: values.find((v) => v.display === 'true')!.ulid,
      description: 'Zürich',
      criteria: [{ selector: 'attribute', sub_selector: 'city', comparer: 'equal', values: ['Zürich'] }],
    });
    await expectOk(app, 'PUT', `${target}/publish`, {});
    // No values: unavailable, so a declared default is served.
    await expectOk(app, 'POST', `${p}/flags`, { key: 'greeting', name: 'Greeting', type: 'string' });
    key = (await expectOk(app, 'POST', `${p}/environments/production/keys`, { kind: 'server' })).key;
  });
  afterAll(async () => {
    await app?.close();
  });

  const context = (city: string) =>
    JSON.stringify({ type: 'user', identifier: 'u-1', attributes: [{ key: 'city', values: [{ value: city }] }] });

  it('decodes raw UTF-8 bytes as UTF-8, the same as \\u escapes', async () => {
    const raw = await rawGet(app.baseUrl, '/v1/flags/swiss', key, Buffer.from(context('Zürich'), 'utf8'));
    expect(raw.status).toBe(200);
    expect(JSON.parse(raw.body).data.flag.value).toEqual({ boolean: true });
    const escaped = await rawGet(app.baseUrl, '/v1/flags/swiss', key, Buffer.from(context('Zürich').replace('ü', '\\u00fc'), 'utf8'));
    expect(JSON.parse(escaped.body).data.flag.value).toEqual({ boolean: true });
  });

  it('refuses bytes that are not UTF-8 with 400 instead of matching on mis-decoded text', async () => {
    const latin1 = await rawGet(app.baseUrl, '/v1/flags/swiss', key, Buffer.from(context('Zürich'), 'latin1'));
    expect(latin1.status).toBe(400);
    expect(JSON.parse(latin1.body)).toMatchObject({
      status: 'error',
      message: 'Context was supplied but is invalid.',
      code: 'bad_request',
    });
  });

  it('decodes a default-value header sent as raw UTF-8 bytes, under every name, the same as \\u escapes', async () => {
    const declared = JSON.stringify([{ key: 'greeting', type: 'string', value: 'Grüße 👋' }]);
    for (const header of ['X-VEXIL-DEFAULT-VALUE', 'X-DEFAULT-VALUE', 'D']) {
      const raw = await rawGet(app.baseUrl, '/v1/flags/greeting', key, Buffer.from(declared, 'utf8'), header);
      expect(raw.status, header).toBe(200);
      expect(JSON.parse(raw.body).data.flag.value, header).toEqual({ string: 'Grüße 👋' });
    }
    const escaped = await rawGet(
      app.baseUrl,
      '/v1/flags/greeting',
      key,
      Buffer.from(declared.replace('ü', '\\u00fc').replace('👋', '\\ud83d\\udc4b'), 'utf8'),
      'D',
    );
    expect(JSON.parse(escaped.body).data.flag.value).toEqual({ string: 'Grüße 👋' });
  });

  it('refuses a default-value header whose bytes are not UTF-8 with 400', async () => {
    const latin1 = await rawGet(
      app.baseUrl,
      '/v1/flags/greeting',
      key,
      Buffer.from(JSON.stringify([{ key: 'greeting', type: 'string', value: 'Grüße' }]), 'latin1'),
      'X-VEXIL-DEFAULT-VALUE',
    );
    expect(latin1.status).toBe(400);
    expect(JSON.parse(latin1.body)).toMatchObject({
      status: 'error',
      message: 'Default values were supplied but are invalid.',
      code: 'bad_request',
    });
  });
});
