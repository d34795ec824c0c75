import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type Koa from 'koa';
import { preferredEncoding, type ContentEncoding } from './content-encoding.js';

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

/**
 * A JSON document served as it is (the API descriptions): its bytes and their gzip and brotli
 * forms, each made once per process (the first request that wants it waits for it, off the event
 * loop), never per request. Every answer says Vary: Accept-Encoding.
 */
export class CompressedDocument {
  private readonly plain: Buffer;
  private readonly encoded = new Map<ContentEncoding, Promise<Buffer>>();

  constructor(document: unknown) {
    this.plain = Buffer.from(JSON.stringify(document));
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
