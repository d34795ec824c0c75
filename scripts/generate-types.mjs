#!/usr/bin/env node
// Regenerates generated/*.ts from specs/*.yaml with openapi-typescript.
// `--check` compares instead of writing and fails when the committed files are stale.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');
const banner = (spec) =>
  `/**\n * GENERATED FILE - DO NOT EDIT.\n * Source: specs/${spec}.yaml, by openapi-typescript (make generate).\n */\n\n`;

let stale = [];
for (const spec of ['public', 'management']) {
  const source = new URL(`file://${path.join(root, 'specs', `${spec}.yaml`)}`);
  const ast = await openapiTS(source, { alphabetize: false, exportType: false });
  const output = banner(spec) + astToString(ast);
  const target = path.join(root, 'generated', `${spec}.ts`);
  if (check) {
    const current = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : '';
    if (current !== output) stale.push(path.relative(root, target));
  } else {
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, output);
    console.log(`wrote ${path.relative(root, target)}`);
  }
}
if (stale.length > 0) {
  console.error(`Generated types are stale: ${stale.join(', ')}. Run \`make generate\` and commit the result.`);
  process.exit(1);
}
