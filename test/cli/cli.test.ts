import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { createCliProject } from './cli-project.js';
import { runCli, startCli } from './run-cli.js';

const noStackTrace = (text: string) => expect(text).not.toMatch(/\n\s+at /);

// The `vexil` command as a user runs it: a separate process against a running server.
describeEachDatabase('the vexil CLI', (db) => {
  let app: TestApp;
  let home: string;
  let env: Record<string, string>;
  const projectKey = `cli-${Date.now().toString(36)}`;

  beforeAll(async () => {
    app = await startTestApp(db);
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'vexil-cli-'));
    env = { HOME: home, XDG_CONFIG_HOME: path.join(home, 'config') };
    await createCliProject(app, projectKey, 'CLI project');
    expect((await app.mgmt('POST', `/projects/${projectKey}/flags`, { key: 'banner-text', name: 'Banner', type: 'string' })).status).toBe(
      200,
    );
  });
  afterAll(async () => {
    await app?.close();
    fs.rmSync(home, { recursive: true, force: true });
  });

  it('lists its commands, and refuses an unknown one with exit code 64', async () => {
    const help = await runCli(['--help'], env);
    expect(help.code).toBe(0);
    for (const words of [
      'login',
      'projects list',
      'flags get',
      'evaluate',
      'flags serve',
      'export',
      'plan',
      'apply',
      'promote',
      'keys create',
      'tokens create',
      'audit tail',
    ]) {
      expect(help.stdout).toContain(words);
    }
    const unknown = await runCli(['flags', 'fly'], env);
    expect(unknown.code).toBe(64);
    expect(unknown.stderr).toContain('unknown command "flags fly"');
  });

  it('says how to connect when it has no URL or token, without a stack trace', async () => {
    const result = await runCli(['projects', 'list'], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('No Vexil URL');
    noStackTrace(result.stderr);
  });

  it('refuses a wrong token at login and keeps nothing', async () => {
    const result = await runCli(['login', '--url', app.baseUrl, '--token', `pat_${'x'.repeat(40)}`], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Invalid bearer token.');
    expect(fs.existsSync(path.join(home, 'config', 'vexil', 'config.json'))).toBe(false);
    noStackTrace(result.stderr);
  });

  it('logs in with a token from standard input, keeps it readable by the user only, and uses it', async () => {
    const login = await runCli(['login', '--url', app.baseUrl], env, `${app.ownerToken}\n`);
    expect(login.stderr).toBe('');
    expect(login.code).toBe(0);
    const file = path.join(home, 'config', 'vexil', 'config.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ url: app.baseUrl, token: app.ownerToken });
    expect(login.stdout).not.toContain(app.ownerToken);

    const projects = await runCli(['projects', 'list'], env);
    expect(projects.code).toBe(0);
    expect(projects.stdout).toMatch(/^KEY\s+NAME\s+DESCRIPTION/);
    expect(projects.stdout).toContain(projectKey);
    // Not a terminal: no colour codes (terminal.test.ts shows them at a terminal).
    expect(projects.stdout).not.toContain('\u001b[');
  });

  it('prints JSON with --json, and VEXIL_URL / VEXIL_TOKEN need no login file', async () => {
    const bare = { HOME: home, VEXIL_URL: app.baseUrl, VEXIL_TOKEN: app.ownerToken };
    const result = await runCli(['environments', 'list', '--project', projectKey, '--json'], bare);
    expect(result.code).toBe(0);
    const environments = JSON.parse(result.stdout) as Array<{ key: string }>;
    expect(environments.map((e) => e.key).sort()).toEqual(['production', 'staging']);
  });

  it('lists flags with a type filter and shows one flag with its values', async () => {
    const list = await runCli(['flags', 'list', '--project', projectKey, '--type', 'boolean', '--json'], env);
    expect(list.code).toBe(0);
    expect((JSON.parse(list.stdout) as Array<{ key: string }>).map((f) => f.key)).toEqual(['new-checkout']);

    const get = await runCli(['flags', 'get', 'new-checkout', '--project', projectKey], env);
    expect(get.code).toBe(0);
    expect(get.stdout).toMatch(/type\s+boolean/);
    expect(get.stdout).toMatch(/\nfalse\s+yes\s+val_/);
    expect(get.stdout).toMatch(/\ntrue\s+val_/);

    const badType = await runCli(['flags', 'list', '--project', projectKey, '--type', 'colour'], env);
    expect(badType.code).toBe(64);
    expect(badType.stderr).toContain('--type must be one of');
  });

  it("shows the API's message and a non-zero exit code for a missing flag", async () => {
    const result = await runCli(['flags', 'get', 'no-such-flag', '--project', projectKey], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^vexil: .*not found/i);
    noStackTrace(result.stderr);
  });

  it('evaluates a flag for a context', async () => {
    const context = JSON.stringify({ type: 'user', identifier: 'u-42' });
    const result = await runCli(
      ['evaluate', 'new-checkout', '--project', projectKey, '--env', 'production', '--context', context, '--json'],
      env,
    );
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ key: 'new-checkout', value: false, resolved_by: 'default' });

    const human = await runCli(['evaluate', 'new-checkout', '--project', projectKey, '--env', 'production'], env);
    expect(human.stdout).toMatch(/value\s+false/);
    expect(human.stdout).toMatch(/resolved by\s+default/);

    // A value chosen by a weighted split names the split and the value's share.
    const values = (await app.mgmt('GET', `/projects/${projectKey}/flags/banner-text/values`)).body.data as { ulid: string }[];
    const a = (await app.mgmt('POST', `/projects/${projectKey}/flags/banner-text/values`, { display: 'Spring' })).body.data.ulid;
    const b = (await app.mgmt('POST', `/projects/${projectKey}/flags/banner-text/values`, { display: 'Summer' })).body.data.ulid;
    const draft = (await app.mgmt('POST', `/projects/${projectKey}/flags/banner-text/environments/production/targets`)).body.data.ulid;
    const targetPath = `/projects/${projectKey}/flags/banner-text/environments/production/targets/${draft}`;
    const split = {
      shares: [
        { value_ulid: a, weight: 25500 },
        { value_ulid: b, weight: 74500 },
      ],
    };
    expect((await app.mgmt('PUT', targetPath, { value_ulid: values[0]?.ulid ?? a, split })).status).toBe(200);
    expect((await app.mgmt('PUT', `${targetPath}/publish`, {})).status).toBe(200);
    const bySplit = await runCli(['evaluate', 'banner-text', '--project', projectKey, '--env', 'production', '--context', context], env);
    expect(bySplit.code).toBe(0);
    expect(bySplit.stdout).toMatch(/split\s+base: (Spring, 25\.5|Summer, 74\.5) %/);
    const splitJson = await runCli(
      ['evaluate', 'banner-text', '--project', projectKey, '--env', 'production', '--context', context, '--json'],
      env,
    );
    expect(JSON.parse(splitJson.stdout)).toMatchObject({ resolved_by: 'target', split: { rule: null, weight: expect.any(Number) } });

    const broken = await runCli(['evaluate', 'new-checkout', '--project', projectKey, '--env', 'production', '--context', '{nope'], env);
    expect(broken.code).toBe(64);
    expect(broken.stderr).toContain('--context must be a JSON document');
  });

  it('says when a prerequisite decided the value', async () => {
    const p = `/projects/${projectKey}`;
    expect((await app.mgmt('POST', `${p}/flags`, { key: 'gated', name: 'Gated', type: 'boolean' })).status).toBe(200);
    const checkout = (await app.mgmt('GET', `${p}/flags/new-checkout/values`)).body.data as { ulid: string; display: string }[];
    const base = `${p}/flags/gated/environments/production`;
    const target = (await app.mgmt('POST', `${base}/targets`)).body.data.ulid;
    const prerequisites = [{ flag_key: 'new-checkout', value_ulids: [checkout.find((v) => v.display === 'true')!.ulid] }];
    expect((await app.mgmt('PUT', `${base}/targets/${target}/prerequisites`, { prerequisites })).status).toBe(200);
    expect((await app.mgmt('PUT', `${base}/targets/${target}/publish`, { comment: 'gate' })).status).toBe(200);
    const human = await runCli(['evaluate', 'gated', '--project', projectKey, '--env', 'production'], env);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/resolved by\s+prerequisite \(a prerequisite flag did not serve a required value/);
    const json = await runCli(['evaluate', 'gated', '--project', projectKey, '--env', 'production', '--json'], env);
    expect(JSON.parse(json.stdout)).toMatchObject({ key: 'gated', value: false, resolved_by: 'prerequisite' });
    expect((await app.mgmt('DELETE', `${p}/flags/gated`)).status).toBe(200);
  });

  it('creates an environment key and a management token, showing each secret once', async () => {
    const key = await runCli(['keys', 'create', '--project', projectKey, '--env', 'staging', '--kind', 'server', '--json'], env);
    expect(key.code).toBe(0);
    const created = JSON.parse(key.stdout) as { key: string; kind: string };
    expect(created.kind).toBe('server');
    expect(created.key).toMatch(/^srv_[0-9A-Za-z]{32,}$/);

    const token = await runCli(['tokens', 'create', '--name', 'ci', '--scopes', 'flags:read,targets:read', '--projects', projectKey], env);
    expect(token.code).toBe(0);
    expect(token.stdout).toMatch(/token\s+mgt_[0-9A-Za-z]{32,}/);
    expect(token.stdout).toContain('shown only this once');

    const refused = await runCli(['tokens', 'create', '--name', 'x', '--scopes', 'flags:fly'], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^vexil: .*scopes/);
  });

  it('exports the project to a file, byte for byte what the API serves, and YAML by default', async () => {
    const file = path.join(home, 'shop.yaml');
    const written = await runCli(['export', '--project', projectKey, '--output', file], env);
    expect(written.code, written.stderr).toBe(0);
    const served = await fetch(`${app.baseUrl}/management/v1/projects/${projectKey}/configuration?format=yaml`, {
      headers: { authorization: `Bearer ${app.ownerToken}` },
    });
    expect(fs.readFileSync(file, 'utf8')).toBe(await served.text());
    expect(fs.readFileSync(file, 'utf8')).toMatch(/^version: 1\nproject:\n {2}key: /);

    const json = await runCli(['export', '--project', projectKey, '--json'], env);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout).flags.map((f: { key: string }) => f.key)).toEqual(['banner-text', 'new-checkout']);

    const missing = await runCli(['export', '--project', projectKey, '--environments', 'qa'], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('vexil: Environment "qa" not found. [not_found]\n');
  });

  it('plans a file: exit 0 when it matches, 2 with a readable diff when it would change something', async () => {
    const file = path.join(home, 'plan.yaml');
    expect((await runCli(['export', '--project', projectKey, '--output', file], env)).code).toBe(0);
    const clean = await runCli(['plan', file], env);
    expect(clean.stderr).toBe('');
    expect(clean.code).toBe(0);
    expect(clean.stdout).toBe('No changes: the project matches the file.\n');

    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('name: New checkout', 'name: New checkout v2'));
    const changed = await runCli(['plan', file], env);
    expect(changed.code).toBe(2);
    expect(changed.stdout).toBe(
      '~ update flag new-checkout\n    ~ name: "New checkout" -> "New checkout v2"\n\n0 to create, 1 to update, 0 to delete, 0 to publish.\n',
    );
    const json = await runCli(['plan', file, '--json'], env);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout).summary).toEqual({ create: 0, update: 1, delete: 0, publish: 0 });

    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('type: boolean', 'type: string'));
    const refused = await runCli(['plan', file], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^vexil: .*flags\.\d\.type: The type of flag "new-checkout" is boolean and cannot change\./);

    const unreadable = await runCli(['plan', path.join(home, 'missing.yaml')], env);
    expect(unreadable.code).toBe(1);
    expect(unreadable.stderr).toMatch(/^vexil: Cannot read .*missing\.yaml/);
  });

  it('applies a file, after which its plan is empty', async () => {
    const file = path.join(home, 'apply.yaml');
    expect((await runCli(['export', '--project', projectKey, '--output', file], env)).code).toBe(0);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('name: Banner\n', 'name: Banner from the file\n'));
    const applied = await runCli(['apply', file], env);
    // No progress line when standard error is not a terminal (test/cli/terminal.test.ts has both).
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    expect(applied.stdout).toBe(
      '~ update flag banner-text\n    ~ name: "Banner" -> "Banner from the file"\n\nApplied: 0 created, 1 updated, 0 deleted, 0 published.\n',
    );
    expect((await app.mgmt('GET', `/projects/${projectKey}/flags/banner-text`)).body.data.name).toBe('Banner from the file');
    expect((await runCli(['plan', file], env)).code).toBe(0);
  });

  it('plans a readable diff: each changed field old -> new, and how serving differs, rule by rule', async () => {
    const diffKey = `${projectKey}-diff`;
    const created = await app.mgmt('POST', '/projects', {
      key: diffKey,
      name: 'Diff',
      environments: [{ key: 'production', name: 'Production' }],
    });
    expect(created.status).toBe(200);
    const exported = await runCli(['export', '--project', diffKey, '--json'], env);
    expect(exported.code, exported.stderr).toBe(0);
    const configuration = JSON.parse(exported.stdout);
    const germanSpeakers = {
      description: 'German speakers',
      value: 'Hallo',
      criteria: [{ selector: 'attribute', sub_selector: 'country', comparer: 'in', values: ['DE', 'AT'] }],
    };
    const staff = {
      description: '',
      value: 'Welcome',
      criteria: [{ selector: 'attribute', sub_selector: 'email', comparer: 'endswith', values: ['@shop.example'] }],
    };
    const banner = {
      key: 'banner-text',
      name: 'Banner',
      type: 'string',
      description: null,
      permanent: false,
      include_in_mobile: true,
      include_in_client: true,
      values: [
        { value: 'Welcome', default: true },
        { value: 'Hallo', default: false },
      ],
      environments: { production: { value: 'Welcome', comment: null, rules: [germanSpeakers, staff], rollout: null } },
    };
    const file = path.join(home, 'diff.json');
    fs.writeFileSync(file, JSON.stringify({ ...configuration, flags: [banner] }));
    const first = await runCli(['plan', file], env);
    expect(first.code, first.stderr).toBe(2);
    expect(first.stdout).toBe(
      [
        '+ create flag banner-text',
        '+ create flag_value banner-text = Welcome',
        '+ create flag_value banner-text = Hallo',
        '> publish serving banner-text in production',
        '    + value: "Welcome"',
        '    + rule 1: "German speakers" serves "Hallo" when attribute country in ["DE","AT"]',
        '    + rule 2: serves "Welcome" when attribute email endswith ["@shop.example"]',
        '',
        '3 to create, 0 to update, 0 to delete, 1 to publish.',
        '',
      ].join('\n'),
    );
    expect((await runCli(['apply', file], env)).code).toBe(0);

    const changed = {
      ...banner,
      name: 'Banner text',
      description: 'The line above every page of the shop, in the language of the visitor where we know it',
      values: [...banner.values, { value: 'Grüezi', default: false }],
      environments: {
        production: {
          value: 'Hallo',
          comment: null,
          rules: [
            {
              ...germanSpeakers,
              description: 'German-speaking countries',
              value: 'Grüezi',
              criteria: [{ ...germanSpeakers.criteria[0], values: ['DE', 'AT', 'CH'] }],
            },
          ],
          rollout: { mode: 'manual', percentage: 50, status: 'active' },
        },
      },
    };
    fs.writeFileSync(file, JSON.stringify({ ...configuration, flags: [changed] }));
    const second = await runCli(['plan', file], env);
    expect(second.code, second.stderr).toBe(2);
    expect(second.stdout).toBe(
      [
        '~ update flag banner-text',
        '    ~ name: "Banner" -> "Banner text"',
        '    ~ description: null -> "The line above every page of the shop, in the language of…"',
        '+ create flag_value banner-text = Grüezi',
        '> publish serving banner-text in production',
        '    ~ value: "Welcome" -> "Hallo"',
        '    ~ rule 1 description: "German speakers" -> "German-speaking countries"',
        '    ~ rule 1 value: "Hallo" -> "Grüezi"',
        '    ~ rule 1 criteria: attribute country in ["DE","AT"] -> attribute country in ["DE","AT","CH"]',
        '    - rule 2: serves "Welcome" when attribute email endswith ["@shop.example"]',
        '    ~ rollout: none -> manual 50%',
        '',
        '1 to create, 1 to update, 0 to delete, 1 to publish.',
        '',
      ].join('\n'),
    );
    // Scripts keep the whole answer, before and after included.
    const json = await runCli(['plan', file, '--json'], env);
    expect(json.code).toBe(2);
    const serving = (JSON.parse(json.stdout) as { changes: Array<{ kind: string; before: unknown; after: unknown }> }).changes.find(
      (c) => c.kind === 'serving',
    );
    expect(serving).toMatchObject({
      before: { value: 'Welcome', rules: [{ value: 'Hallo' }, { value: 'Welcome' }] },
      after: { value: 'Hallo', rollout: { percentage: 50 } },
    });
  });

  it('serves a value in one call and promotes it to another environment', async () => {
    const served = await runCli(['flags', 'serve', 'new-checkout', 'true', '--project', projectKey, '--env', 'staging'], env);
    expect(served.stderr).toBe('');
    expect(served.code).toBe(0);
    expect(served.stdout).toMatch(/serving\s+true\n/);
    expect(served.stdout).toMatch(/status\s+published\n/);
    const missing = await runCli(['flags', 'serve', 'new-checkout', 'maybe', '--project', projectKey, '--env', 'staging'], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^vexil: .*value/);

    const promoted = await runCli(
      ['promote', '--project', projectKey, '--from', 'staging', '--to', 'production', '--publish', '--json'],
      env,
    );
    expect(promoted.code).toBe(0);
    expect(JSON.parse(promoted.stdout).promoted).toEqual([expect.objectContaining({ flag: 'new-checkout', status: 'published' })]);
    const evaluated = await runCli(['evaluate', 'new-checkout', '--project', projectKey, '--env', 'production', '--json'], env);
    expect(JSON.parse(evaluated.stdout)).toMatchObject({ value: true, resolved_by: 'target' });
  });

  it('says when Vexil cannot be reached', async () => {
    const closed = net.createServer();
    const port = await new Promise<number>((resolve) =>
      closed.listen(0, '127.0.0.1', () => resolve((closed.address() as net.AddressInfo).port)),
    );
    await new Promise((resolve) => closed.close(resolve));
    const result = await runCli(['projects', 'list', '--url', `http://127.0.0.1:${port}`, '--token', app.ownerToken], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`vexil: Cannot reach Vexil at http://127.0.0.1:${port}: ECONNREFUSED\n`);
  });

  it('tails the audit log and follows new entries until interrupted', async () => {
    const tail = await runCli(['audit', 'tail', '--lines', '5'], env);
    expect(tail.code).toBe(0);
    expect(tail.stdout).toMatch(/^TIME\s+ACTOR\s+ACTION/);

    const child = startCli(['audit', 'tail', '--lines', '1', '--follow', '--interval', '100', '--json'], env);
    let stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    // Wait for the first page, then make a change and wait for its entry.
    for (let i = 0; i < 100 && stdout === ''; i++) await new Promise((r) => setTimeout(r, 50));
    await app.mgmt('PUT', `/projects/${projectKey}/flags/banner-text`, { name: 'Banner, renamed', permanent: true });
    let followed = false;
    for (let i = 0; i < 100 && !followed; i++) {
      await new Promise((r) => setTimeout(r, 50));
      followed = stdout.split('\n').some((line) => line.includes('"flag.updated"'));
    }
    child.kill('SIGINT');
    expect(await closed).toBe(0);
    expect(followed).toBe(true);
  });
});
