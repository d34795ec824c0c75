import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';

// Many OpenAPI tools (openapi-generator's parser among them) read YAML 1.1, where unquoted `on`,
// `off`, `yes` and `no` are booleans. The documents must mean the same under both versions.
const documents = ['specs/public.yaml', 'specs/management.yaml'];

describe('the OpenAPI documents read the same as YAML 1.1 and YAML 1.2', () => {
  for (const file of documents) {
    it(file, () => {
      const text = fs.readFileSync(path.resolve(file), 'utf8');
      const asYaml12 = YAML.parse(text, { maxAliasCount: -1 });
      const asYaml11 = YAML.parse(text, { version: '1.1', maxAliasCount: -1 });
      expect(asYaml11).toEqual(asYaml12);
    });
  }
});
