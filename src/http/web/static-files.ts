import fs from 'node:fs';
import path from 'node:path';
import type Koa from 'koa';
import { preferredEncoding, type ContentEncoding } from './content-encoding.js';

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** The suffix of each precompressed copy the build writes beside a file (web/build/precompress.ts). */
const suffixes: Record<ContentEncoding, string> = { br: '.br', gzip: '.gz' };

/** A file below `root` for a URL path, or undefined (missing, a folder, or outside the root). */
export function fileBelow(root: string, urlPath: string): string | undefined {
  let relative: string;
  try {
    relative = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (relative.includes('\0')) return undefined;
  const file = path.resolve(root, `.${path.posix.normalize(`/${relative}`)}`);
  if (file !== root && !file.startsWith(root + path.sep)) return undefined;
  try {
    return fs.statSync(file).isFile() ? file : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the URL names a precompressed copy itself (`app.js.gz`): those are served only as an encoding. */
export const isPrecompressedCopy = (urlPath: string): boolean => urlPath.endsWith('.gz') || urlPath.endsWith('.br');

/**
 * Sends a file with its content type and the given caching. When the build wrote compressed
 * copies beside it, the one the client accepts (brotli before gzip) is sent with
 * Content-Encoding, and every answer for the file says Vary: Accept-Encoding.
 */
export function sendFile(ctx: Koa.Context, file: string, cacheControl: string): void {
  const copies = (Object.keys(suffixes) as ContentEncoding[]).filter((encoding) => fs.existsSync(file + suffixes[encoding]));
  const encoding = copies.length > 0 ? preferredEncoding(ctx, copies) : undefined;
  const sent = encoding ? file + suffixes[encoding] : file;
  // A HEAD answers as its GET would, 200 with the length, without opening the file (a null body
  // set after the status would turn it into a 204).
  if (ctx.method !== 'HEAD') ctx.body = fs.createReadStream(sent);
  ctx.status = 200;
  ctx.set('Cache-Control', cacheControl);
  if (copies.length > 0) ctx.vary('Accept-Encoding');
  if (encoding) ctx.set('Content-Encoding', encoding);
  ctx.type = contentTypes[path.extname(file)] ?? 'application/octet-stream';
  ctx.length = fs.statSync(sent).size;
}
