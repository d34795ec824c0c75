// `make build`: each OpenAPI document of specs/ parsed once into dist/documents/<name>.json, with the
// SHA-256 of the YAML it came from. A start reads that instead of parsing the YAML again (about
// 0.4 s of CPU for both documents) when the digest still matches the YAML on disk
// (src/http/openapi/document.ts); otherwise it parses the YAML as before.
// Beside it, the document as the api-docs operations send it (compact JSON) compressed with gzip and
// brotli at their highest levels, named by the SHA-256 of those bytes
// (<name>.served-<digest>.json.gz and .br): the server sends these copies rather than compressing
// (src/http/web/compressed-document.ts), and a copy of another version of the document never matches.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import zlib from 'node:zlib';
import YAML from 'yaml';

const [source, target] = process.argv.slice(2);
if (!source || !target) throw new Error('usage: node scripts/build-documents.mjs specs/NAME.yaml dist/documents/NAME.json');
const text = fs.readFileSync(source, 'utf8');
const document = YAML.parse(text);
// Only a document JSON carries unchanged (YAML could hold values JSON cannot) is written.
if (!isDeepStrictEqual(JSON.parse(JSON.stringify(document)), document)) throw new Error(`${source} does not survive JSON`);
const dir = path.dirname(target);
fs.mkdirSync(dir, { recursive: true });
fs.writeFileSync(target, JSON.stringify({ sourceSha256: createHash('sha256').update(text).digest('hex'), document }));

const name = path.basename(target, '.json');
const served = Buffer.from(JSON.stringify(document));
const digest = createHash('sha256').update(served).digest('hex');
for (const old of fs.readdirSync(dir).filter((file) => file.startsWith(`${name}.served-`))) fs.rmSync(path.join(dir, old));
fs.writeFileSync(path.join(dir, `${name}.served-${digest}.json.gz`), zlib.gzipSync(served, { level: 9 }));
fs.writeFileSync(
  path.join(dir, `${name}.served-${digest}.json.br`),
  zlib.brotliCompressSync(served, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: served.length,
    },
  }),
);
