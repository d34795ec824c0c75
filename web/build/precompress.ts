import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

/** Files worth compressing: text. Images and fonts are compressed already. */
const compressible = new Set(['.html', '.js', '.mjs', '.css', '.json', '.svg', '.map', '.txt']);
/** Below this size a compressed copy saves less than its headers cost. */
const minimumBytes = 1024;

function filesBelow(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesBelow(full) : [full];
  });
}

/**
 * Writes `<file>.gz` and `<file>.br` beside every compressible file below `dir`, at the highest
 * levels (done once at build time, so the server never compresses a static file per request).
 */
export function precompressFolder(dir: string): void {
  for (const file of filesBelow(dir)) {
    if (!compressible.has(path.extname(file)) || fs.statSync(file).size < minimumBytes) continue;
    const content = fs.readFileSync(file);
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(content, { level: 9 }));
    fs.writeFileSync(
      `${file}.br`,
      zlib.brotliCompressSync(content, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length,
        },
      }),
    );
  }
}

/** Copies the API reference's Swagger UI files into `dir` (web/dist/docs), where they are precompressed with the console's. */
export function copyReferenceAssets(swaggerRoot: string, dir: string, names: readonly string[]): void {
  fs.mkdirSync(dir, { recursive: true });
  for (const name of names) fs.copyFileSync(path.join(swaggerRoot, name), path.join(dir, name));
}
