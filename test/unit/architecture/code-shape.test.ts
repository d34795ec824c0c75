import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from '../../support/import-graph.js';

const root = path.resolve(import.meta.dirname, '../../..');
const relative = (file: string) => path.relative(root, file);

/** A feature's builders live in its index.ts (targets: services.ts, which builds its services together). */
const builderFile = /^src\/features\/[^/]+\/(?:index|services)\.ts$/;
const serviceConstruction = /\bnew\s+\w+Service\s*\(/;

/** Lines of `text` that construct a service, comments aside. */
function constructions(text: string): number[] {
  const lines: number[] = [];
  text.split('\n').forEach((line, index) => {
    const code = line.trim();
    if (!code.startsWith('//') && !code.startsWith('*') && serviceConstruction.test(line)) lines.push(index + 1);
  });
  return lines;
}

/** The files docs/architecture.md allows over 500 lines, with their reasons (between the long-files markers). */
function longFilesNamed(): Map<string, string> {
  const doc = fs.readFileSync(path.join(root, 'docs/architecture.md'), 'utf8');
  const block = /<!-- long-files:start -->\n([\s\S]*?)<!-- long-files:end -->/.exec(doc);
  if (!block) throw new Error('docs/architecture.md has no long-files markers');
  const named = new Map<string, string>();
  for (const line of block[1]!.split('\n').filter((l) => l.trim() !== '')) {
    const entry = /^- `([^`]+)`: (.{20,})$/.exec(line);
    if (!entry) throw new Error(`docs/architecture.md, long files: "${line}" is not "- \`path\`: reason"`);
    named.set(entry[1]!, entry[2]!);
  }
  return named;
}

describe('code shape', () => {
  it('builds services only in a feature’s builder (no `new XService(` elsewhere in src/)', () => {
    const found = sourceFiles(path.join(root, 'src'))
      .filter((file) => !builderFile.test(relative(file)))
      .flatMap((file) => constructions(fs.readFileSync(file, 'utf8')).map((line) => `${relative(file)}:${line}`));
    expect(found, 'build the service through its feature’s builder (docs/architecture.md)').toEqual([]);
  });

  it('catches a construction, and not a comment or a builder', () => {
    expect(constructions('const s = new RulesService({ db });')).toEqual([1]);
    expect(constructions('// new RulesService( by hand\n * new FlagService(')).toEqual([]);
    expect(builderFile.test('src/features/rules/index.ts')).toBe(true);
    expect(builderFile.test('src/features/configuration/transactional-services.ts')).toBe(false);
  });

  it('keeps every file of src/ at 500 lines or fewer, but those docs/architecture.md names with a reason', () => {
    const named = longFilesNamed();
    const long = sourceFiles(path.join(root, 'src'))
      .map((file) => ({ file: relative(file), lines: fs.readFileSync(file, 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > 500);
    expect(long.filter(({ file }) => !named.has(file)).map(({ file, lines }) => `${file}: ${lines} lines`)).toEqual([]);
    // A named file that is short again comes off the list.
    expect([...named.keys()].filter((file) => !long.some((l) => l.file === file))).toEqual([]);
  });
});
