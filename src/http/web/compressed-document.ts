import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type Koa from 'koa';
import { preferredEncoding, type ContentEncoding } from './content-encoding.js';

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

const suffix: Record<ContentEncoding, string> = { br: 'br', gzip: 'gz' };

/** Where `make build` leaves a document's compressed copies (scripts/build-documents.mjs), and its name there. */
export interface BuiltCopies {
  dir: string;
  name: string;
}

/**
 * A JSON document served as it is (the API descriptions): its bytes and their gzip and brotli
 * forms. The forms are the copies `make build` wrote (scripts/build-documents.mjs), found by the
 * SHA-256 of the bytes, so a copy of another version of the document is never sent; without a
 * matching copy (a document changed since the build) a form is made once per process, off the
 * event loop, never per request. Every answer says Vary: Accept-Encoding.
 */
export class CompressedDocument {
  private readonly plain: Buffer;
  private readonly encoded = new Map<ContentEncoding, Promise<Buffer>>();

  constructor(document: unknown, built?: BuiltCopies) {
    this.plain = Buffer.from(JSON.stringify(document));
    if (!built) return;
    const digest = createHash('sha256').update(this.plain).digest('hex');
    for (const encoding of ['br', 'gzip'] as const) {
      const file = path.join(built.dir, `${built.name}.served-${digest}.json.${suffix[encoding]}`);
      if (fs.existsSync(file)) this.encoded.set(encoding, Promise.resolve(fs.readFileSync(file)));
    }
  }

  private bytes(encoding: ContentEncoding): Promise<Buffer> {
    let found = this.encoded.get(encoding);
    if (!found) {
      found =
        encoding === 'br'
          ? brotli(this.plain, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY } })
          : gzip(this.plain, { level: 9 });
      this.encoded.set(encoding, found);
    }
    return found;
  }

  async send(ctx: Koa.Context, headers: Record<string, string>): Promise<void> {
    const encoding = preferredEncoding(ctx, ['br', 'gzip']);
    const body = encoding ? await this.bytes(encoding) : this.plain;
    ctx.status = 200;
    ctx.set(headers);
    ctx.vary('Accept-Encoding');
    if (encoding) ctx.set('Content-Encoding', encoding);
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = body;
  }
}
