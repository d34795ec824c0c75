/**
 * The code generators, run as their users run them (default options), each answering the
 * problems it reported: any warning or error, and any schema it had to name itself.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { generationCache, type GenerationCache } from './generation-cache.js';

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
 * The warnings openapi-generator gives for these documents whatever they say, by generator,
 * recognised by message and caller (the logback configuration prints the caller under each message).
 * No change to the documents removes one without changing the wire contract.
 * python (7.26):
 * - "Failed to get the schema name: null" comes from AbstractPythonCodegen.toDefaultValue, which
 *   calls ModelUtils.getSimpleRef(schema.$ref) before looking whether there is a $ref, for every
 *   property and parameter, and again for the schema a $ref resolves to: a document whose one
 *   property is a $ref to a named string schema gives it too, so no naming or title avoids it;
 * - "From (reserved word) cannot be used as model name" comes from DefaultCodegen.fromOperation,
 *   which makes a model name of every parameter's name, here the `from` query parameter of the two
 *   audit-log lists (the documented name, sent by the console and by every existing client: renaming it
 *   would break them; no model named From exists, the python argument is `var_from`).
 * go: the same two renamings for the `type` query parameter of the management lists (the Go
 *   argument is `type_`; no model named Type exists).
 * java: "Ignoring complex example on request body" (AbstractJavaCodegen): the generated API
 *   documentation leaves out a request body's example object; the client itself is whole.
 */
const knownWarnings: Record<string, Array<{ message: string; caller: string }>> = {
  python: [
    {
      message: 'WARN  o.o.codegen.utils.ModelUtils - Failed to get the schema name: null',
      caller: 'org.openapitools.codegen.languages.AbstractPythonCodegen.toDefaultValue',
    },
    {
      message: 'WARN  o.o.c.l.AbstractPythonCodegen - From (reserved word) cannot be used as model name. Renamed to ModelFrom',
      caller: 'org.openapitools.codegen.DefaultCodegen.fromOperation',
    },
  ],
  go: [
    {
      message: 'WARN  o.o.c.languages.AbstractGoCodegen - type (reserved word) cannot be used as parameter name. Renamed to type_',
      caller: 'org.openapitools.codegen.DefaultCodegen.fromParameter',
    },
    {
      message: 'WARN  o.o.c.languages.AbstractGoCodegen - type (reserved word) cannot be used as model name. Renamed to model_type',
      caller: 'org.openapitools.codegen.languages.GoClientCodegen.toModelName',
    },
  ],
  java: [
    {
      message: 'WARN  o.o.c.languages.AbstractJavaCodegen - Ignoring complex example on request body',
      caller: 'org.openapitools.codegen.DefaultCodegen.fromRequestBody',
    },
  ],
};

/** Problems in openapi-generator output: warnings, errors, and inline schemas it named itself. */
export function openapiGeneratorProblems(output: string, generator: string): string[] {
  const lines = output.split('\n');
  const problems: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const callers = lines
      .slice(i + 1, i + 4)
      .filter((l) => l.startsWith('Caller+'))
      .join(' ');
    if (/\] (WARN|ERROR) /.test(line)) {
      const known = (knownWarnings[generator] ?? []).some(
        (k) => line.endsWith(k.message) && callers.includes(`Caller+1\t at ${k.caller}(`),
      );
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
  /**
   * What the Java client compiles and runs against, with no download: Debian (bookworm) packages
   * Jackson 2.14 but neither jackson-datatype-jsr310 nor jackson-databind-nullable, which the
   * `native` library needs, while openapi-generator's own jar bundles Jackson with jsr310 at one
   * version; `@javax.annotation.Generated` comes from Debian's libgeronimo-annotation-1.3-spec-java.
   * (The client is generated with `openApiNullable=false`, so it needs no jackson-databind-nullable.)
   */
  javaClasspath: string[];
  /** Generations kept from earlier runs, by their inputs (generation-cache.ts). */
  cache: GenerationCache;
}

export function tools(root: string): Tools {
  return {
    root,
    openapiGenerator: path.join(root, '.venv-clients/bin/openapi-generator-cli'),
    logbackConfig: path.join(root, 'test/generated-clients/openapi-generator-logback.xml'),
    javaClasspath: [generatorJar(root), '/usr/share/java/geronimo-annotation-1.3-spec.jar'],
    cache: generationCache(root),
  };
}

/** The jar inside the openapi-generator-cli package of .venv-clients (lib/python3.x/site-packages). */
function generatorJar(root: string): string {
  const lib = path.join(root, '.venv-clients/lib');
  const python = fs.existsSync(lib) ? fs.readdirSync(lib).find((name) => name.startsWith('python')) : undefined;
  return path.join(lib, python ?? 'python3', 'site-packages/openapi_generator_cli/openapi-generator.jar');
}

/** `openapi-generator-cli validate`: passes only with "No validation issues detected." */
export async function openapiGeneratorValidate(t: Tools, spec: string): Promise<string[]> {
  const result = await t.cache.generation({ files: [spec, generatorJar(t.root)], args: ['openapi-generator', 'validate'] }, undefined, () =>
    run(t.openapiGenerator, ['validate', '-i', spec]),
  );
  return result.code === 0 && result.output.includes('No validation issues detected.') ? [] : [result.output.trim()];
}

export async function openapiGenerate(
  t: Tools,
  spec: string,
  generator: 'typescript-fetch' | 'python' | 'go' | 'java',
  out: string,
  extra: string[] = [],
): Promise<string[]> {
  const inputs = { files: [spec, generatorJar(t.root), t.logbackConfig], args: ['openapi-generator', 'generate', generator, ...extra] };
  const result = await t.cache.generation(inputs, out, () =>
    run(t.openapiGenerator, ['generate', '-i', spec, '-g', generator, '-o', out, ...extra], {
      env: { JAVA_OPTS: `-Dlogback.configurationFile=${t.logbackConfig}` },
    }),
  );
  const problems = openapiGeneratorProblems(result.output, generator);
  if (result.code !== 0) problems.push(`exit code ${result.code}`);
  return problems;
}

/** @hey-api/openapi-ts with its defaults (types, SDK functions, fetch client), or with the plugins given (`['-p', 'zod']`). */
export async function heyApiGenerate(t: Tools, spec: string, out: string, plugins: string[] = []): Promise<string[]> {
  const packages = ['@hey-api/openapi-ts', 'zod'].map((name) => path.join(t.root, 'node_modules', name, 'package.json'));
  const result = await t.cache.generation({ files: [spec, ...packages], args: ['hey-api', ...plugins] }, out, () =>
    run(path.join(t.root, 'node_modules/.bin/openapi-ts'), ['-i', spec, '-o', out, ...plugins]),
  );
  const problems = result.output
    .split('\n')
    .filter((l) => /warn|error|✖|✗|⚠/i.test(l))
    .map((l) => l.trim());
  if (result.code !== 0) problems.push(`exit code ${result.code}: ${result.output.trim()}`);
  return problems;
}

/** openapi-typescript with its defaults; run where no redocly.yaml would be picked up. */
export async function openapiTypescriptGenerate(t: Tools, spec: string, out: string): Promise<string[]> {
  const inputs = { files: [spec, path.join(t.root, 'node_modules/openapi-typescript/package.json')], args: ['openapi-typescript'] };
  const result = await t.cache.generation(inputs, out, () =>
    run(path.join(t.root, 'node_modules/.bin/openapi-typescript'), [spec, '-o', out], { cwd: path.dirname(out) }),
  );
  const problems = result.output
    .split('\n')
    .filter((l) => /warn|error|✘|⚠/i.test(l))
    .map((l) => l.trim());
  if (result.code !== 0) problems.push(`exit code ${result.code}: ${result.output.trim()}`);
  return problems;
}

/**
 * Go, as Debian packages it (golang-go; Debian's Go is older than the `go` line of the generated
 * go.mod): GOPATH mode, the clients in `<gopath>/src/vexil/<name>`, their one dependency
 * (gopkg.in/validator.v2) from Debian's golang-gopkg-validator.v2-dev in /usr/share/gocode, and no
 * module download (GOPROXY=off). Builds `vexil/flow` (which imports both clients) into `binary`.
 */
export async function goBuild(gopath: string, binary: string): Promise<string[]> {
  const result = await run('go', ['build', '-o', binary, 'vexil/flow'], {
    env: { GO111MODULE: 'off', GOPATH: `${gopath}${path.delimiter}/usr/share/gocode`, GOFLAGS: '', GOPROXY: 'off' },
  });
  return result.code === 0 ? [] : result.output.trim().split('\n');
}

/** javac of every source under the given folders into `classes`; any warning or error is a problem. */
export async function javaCompile(t: Tools, sources: string[], classes: string, classpath: string[] = []): Promise<string[]> {
  const files = sources.flatMap((folder) => javaFiles(folder)).sort();
  const jars = [...classpath, ...t.javaClasspath];
  // Kept by the sources, the jars and the compiler (javac on PATH, followed to its JDK).
  const inputs = { files: [...files, ...jars.filter((jar) => fs.existsSync(jar))], args: ['javac', javacBinary(), ...jars] };
  const result = await t.cache.generation(inputs, classes, () =>
    run('javac', ['-nowarn', '-encoding', 'UTF-8', '-d', classes, '-cp', jars.join(path.delimiter), ...files]),
  );
  const problems = result.output
    .split('\n')
    .filter((l) => l.trim() !== '' && !/^Note: /.test(l))
    .map((l) => l.trim());
  if (result.code !== 0 && problems.length === 0) problems.push(`exit code ${result.code}`);
  return problems;
}

function javacBinary(): string {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const file = path.join(dir, 'javac');
    if (fs.existsSync(file)) return fs.realpathSync(file);
  }
  return 'javac';
}

function javaFiles(folder: string): string[] {
  return fs
    .readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.java'))
    .map((f) => path.join(folder, f));
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
