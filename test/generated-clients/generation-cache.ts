/**
 * Generated clients kept by what they were generated from: the served document, the generator
 * (its jar or package, the logging configuration) and its arguments. A generator is a pure function
 * of these, so when none changed the suite reuses the files and the output (warnings included) of
 * the last generation instead of starting a JVM again; a change to any of them generates anew.
 * Only successful generations are kept. The cache lives in .cache/generated-clients (`make clean`
 * empties it; GENERATED_CLIENTS_CACHE=0 turns it off).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { ToolRun } from './generators.js';

export interface GenerationInputs {
  /** The files the generation reads (the document, the generator's jar or package.json, its settings). */
  files: string[];
  /** The command line, with the suite's own paths replaced by their role (output paths vary by checkout). */
  args: string[];
}

export interface GenerationCache {
  /** Runs `generate` into `output` unless a generation from the same inputs is kept; then copies it there. */
  generation(inputs: GenerationInputs, output: string | undefined, generate: () => Promise<ToolRun>): Promise<ToolRun>;
  hits: number;
}

function keyOf(inputs: GenerationInputs): string {
  const hash = createHash('sha256');
  for (const file of inputs.files) {
    const stat = fs.statSync(file);
    // A large file (the generator's jar, replaced whole by an upgrade) by size and time, the rest by content.
    const identity = stat.size > 1_000_000 ? `${stat.size}:${stat.mtimeMs}` : fs.readFileSync(file);
    hash.update(file).update('\0').update(identity).update('\0');
  }
  for (const arg of inputs.args) hash.update(arg).update('\0');
  return hash.digest('hex');
}

export function generationCache(root: string): GenerationCache {
  const dir = path.join(root, '.cache/generated-clients');
  const enabled = process.env.GENERATED_CLIENTS_CACHE !== '0';
  const cache: GenerationCache = {
    hits: 0,
    async generation(inputs, output, generate) {
      if (!enabled) return generate();
      const entry = path.join(dir, keyOf(inputs));
      const kept = path.join(entry, 'run.json');
      if (fs.existsSync(kept)) {
        if (output) {
          fs.rmSync(output, { recursive: true, force: true });
          fs.cpSync(path.join(entry, 'output'), output, { recursive: true });
        }
        cache.hits++;
        return JSON.parse(fs.readFileSync(kept, 'utf8')) as ToolRun;
      }
      const result = await generate();
      if (result.code === 0) {
        // Written aside, then renamed: an interrupted run leaves no half entry behind.
        const partial = `${entry}.${process.pid}.partial`;
        fs.rmSync(partial, { recursive: true, force: true });
        fs.mkdirSync(partial, { recursive: true });
        if (output) fs.cpSync(output, path.join(partial, 'output'), { recursive: true });
        fs.writeFileSync(path.join(partial, 'run.json'), JSON.stringify(result));
        fs.rmSync(entry, { recursive: true, force: true });
        fs.renameSync(partial, entry);
      }
      return result;
    },
  };
  return cache;
}
