#!/usr/bin/env node
// Writes specs/project-configuration.schema.json (the flags-as-code file format) from the
// ProjectConfiguration schema of specs/management.yaml, so the document stays the one source.
// `--check` compares instead of writing and fails when the committed file is stale.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const target = path.join(root, 'specs', 'project-configuration.schema.json');
const schemas = YAML.parse(fs.readFileSync(path.join(root, 'specs', 'management.yaml'), 'utf8')).components.schemas;

/** OpenAPI 3.0 schema -> JSON Schema 2020-12: `nullable` becomes a null type, refs point at $defs. */
function convert(node, used) {
  if (Array.isArray(node)) return node.map((item) => convert(item, used));
  if (typeof node !== 'object' || node === null) return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'nullable' || key === 'example') continue;
    if (key === '$ref') {
      const name = value.replace('#/components/schemas/', '');
      used.add(name);
      out.$ref = `#/$defs/${name}`;
    } else out[key] = convert(value, used);
  }
  if (node.nullable === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
  }
  return out;
}

const defs = {};
const pending = ['ProjectConfiguration'];
while (pending.length > 0) {
  const name = pending.shift();
  if (defs[name]) continue;
  const used = new Set();
  defs[name] = convert(schemas[name], used);
  for (const next of used) if (!defs[next]) pending.push(next);
}
const { ProjectConfiguration, ...rest } = defs;
const sortedDefs = Object.fromEntries(Object.entries(rest).sort(([a], [b]) => (a < b ? -1 : 1)));
const document = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'Vexil project configuration',
  ...ProjectConfiguration,
  $defs: sortedDefs,
};
const output = JSON.stringify(document, null, 2) + '\n';

if (process.argv.includes('--check')) {
  const current = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : '';
  if (current !== output) {
    console.error('specs/project-configuration.schema.json is stale. Run `make generate` and commit the result.');
    process.exit(1);
  }
} else {
  fs.writeFileSync(target, output);
  console.log(`wrote ${path.relative(root, target)}`);
}
