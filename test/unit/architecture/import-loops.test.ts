import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importGraph, importLoops, sourceFiles } from '../../support/import-graph.js';

const root = path.resolve(import.meta.dirname, '../../..');

/** Each loop as one line: its files, relative to the repository. */
function describeLoops(loops: string[][]): string[] {
  return loops.map((loop) => `${loop.length} files: ${loop.map((file) => path.relative(root, file)).join(', ')}`);
}

describe('import graph', () => {
  for (const dir of ['src', 'web/src', 'cli/src']) {
    it(`no two files of ${dir} import each other, directly or through others (type-only imports included)`, () => {
      const loops = importLoops(importGraph(sourceFiles(path.join(root, dir))));
      expect(describeLoops(loops), 'import loops: move what the files share to a small file of its own').toEqual([]);
    });
  }

  it('finds a loop through a type-only import and a re-export, and names its files', () => {
    const tree = fs.mkdtempSync(path.join(os.tmpdir(), 'vexil-import-loops-'));
    try {
      const write = (name: string, text: string) => fs.writeFileSync(path.join(tree, name), text);
      write('a.ts', "import type { B } from './b.js';\nexport interface A { b: B }\n");
      write('b.ts', "export { c } from './c';\nexport interface B { n: number }\n");
      write('c.ts', "import type { A } from './a.js';\nexport const c = (a: A) => a;\n");
      write('d.ts', "import { c } from './c.js';\nexport const d = c;\n");
      const loops = importLoops(importGraph(sourceFiles(tree)));
      expect(loops.map((loop) => loop.map((file) => path.basename(file)))).toEqual([['a.ts', 'b.ts', 'c.ts']]);
    } finally {
      fs.rmSync(tree, { recursive: true, force: true });
    }
  });
});
