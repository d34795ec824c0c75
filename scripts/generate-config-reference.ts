// Writes docs/configuration.md, the reference of every environment variable, from
// src/config-reference.ts (which test/unit/config-reference.test.ts holds to src/config.ts).
// `--check` compares instead of writing and fails when the committed page is stale.
// Run with tsx: `npx tsx scripts/generate-config-reference.ts [--check]`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type SettingReference, settingsReference } from '../src/config-reference.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const target = path.join(root, 'docs', 'configuration.md');

const groups: Array<[SettingReference['group'], string, string]> = [
  ['server', 'The server', 'Read by every instance at start.'],
  ['webhooks', 'Webhook delivery', 'What docs/webhooks.md describes.'],
  [
    'tracing',
    'Tracing (the standard OpenTelemetry settings)',
    'Read only while trace export is on: with an endpoint set, unless turned off (docs/operating.md, Tracing).',
  ],
];

const cell = (text: string) => text.replaceAll('|', '\\|');

function page(): string {
  const out = [
    '# Configuration reference',
    '',
    '<!-- Written by scripts/generate-config-reference.ts from src/config-reference.ts: edit those, then `make generate`. -->',
    '',
    'With this page you can look up every environment variable Vexil reads, its default and what it',
    'means. Every setting is optional. Settings are checked at start: a value that is not valid',
    '(`VEXIL_TRUST_PROXY=yes`, a port out of range, an unknown `LOG_LEVEL`, a `REDIS_URL` that is not',
    '`redis://` or `rediss://`) stops the start with one line naming the setting. Booleans take',
    '`true`, `false`, `1` or `0`.',
  ];
  for (const [group, title, intro] of groups) {
    out.push('', `## ${title}`, '', intro, '', '| Variable | Default | Meaning |', '|---|---|---|');
    for (const setting of settingsReference.filter((s) => s.group === group)) {
      out.push(
        `| \`${setting.name}\` | ${setting.default === null ? 'none' : `\`${cell(setting.default)}\``} | ${cell(setting.meaning)} |`,
      );
    }
  }
  return `${out.join('\n')}\n`;
}

const output = page();
if (process.argv.includes('--check')) {
  const current = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : '';
  if (current !== output) {
    console.error('docs/configuration.md is stale. Run `make generate` and commit the result.');
    process.exit(1);
  }
} else {
  fs.writeFileSync(target, output);
  console.log(`wrote ${path.relative(root, target)}`);
}
