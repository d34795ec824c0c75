import fs from 'node:fs';
import path from 'node:path';
import type Koa from 'koa';

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

/** Sends a file with its content type and the given caching. */
export function sendFile(ctx: Koa.Context, file: string, cacheControl: string): void {
  // A HEAD answers as its GET would, 200 with the length, without opening the file (a null body
  // set after the status would turn it into a 204).
  if (ctx.method !== 'HEAD') ctx.body = fs.createReadStream(file);
  ctx.status = 200;
  ctx.set('Cache-Control', cacheControl);
  ctx.type = contentTypes[path.extname(file)] ?? 'application/octet-stream';
  ctx.length = fs.statSync(file).size;
}
