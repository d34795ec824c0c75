import type Koa from 'koa';

export type ContentEncoding = 'br' | 'gzip';

/** Each coding of an Accept-Encoding header with its weight (`gzip;q=0.5`); `*` stands for the others. */
function weights(header: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    const weight = q === undefined ? 1 : Number(q);
    found.set(name, Number.isFinite(weight) ? weight : 0);
  }
  return found;
}

/**
 * The encoding to send among those available, by the request's Accept-Encoding (q=0 refuses
 * one), brotli before gzip at equal weight whatever the header's order (browsers list gzip
 * first), or undefined for the plain bytes.
 */
export function preferredEncoding(ctx: Koa.Context, available: readonly ContentEncoding[]): ContentEncoding | undefined {
  const accepted = weights(ctx.get('accept-encoding'));
  const weightOf = (encoding: ContentEncoding) => accepted.get(encoding) ?? accepted.get('*') ?? 0;
  let best: ContentEncoding | undefined;
  for (const encoding of ['br', 'gzip'] as const) {
    if (available.includes(encoding) && weightOf(encoding) > 0 && (best === undefined || weightOf(encoding) > weightOf(best)))
      best = encoding;
  }
  return best;
}
