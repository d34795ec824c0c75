import fs from 'node:fs';
import path from 'node:path';

/** One fenced block of a page: its info string (`sh`, `text`, `console`, ...) and its text. */
export interface Block {
  lang: string;
  text: string;
  /** Line of the opening fence, from 1. */
  line: number;
  /** The ```text block right after a ```sh block (only blank lines between): its output. */
  output?: string;
}

/** The fenced blocks of a Markdown page, in order; indented fences (in lists) count too. */
export function fencedBlocks(markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  let open: { lang: string; indent: string; line: number; body: string[] } | undefined;
  let lastClosed = -10;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fence = /^(\s*)```(\S*)\s*$/.exec(line);
    if (!open) {
      if (!fence) continue;
      open = { lang: fence[2]!, indent: fence[1]!, line: i + 1, body: [] };
      continue;
    }
    if (fence && fence[2] === '') {
      const block: Block = { lang: open.lang, text: `${open.body.join('\n')}\n`, line: open.line };
      const previous = blocks.at(-1);
      const onlyBlankBetween = lines.slice(lastClosed + 1, open.line - 1).every((l) => l.trim() === '');
      if (block.lang === 'text' && previous?.lang === 'sh' && onlyBlankBetween) previous.output = block.text;
      blocks.push(block);
      lastClosed = i;
      open = undefined;
      continue;
    }
    open.body.push(line.startsWith(open.indent) ? line.slice(open.indent.length) : line);
  }
  if (open) throw new Error(`a fence opened at line ${open.line} is never closed`);
  return blocks;
}

/** README.md and every page of docs/, relative to the repository root. */
export function documentationPages(root: string): string[] {
  const docs = fs
    .readdirSync(path.join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs];
}

/** An expected output as a pattern: `...` stands for any text, everything else is literal. */
export function outputPattern(expected: string): RegExp {
  const literal = expected
    .trim()
    .split('...')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(literal.join('[\\s\\S]*?'));
}
