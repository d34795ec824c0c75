import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import Koa from 'koa';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtDocumentsDir } from '../../src/http/openapi/document.js';
import { CompressedDocument } from '../../src/http/web/compressed-document.js';
import { consoleFiles } from '../../src/http/web/console-files.js';
import { copyReferenceAssets, precompressFolder } from '../../web/build/precompress.js';
import { testDatabases } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A GET whose body is read as sent (node:http does not decompress, unlike fetch). */
function rawGet(url: string, headers: Record<string, string>, method = 'GET'): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    http
      .request(url, { method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject)
      .end();
  });
}

function decode(answer: RawAnswer): Buffer {
  const encoding = answer.headers['content-encoding'];
  if (encoding === 'br') return zlib.brotliDecompressSync(answer.body);
  if (encoding === 'gzip') return zlib.gunzipSync(answer.body);
  return answer.body;
}

describe('static files precompressed at build time', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'vexil-precompress-'));
  const script = `console.log(${JSON.stringify('a console script '.repeat(400))});\n`;
  let server: http.Server;
  let baseUrl: string;

  beforeAll(async () => {
    fs.mkdirSync(path.join(root, 'assets'));
    fs.writeFileSync(path.join(root, 'assets', 'app.js'), script);
    fs.writeFileSync(path.join(root, 'assets', 'tiny.js'), 'let a = 1;\n');
    fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>Vexil</title>');
    precompressFolder(root);
    const app = new Koa();
    const serve = consoleFiles(root);
    app.use((ctx) => {
      if (!serve(ctx)) ctx.status = 404;
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('writes gzip and brotli copies beside text files, none for files too small to gain', () => {
    expect(fs.existsSync(path.join(root, 'assets', 'app.js.gz'))).toBe(true);
    expect(fs.existsSync(path.join(root, 'assets', 'app.js.br'))).toBe(true);
    expect(fs.existsSync(path.join(root, 'assets', 'tiny.js.gz'))).toBe(false);
    expect(fs.existsSync(path.join(root, 'index.html.br'))).toBe(false);
  });

  it('sends the copy the client accepts with Content-Encoding and Vary, brotli first', async () => {
    const cases: Array<[string, string | undefined]> = [
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0.5, gzip', 'gzip'],
      ['gzip;q=0, br', 'br'],
      ['*', 'br'],
      ['identity', undefined],
      ['', undefined],
    ];
    for (const [accept, expected] of cases) {
      const answer = await rawGet(`${baseUrl}/assets/app.js`, accept ? { 'accept-encoding': accept } : {});
      expect(answer.status, accept).toBe(200);
      expect(answer.headers['content-encoding'], accept).toBe(expected);
      expect(answer.headers.vary, accept).toBe('Accept-Encoding');
      expect(answer.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
      expect(decode(answer).toString(), accept).toBe(script);
      if (expected) expect(answer.body.length).toBeLessThan(script.length / 10);
    }
  });

  it('answers HEAD with the encoded length and no body', async () => {
    const answer = await rawGet(`${baseUrl}/assets/app.js`, { 'accept-encoding': 'br' }, 'HEAD');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('br');
    expect(Number(answer.headers['content-length'])).toBe(fs.statSync(path.join(root, 'assets', 'app.js.br')).size);
    expect(answer.body.length).toBe(0);
  });

  it('sends files without copies as they are, and never the copies by their own names', async () => {
    const tiny = await rawGet(`${baseUrl}/assets/tiny.js`, { 'accept-encoding': 'gzip, br' });
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.headers.vary).toBeUndefined();
    expect(tiny.body.toString()).toBe('let a = 1;\n');
    expect((await rawGet(`${baseUrl}/assets/app.js.br`, {})).status).toBe(404);
  });

  it('copies the reference files into the build, precompressed with it', () => {
    const swaggerRoot = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
    const docs = path.join(root, 'docs');
    copyReferenceAssets(swaggerRoot, docs, ['swagger-ui.css']);
    precompressFolder(docs);
    expect(fs.readFileSync(path.join(docs, 'swagger-ui.css'))).toEqual(fs.readFileSync(path.join(swaggerRoot, 'swagger-ui.css')));
    expect(zlib.brotliDecompressSync(fs.readFileSync(path.join(docs, 'swagger-ui.css.br')))).toEqual(
      fs.readFileSync(path.join(swaggerRoot, 'swagger-ui.css')),
    );
  });
});

describe('the API documents, compressed', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(testDatabases[0]!);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('sends each document in brotli or gzip as accepted, the same JSON as the plain answer', async () => {
    for (const url of ['/v1/api-docs', '/management/v1/api-docs']) {
      const plain = await rawGet(app.baseUrl + url, { accept: 'application/json' });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toBe('Accept, Accept-Encoding');
      for (const encoding of ['br', 'gzip']) {
        const answer = await rawGet(app.baseUrl + url, { accept: 'application/json', 'accept-encoding': `gzip, deflate, ${encoding}` });
        expect(answer.status).toBe(200);
        expect(answer.headers['content-encoding'], url).toBe(encoding === 'br' ? 'br' : 'gzip');
        expect(answer.headers.vary).toBe('Accept, Accept-Encoding');
        expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(JSON.parse(decode(answer).toString())).toEqual(JSON.parse(plain.body.toString()));
        expect(answer.body.length).toBeLessThan(plain.body.length / 4);
      }
    }
  });

  it('sends the copies make build wrote, not bytes compressed by the process', async () => {
    const built = fs.readdirSync(builtDocumentsDir());
    for (const [url, name] of [
      ['/v1/api-docs', 'public'],
      ['/management/v1/api-docs', 'management'],
    ] as const) {
      for (const [encoding, suffix] of [
        ['br', 'br'],
        ['gzip', 'gz'],
      ] as const) {
        const copies = built.filter((file) => file.startsWith(`${name}.served-`) && file.endsWith(`.json.${suffix}`));
        expect(copies, `${name} ${suffix}`).toHaveLength(1);
        const answer = await rawGet(app.baseUrl + url, { accept: 'application/json', 'accept-encoding': encoding });
        expect(answer.headers['content-encoding']).toBe(encoding);
        expect(answer.body.equals(fs.readFileSync(path.join(builtDocumentsDir(), copies[0] as string))), `${url} ${encoding}`).toBe(true);
      }
    }
  });
});

describe('a document and its build copies', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vexil-document-copies-'));
  const document = {
    openapi: '3.0.3',
    paths: Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`/things/${i}`, { get: { summary: `Thing ${i}` } }])),
  };
  const plain = Buffer.from(JSON.stringify(document));
  const digest = createHash('sha256').update(plain).digest('hex');

  /** What `served` sends to a client accepting only gzip. */
  async function gzipAnswer(served: CompressedDocument): Promise<RawAnswer> {
    const app = new Koa();
    app.use((ctx) => served.send(ctx, {}));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      return await rawGet(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { 'accept-encoding': 'gzip' });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('sends the copy named by the digest of its bytes', async () => {
    // Level 1: bytes the process (level 9) would not make, so the answer shows which was sent.
    const copy = zlib.gzipSync(plain, { level: 1 });
    expect(copy.equals(zlib.gzipSync(plain, { level: 9 }))).toBe(false);
    fs.writeFileSync(path.join(dir, `doc.served-${digest}.json.gz`), copy);
    const answer = await gzipAnswer(new CompressedDocument(document, { dir, name: 'doc' }));
    expect(answer.body.equals(copy)).toBe(true);
  });

  it('compresses a document that changed since the build itself, ignoring the older copy', async () => {
    const changed = { ...document, info: { title: 'changed' } };
    const answer = await gzipAnswer(new CompressedDocument(changed, { dir, name: 'doc' }));
    expect(JSON.parse(decode(answer).toString())).toEqual(changed);
  });
});
