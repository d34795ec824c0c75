import { expect } from 'vitest';
import type { TestApp } from './test-app.js';

/** A management call with the owner token that must answer 200; returns the envelope's `data`. */
export async function expectOk(app: TestApp, method: string, path: string, body?: unknown): Promise<any> {
  const res = await app.mgmt(method, path, body);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body.data;
}
