/**
 * What `make build` leaves in dist/, which the process tests run as an operator does (`make start`
 * runs dist/src/main.js): a built start costs a third less CPU than one through tsx, which compiles
 * every module again. `make test` builds first; run alone, a test that needs the build refuses
 * one older than its sources instead of testing old code.
 */
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
export const builtServer = path.join(root, 'dist/src/main.js');
export const builtResetOwner = path.join(root, 'dist/src/tools/reset-owner.js');
export const builtCli = path.join(root, 'dist/cli/src/main.js');

const stamp = path.join(root, 'dist/.build-stamp');
/** The build's inputs (the Makefile's SERVER_INPUTS). */
const inputs = ['src', 'db', 'generated', 'cli/src', 'tsconfig.json', 'cli/tsconfig.json'].map((input) => path.join(root, input));

function newest(entry: string): number {
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = 0;
  for (const file of fs.readdirSync(entry, { withFileTypes: true, recursive: true })) {
    if (file.isFile()) latest = Math.max(latest, fs.statSync(path.join(file.parentPath, file.name)).mtimeMs);
  }
  return latest;
}

let checked = false;

/** Throws unless dist/ was built after the last change to its sources. */
export function requireFreshBuild(): void {
  if (checked) return;
  if (!fs.existsSync(stamp) || fs.statSync(stamp).mtimeMs < Math.max(...inputs.map(newest))) {
    throw new Error('dist/ is missing or older than its sources: run `make build` first (`make test` does).');
  }
  checked = true;
}
