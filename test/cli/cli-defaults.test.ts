import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { createCliProject } from './cli-project.js';
import { runCli, startCli } from './run-cli.js';

// The default project kept at login, error messages as printed, and following the audit log.
describeEachDatabase('the vexil CLI with a default project', (db) => {
  let app: TestApp;
  let home: string;
  let env: Record<string, string>;
  const projectKey = `dflt-${Date.now().toString(36)}`;

  beforeAll(async () => {
    app = await startTestApp(db);
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'vexil-cli-defaults-'));
    env = { HOME: home, XDG_CONFIG_HOME: path.join(home, 'config') };
    await createCliProject(app, projectKey, 'Defaults');
  });
  afterAll(async () => {
    await app?.close();
    fs.rmSync(home, { recursive: true, force: true });
  });

  it('keeps a default project at login, used by serve and promote without --project', async () => {
    const login = await runCli(['login', '--url', app.baseUrl, '--token', app.ownerToken, '--project', projectKey], env);
    expect(login.stderr).toBe('');
    expect(login.code).toBe(0);
    expect(login.stdout).toContain(`default project ${projectKey}`);

    const served = await runCli(['flags', 'serve', 'new-checkout', 'true', '--env', 'staging'], env);
    expect(served.stderr).toBe('');
    expect(served.code).toBe(0);
    const promoted = await runCli(['promote', '--from', 'staging', '--to', 'production', '--publish'], env);
    expect(promoted.stderr).toBe('');
    expect(promoted.code).toBe(0);
    expect(promoted.stdout).toMatch(/new-checkout\s+published/);
    // VEXIL_PROJECT and --project come before the kept default.
    const elsewhere = await runCli(['flags', 'list', '--json'], { ...env, VEXIL_PROJECT: 'no-such-project' });
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stderr).toMatch(/not found/i);
  });

  it("prints a refusal's message once, named by its field", async () => {
    const result = await runCli(['flags', 'serve', 'new-checkout', 'maybe', '--env', 'staging'], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('vexil: value: A boolean flag value must be "true" or "false". [value_type_mismatch]\n');
  });

  it('names plan, not export, when a token lacks the scope a plan needs', async () => {
    const token = await app.mgmt('POST', '/tokens', {
      name: 'reader',
      scopes: ['flags:read'],
      tier: 'standard',
      grants: { projects: [projectKey], environments: [] },
    });
    expect(token.status, JSON.stringify(token.body)).toBe(200);
    const file = path.join(home, 'plan.yaml');
    expect((await runCli(['export', '--output', file], env)).code).toBe(0);
    const result = await runCli(['plan', file], { ...env, VEXIL_TOKEN: token.body.data.token });
    expect(result.code).toBe(1);
    // The scope a plan also needs is checked before anything is read, so the refusal names the
    // scope and never an export the person did not ask for.
    expect(result.stderr).toBe('vexil: This token lacks the targets:read scope. [scope_missing]\n');
  });

  it('follows the audit log without printing its own polling, each row under its header', async () => {
    const child = startCli(['audit', 'tail', '--lines', '3', '--follow', '--interval', '100'], env);
    let stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    for (let i = 0; i < 200 && stdout === ''; i++) await new Promise((r) => setTimeout(r, 50));
    await app.mgmt('PUT', `/projects/${projectKey}/flags/new-checkout`, { name: 'New checkout, renamed', permanent: true });
    let followed = false;
    for (let i = 0; i < 100 && !followed; i++) {
      await new Promise((r) => setTimeout(r, 50));
      followed = stdout.includes('flag.updated');
    }
    // Several more polls, each audited as a read of the audit log.
    await new Promise((r) => setTimeout(r, 600));
    child.kill('SIGINT');
    expect(await closed).toBe(0);
    expect(followed).toBe(true);
    expect(stdout).not.toContain('audit_log.listed');
    const [header, ...rows] = stdout.trimEnd().split('\n');
    expect(header).toMatch(/^TIME\s+ACTOR\s+ACTION\s+SUBJECT\s+RESULT\s+STATUS$/);
    const columnsOf = (line: string) =>
      ['ACTION', 'SUBJECT', 'RESULT'].map((name) => header!.indexOf(name)).map((at) => line[at - 1] === ' ' && line[at] !== ' ');
    for (const row of rows) expect(columnsOf(row), row).toEqual([true, true, true]);
    expect(rows.at(-1)).toMatch(/flag\.updated\s+new-checkout\s+success\s+200$/);
  });
});
