import { expect } from 'vitest';
import type { TestApp } from '../support/test-app.js';

/** The project every CLI test works on: staging and production, and a boolean flag `new-checkout`. */
export async function createCliProject(app: TestApp, projectKey: string, name: string): Promise<void> {
  const project = await app.mgmt('POST', '/projects', {
    key: projectKey,
    name,
    environments: [
      { key: 'staging', name: 'Staging' },
      { key: 'production', name: 'Production' },
    ],
  });
  expect(project.status).toBe(200);
  const flag = await app.mgmt('POST', `/projects/${projectKey}/flags`, { key: 'new-checkout', name: 'New checkout', type: 'boolean' });
  expect(flag.status).toBe(200);
}
