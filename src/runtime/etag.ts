import crypto from 'node:crypto';

/**
 * Short, stable hex digest of the parts (the same on every instance for the same input): SHA-256
 * of each part followed by a NUL. One-shot crypto.hash (Node 20.12+) where available, a third of
 * the cost of a Hash object; both give the same digest.
 */
export function digestParts(...parts: string[]): string {
  if (typeof crypto.hash === 'function') {
    let text = '';
    for (const part of parts) text += part + '\u0000';
    return crypto.hash('sha256', text, 'hex').slice(0, 16);
  }
  const hash = crypto.createHash('sha256');
  for (const part of parts) {
    hash.update(part, 'utf8');
    hash.update('\u0000');
  }
  return hash.digest('hex').slice(0, 16);
}

/** A strong entity tag: `"<prefix>-<revision>-<digest>"`. */
export function entityTag(prefix: string, revision: number, digest: string): string {
  return `"${prefix}-${revision}-${digest.slice(0, 8)}"`;
}

/**
 * Whether an If-None-Match header value matches `etag`: `*` (unless `star` is false), or one of
 * the comma-separated tags equal to it under weak comparison (a `W/` prefix is ignored).
 */
export function ifNoneMatchMatches(header: string | string[] | undefined, etag: string, star = true): boolean {
  if (header === undefined) return false;
  const text = Array.isArray(header) ? header.join(',') : header;
  const target = stripWeak(etag);
  // One tag (what SDKs send): no list to split.
  if (!text.includes(',')) {
    const tag = text.trim();
    return (star && tag === '*') || (tag !== '' && tag !== '*' && stripWeak(tag) === target);
  }
  for (const raw of splitTags(text)) {
    if (raw === '*') {
      if (star) return true;
    } else if (stripWeak(raw) === target) return true;
  }
  return false;
}

function stripWeak(tag: string): string {
  return tag.startsWith('W/') ? tag.slice(2) : tag;
}

/** Splits a list of entity tags on commas outside quotes. */
function splitTags(text: string): string[] {
  const out: string[] = [];
  let current = '';
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    if (ch === ',' && !quoted) {
      if (current.trim() !== '') out.push(current.trim());
      current = '';
    } else {
      current += ch;
    }
  }
  if (current.trim() !== '') out.push(current.trim());
  return out;
}
