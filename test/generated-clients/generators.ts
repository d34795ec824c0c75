/**
 * The code generators, run as their users run them (default options), each answering the
 * problems it reported: any warning or error, and any schema it had to name itself.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export interface ToolRun {
  code: number;
  output: string;
}

/** The processes `run` started that have not ended yet. */
const running = new Set<ChildProcess>();
let stopped = false;

/**
 * Ends every process `run` started that is still running, and makes `run` start no more (the
 * suite ran out of time). openapi-generator-cli is a python wrapper around java: ending the
 * wrapper leaves the JVM to finish its generation unobserved.
 */
export function stopRunning(): void {
  stopped = true;
  for (const child of running) child.kill('SIGTERM');
}

export function run(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<ToolRun> {
  return new Promise((resolve) => {
    if (stopped) return resolve({ code: 1, output: `not started (the suite was stopped): ${path.basename(command)}` });
    const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, NO_COLOR: '1', ...options.env } });
    running.add(child);
    child.on('exit', () => running.delete(child));
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', (error) => resolve({ code: 1, output: output + String(error) }));
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

/**
 * The two warnings openapi-generator's python generator (7.26) gives for these documents, recognised
 * by message and caller (the logback configuration prints the caller under each message). No change
 * to the documents removes either without changing the wire contract:
 * - "Failed to get the schema name: null" comes from AbstractPythonCodegen.toDefaultValue, which
 *   calls ModelUtils.getSimpleRef(schema.$ref) before looking whether there is a $ref, for every
 *   property and parameter, and again for the schema a $ref resolves to: a document whose one
 *   property is a $ref to a named string schema gives it too, so no naming or title avoids it;
 * - "From (reserved word) cannot be used as model name" comes from DefaultCodegen.fromOperation,
 *   which makes a model name of every parameter's name, here the `from` query parameter of the two
 *   audit-log lists (the documented name, sent by the console and by every existing client: renaming it
 *   would break them; no model named From exists, the python argument is `var_from`).
 */
const knownPythonWarnings: Array<{ message: string; caller: string }> = [
  {
    message: 'WARN  o.o.codegen.utils.ModelUtils - Failed to get the schema name: null',
    caller: 'org.openapitools.codegen.languages.AbstractPythonCodegen.toDefaultValue',
  },
  {
    message: 'WARN  o.o.c.l.AbstractPythonCodegen - From (reserved word) cannot be used as model name. Renamed to ModelFrom',
    caller: 'org.openapitools.codegen.DefaultCodegen.fromOperation',
  },
];

/** Problems in openapi-generator output: warnings, errors, and inline schemas it named itself. */
export function openapiGeneratorProblems(output: string, generator: string): string[] {
  const lines = output.split('\n');
  const problems: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const callers = lines.slice(i + 1, i + 4).filter((l) => l.startsWith('Caller+')).join(' ');
    if (/\] (WARN|ERROR) /.test(line)) {
      const known =
        generator === 'python' && knownPythonWarnings.some((k) => line.endsWith(k.message) && callers.includes(`Caller+1\t at ${k.caller}(`));
      if (!known) problems.push(`${line.trim()} ${callers.split('Caller+1')[1]?.trim() ?? ''}`.trim());
    } else if (line.includes('Inline schema created as')) {
      problems.push(line.replace(/ To have complete control.*$/, '').trim());
    }
  }
  return problems;
}

export interface Tools {
  root: string;
  openapiGenerator: string;
  logbackConfig: string;
}

export function tools(root: string): Tools {
  return {
    root,
    openapiGenerator: path.join(root, '.venv-clients/bin/openapi-generator-cli'),
    logbackConfig: path.join(root, 'test/generated-clients/openapi-generator-logback.xml'),
  };
}

/** `openapi-generator-cli validate`: passes only with "No validation issues detected." */
export async function openapiGeneratorValidate(t: Tools, spec: string): Promise<string[]> {
  const result = await run(t.openapiGenerator, ['validate', '-i', spec]);
  return result.code === 0 && result.output.includes('No validation issues detected.') ? [] : [result.output.trim()];
}

export async function openapiGenerate(
  t: Tools,
  spec: string,
  generator: 'typescript-fetch' | 'python',
  out: string,
  extra: string[] = [],
): Promise<string[]> {
  const result = await run(t.openapiGenerator, ['generate', '-i', spec, '-g', generator, '-o', out, ...extra], {
    env: { JAVA_OPTS: `-Dlogback.configurationFile=${t.logbackConfig}` },
  });
  const problems = openapiGeneratorProblems(result.output, generator);
  if (result.code !== 0) problems.push(`exit code ${result.code}`);
  return problems;
}

/** @hey-api/openapi-ts with its defaults (types, SDK functions, fetch client). */
export async function heyApiGenerate(t: Tools, spec: string, out: string): Promise<string[]> {
  const result = await run(path.join(t.root, 'node_modules/.bin/openapi-ts'), ['-i', spec, '-o', out]);
  const problems = result.output
    .split('\n')
    .filter((l) => /warn|error|✖|✗|⚠/i.test(l))
    .map((l) => l.trim());
  if (result.code !== 0) problems.push(`exit code ${result.code}: ${result.output.trim()}`);
  return problems;
}

/** openapi-typescript with its defaults; run where no redocly.yaml would be picked up. */
export async function openapiTypescriptGenerate(t: Tools, spec: string, out: string): Promise<string[]> {
  const result = await run(path.join(t.root, 'node_modules/.bin/openapi-typescript'), [spec, '-o', out], { cwd: path.dirname(out) });
  const problems = result.output
    .split('\n')
    .filter((l) => /warn|error|✘|⚠/i.test(l))
    .map((l) => l.trim());
  if (result.code !== 0) problems.push(`exit code ${result.code}: ${result.output.trim()}`);
  return problems;
}

/** Runs jobs with at most `limit` at a time (openapi-generator is a JVM: two at a time on two cores). */
export async function limited<T>(limit: number, jobs: Array<() => Promise<T>>): Promise<T[]> {
  const results: T[] = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const index = next++;
      results[index] = await (jobs[index] as () => Promise<T>)();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, jobs.length) }, worker));
  return results;
}
