import { createHash } from 'node:crypto';
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

/** Where `make build` writes the parsed documents and their compressed copies (scripts/build-documents.mjs). */
export const builtDocumentsDir = (): string => path.join(repoRoot(), 'dist', 'documents');

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

/**
 * The document written as `yaml`: the copy `make build` parsed into dist/documents (`built`, see
 * scripts/build-documents.mjs) when it was parsed from this very text, else the YAML parsed now.
 */
export function parseDocument(yaml: string, built: string | undefined): OpenApiDocument {
  if (built !== undefined) {
    const parsed = JSON.parse(built) as { sourceSha256?: string; document?: OpenApiDocument };
    if (parsed.document && parsed.sourceSha256 === createHash('sha256').update(yaml).digest('hex')) return parsed.document;
  }
  return YAML.parse(yaml) as OpenApiDocument;
}

function readIfPresent(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

async function readDocument(api: ApiName): Promise<LoadedDocument> {
  const root = repoRoot();
  const yaml = fs.readFileSync(path.join(root, 'specs', `${api}.yaml`), 'utf8');
  const original = parseDocument(yaml, readIfPresent(path.join(builtDocumentsDir(), `${api}.json`)));
  const dereferenced = (await dereference(structuredClone(original), {
    dereference: { circular: 'ignore' },
  })) as OpenApiDocument;
  return { original, dereferenced };
}
