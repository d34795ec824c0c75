#!/usr/bin/env node
// Builds @vexil/sdk twice: ES modules (dist/sdk/src) and CommonJS (dist/cjs/sdk/src, marked by
// its own package.json), so `import` and `require` both load it (package.json "exports").
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const sdk = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsc = path.resolve(sdk, '..', 'node_modules', '.bin', 'tsc');
execFileSync(tsc, ['-p', path.join(sdk, 'tsconfig.json')], { stdio: 'inherit' });
execFileSync(tsc, ['-p', path.join(sdk, 'tsconfig.cjs.json')], { stdio: 'inherit' });
fs.writeFileSync(path.join(sdk, 'dist', 'cjs', 'package.json'), '{ "type": "commonjs" }\n');
