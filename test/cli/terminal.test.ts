import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { createCliProject } from './cli-project.js';
import { runCli, runCliInTerminal } from './run-cli.js';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Splits a terminal's record at the end of the progress line: what was shown while the request
 * ran ("Label…", then "Label… 1s" each second), cleared with spaces, and what came after it.
 */
function afterProgress(output: string, label: string): string {
  const cleared = output.lastIndexOf('\r');
  expect(cleared, output).toBeGreaterThan(0);
  const shown = `${escapeRegExp(label)}…`;
  expect(output.slice(0, cleared + 1)).toMatch(new RegExp(`^${shown}(\\r${shown} \\d+s)*\\r {${label.length + 1},}\\r$`));
  return output.slice(cleared + 1);
}

// The vexil command at a terminal (a pseudo-terminal from util-linux `script`): colour and progress.
// Output does not depend on the database, so one is enough.
describe('the vexil CLI at a terminal', () => {
  let app: TestApp;
  let home: string;
  let env: Record<string, string>;
  const projectKey = `tty-${Date.now().toString(36)}`;

  beforeAll(async () => {
    app = await startTestApp(testDatabases[0]!);
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'vexil-tty-'));
    env = { HOME: home, VEXIL_URL: app.baseUrl, VEXIL_TOKEN: app.ownerToken };
    await createCliProject(app, projectKey, 'Terminal');
  });
  afterAll(async () => {
    await app?.close();
    if (home) fs.rmSync(home, { recursive: true, force: true });
  });

  it('colours tables on a terminal, and not when NO_COLOR is set', async () => {
    const coloured = await runCliInTerminal(['projects', 'list'], env);
    expect(coloured.code).toBe(0);
    expect(coloured.output).toMatch(/^\u001b\[1mKEY\s+NAME\s+DESCRIPTION\u001b\[22m\n/);

    const plain = await runCliInTerminal(['projects', 'list'], { ...env, NO_COLOR: '1' });
    expect(plain.code).toBe(0);
    expect(plain.output).toMatch(/^KEY\s+NAME\s+DESCRIPTION\n/);
    expect(plain.output).not.toContain('\u001b[');
  });

  it('colours a plan by sign on a terminal: + green, - red, ~ yellow, and not when NO_COLOR is set', async () => {
    const exported = await runCli(['export', '--project', projectKey, '--json'], env);
    expect(exported.code, exported.stderr).toBe(0);
    const configuration = JSON.parse(exported.stdout);
    const darkMode = {
      ...configuration.flags[0],
      key: 'dark-mode',
      name: 'Dark mode',
      environments: { production: { value: 'true', comment: null, rules: [], rollout: null } },
    };
    // Without new-checkout and with --prune, the plan deletes it.
    const project = { ...configuration.project, name: 'Terminal, coloured' };
    fs.writeFileSync(path.join(home, 'colours.json'), JSON.stringify({ ...configuration, project, flags: [darkMode] }));
    const label = `Planning colours.json against project ${projectKey}`;

    const coloured = await runCliInTerminal(['plan', 'colours.json', '--prune'], env, home);
    expect(coloured.code).toBe(2);
    const lines = afterProgress(coloured.output, label).split('\n');
    expect(lines.slice(0, 9)).toEqual([
      `\u001b[33m~ update project ${projectKey}\u001b[39m`,
      '\u001b[33m    ~ name: "Terminal" -> "Terminal, coloured"\u001b[39m',
      '\u001b[32m+ create flag dark-mode\u001b[39m',
      '\u001b[31m- delete flag new-checkout\u001b[39m',
      '\u001b[32m+ create flag_value dark-mode = true\u001b[39m',
      '\u001b[32m+ create flag_value dark-mode = false\u001b[39m',
      '\u001b[36m> publish serving dark-mode in production\u001b[39m',
      '\u001b[32m    + value: "true"\u001b[39m',
      '',
    ]);

    const plain = await runCliInTerminal(['plan', 'colours.json', '--prune'], { ...env, NO_COLOR: '1' }, home);
    expect(plain.code).toBe(2);
    const text = afterProgress(plain.output, label);
    expect(text).toMatch(
      /^~ update project \S+\n {4}~ name: "Terminal" -> "Terminal, coloured"\n\+ create flag dark-mode\n- delete flag new-checkout\n/,
    );
    expect(text).not.toContain('\u001b[');
  });

  it('shows progress while exporting, planning and applying, cleared before the coloured result', async () => {
    const exported = await runCliInTerminal(['export', '--project', projectKey], env);
    expect(exported.code).toBe(0);
    const yaml = afterProgress(exported.output, `Exporting project ${projectKey}`);
    expect(yaml).toMatch(/^version: 1\nproject:\n {2}key: /);

    fs.writeFileSync(path.join(home, 'plan.yaml'), yaml.replace('name: New checkout', 'name: New checkout v2'));
    // From the file's folder, so the progress line names it as typed.
    const planned = await runCliInTerminal(['plan', 'plan.yaml'], env, home);
    expect(planned.code).toBe(2);
    expect(afterProgress(planned.output, `Planning plan.yaml against project ${projectKey}`)).toBe(
      '\u001b[33m~ update flag new-checkout\u001b[39m\n' +
        '\u001b[33m    ~ name: "New checkout" -> "New checkout v2"\u001b[39m\n' +
        '\n0 to create, 1 to update, 0 to delete, 0 to publish.\n',
    );

    // --json at a terminal: still the progress line (on standard error), and plain JSON after it.
    const json = await runCliInTerminal(['plan', 'plan.yaml', '--json'], env, home);
    expect(json.code).toBe(2);
    expect(JSON.parse(afterProgress(json.output, `Planning plan.yaml against project ${projectKey}`)).summary).toEqual({
      create: 0,
      update: 1,
      delete: 0,
      publish: 0,
    });

    const applied = await runCliInTerminal(['apply', 'plan.yaml'], env, home);
    expect(applied.code).toBe(0);
    expect(afterProgress(applied.output, `Applying plan.yaml to project ${projectKey}`)).toMatch(
      /^\u001b\[33m~ update flag new-checkout\u001b\[39m\n/,
    );

    const promoted = await runCliInTerminal(['promote', '--project', projectKey, '--from', 'staging', '--to', 'production'], env);
    expect(promoted.code).toBe(0);
    expect(afterProgress(promoted.output, `Promoting staging to production in project ${projectKey}`)).toMatch(
      /^\u001b\[1mFLAG\s+STATUS\s+TARGET\u001b\[22m\n/,
    );
  });

  it('writes nothing but the result when not at a terminal', async () => {
    const file = path.join(home, 'quiet.yaml');
    const exported = await runCli(['export', '--project', projectKey], env);
    expect(exported).toMatchObject({ code: 0, stderr: '' });
    fs.writeFileSync(file, exported.stdout.replace('name: Terminal', 'name: Terminal, renamed'));
    for (const args of [
      ['plan', file],
      ['plan', file, '--json'],
      ['apply', file],
      ['promote', '--project', projectKey, '--from', 'staging', '--to', 'production'],
    ]) {
      const result = await runCli(args, env);
      expect(result.stderr, args.join(' ')).toBe('');
      expect(result.code).toBe(args[0] === 'plan' ? 2 : 0);
      expect(result.stdout).not.toContain('\u001b[');
    }
  });
});
