/**
 * A small client of the Vexil APIs for setting up benchmark data. Any failure of a set-up call
 * (501 not built yet, 404 route missing, 4xx/5xx) becomes NotAvailable naming the call, so a
 * scenario whose endpoints are not built reports "not available" instead of crashing.
 */
import { NotAvailable } from './util.mjs';

export class Api {
  constructor(baseUrl, token) {
    this.baseUrl = baseUrl;
    this.token = token;
    this.idem = 0;
  }

  async request(method, path, { body, rawBody, headers = {}, apiKey } = {}) {
    const h = { ...headers };
    if (apiKey) h['x-vexil-api-key'] = apiKey;
    let payload;
    if (rawBody !== undefined) {
      payload = rawBody;
      h['content-type'] ??= 'application/json';
    } else if (body !== undefined) {
      payload = JSON.stringify(body);
      h['content-type'] = 'application/json';
    }
    const res = await fetch(this.baseUrl + path, { method, headers: h, body: payload });
    const text = await res.text();
    let parsed = text;
    if ((res.headers.get('content-type') ?? '').includes('json') && text !== '') {
      try {
        parsed = JSON.parse(text);
      } catch {
        // keep text
      }
    }
    return { status: res.status, body: parsed, text, headers: res.headers };
  }

  /** A management call with the owner token; throws NotAvailable unless 2xx. */
  async mgmt(method, path, body, { idempotent = false } = {}) {
    const headers = { authorization: `Bearer ${this.token}` };
    if (idempotent) headers['idempotency-key'] = `bench-${process.pid}-${++this.idem}`;
    let res;
    try {
      res = await this.request(method, `/management/v1${path}`, { body, headers });
    } catch (error) {
      throw new NotAvailable(`${method} ${path}: ${error.message}`);
    }
    if (res.status < 200 || res.status > 299) {
      const message = typeof res.body === 'object' ? (res.body.message ?? JSON.stringify(res.body)) : String(res.text).slice(0, 200);
      throw new NotAvailable(`${method} /management/v1${genericPath(path)} -> ${res.status} ${message}`.slice(0, 300));
    }
    return res.body;
  }
}

/** A path with the benchmark's own keys and ulids replaced, for short messages. */
function genericPath(path) {
  return path.split('?')[0].replace(/\/[a-z]{3}_[0-9A-Z]{26}/g, '/{ulid}');
}

/** Checks that a public request answers as expected; throws NotAvailable otherwise. */
export async function expectStatus(api, what, method, path, options, expected = [200]) {
  let res;
  try {
    res = await api.request(method, path, options);
  } catch (error) {
    throw new NotAvailable(`${what}: ${error.message}`);
  }
  if (!expected.includes(res.status)) {
    const message =
      typeof res.body === 'object' ? (res.body.message ?? JSON.stringify(res.body).slice(0, 200)) : String(res.text).slice(0, 200);
    throw new NotAvailable(`${what}: ${method} ${path.split('?')[0]} -> ${res.status} ${message}`);
  }
  return res;
}
