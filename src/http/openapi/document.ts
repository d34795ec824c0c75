import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dereference } from '@apidevtools/json-schema-ref-parser';
import YAML from 'yaml';

export type OpenApiDocument = Record<string, unknown> & {
  servers?: Array<{ url: string }>;
  paths: Record<string, Record<string, unknown>>;
};

/** Repository root, found from this file whether it runs from src/ (tests) or dist/src/ (built). */
export function repoRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, 'specs')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

export type ApiName = 'public' | 'management';

export interface LoadedDocument {
  /** As written, served at the api-docs endpoints. */
  original: OpenApiDocument;
  /** Every $ref replaced by its target; used to compile validators. */
  dereferenced: OpenApiDocument;
}

const loaded = new Map<ApiName, Promise<LoadedDocument>>();

/**
 * The document, read and dereferenced once per process: every composition in the process (tests
 * start many) shares it and the validators compiled from it. Treat it as read-only.
 */
export function loadDocument(api: ApiName): Promise<LoadedDocument> {
  let document = loaded.get(api);
  if (!document) {
    document = readDocument(api);
    loaded.set(api, document);
    document.catch(() => loaded.delete(api));
  }
  return document;
}

async function readDocument(api: ApiName): Promise<LoadedDocument> {
  const file = path.join(repoRoot(), 'specs', `${api}.yaml`);
  const original = YAML.parse(fs.readFileSync(file, 'utf8')) as OpenApiDocument;
  const dereferenced = (await dereference(structuredClone(original), {
    dereference: { circular: 'ignore' },
  })) as OpenApiDocument;
  return { original, dereferenced };
}
