// `make build`: each OpenAPI document of specs/ parsed once into dist/documents/<name>.json, with the
// SHA-256 of the YAML it came from. A start reads that instead of parsing the YAML again (about
// 0.4 s of CPU for both documents) when the digest still matches the YAML on disk
// (src/http/openapi/document.ts); otherwise it parses the YAML as before.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import YAML from 'yaml';

const [source, target] = process.argv.slice(2);
if (!source || !target) throw new Error('usage: node scripts/build-documents.mjs specs/NAME.yaml dist/documents/NAME.json');
const text = fs.readFileSync(source, 'utf8');
const document = YAML.parse(text);
// Only a document JSON carries unchanged (YAML could hold values JSON cannot) is written.
if (!isDeepStrictEqual(JSON.parse(JSON.stringify(document)), document)) throw new Error(`${source} does not survive JSON`);
fs.mkdirSync(path.dirname(target), { recursive: true });
fs.writeFileSync(target, JSON.stringify({ sourceSha256: createHash('sha256').update(text).digest('hex'), document }));
