import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { documentationPages } from './blocks.js';

const readme = fs.readFileSync('README.md', 'utf8');

describe('README.md', () => {
  it('stays short: at most 150 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(150);
  });

  it('links every page of docs/, and every page it links exists', () => {
    const linked = new Set([...readme.matchAll(/\]\(((?:docs\/)[^)#]+\.md)\)/g)].map((m) => m[1]));
    const pages = documentationPages('.').filter((page) => page !== 'README.md');
    expect(pages.filter((page) => !linked.has(page))).toEqual([]);
    expect([...linked].filter((page) => !fs.existsSync(page!))).toEqual([]);
  });

  it('starts with `make start` and `make test`', () => {
    expect(readme.split('\n').slice(0, 6).join('\n')).toMatch(/make start[\s\S]*make test/);
  });
});
