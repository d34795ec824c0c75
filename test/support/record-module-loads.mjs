// Loaded with `node --import` by process tests: appends every @opentelemetry package the process
// imports to the file named by VEXIL_TEST_MODULE_LOG, so a test can see which were loaded.
import fs from 'node:fs';
import { registerHooks } from 'node:module';

const file = process.env.VEXIL_TEST_MODULE_LOG;
if (file) {
  registerHooks({
    resolve(specifier, context, nextResolve) {
      if (specifier.startsWith('@opentelemetry/')) fs.appendFileSync(file, `${specifier}\n`);
      return nextResolve(specifier, context);
    },
  });
}
