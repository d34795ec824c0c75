/** The widest a value may be in one line of human output before it is cut. */
export const compactWidth = 60;

const ellipsis = '…';

/** Text as it is, cut to `width` characters. */
export function cutText(text: string, width = compactWidth): string {
  return text.length <= width ? text : `${text.slice(0, width - 1)}${ellipsis}`;
}

/** A string as JSON, cut inside its quotes so the result fits in `width`. */
function compactString(text: string, width: number): string {
  const whole = JSON.stringify(text);
  if (whole.length <= width) return whole;
  // Escapes make the JSON longer than the text: shorten the text until the JSON fits.
  let kept = text.slice(0, Math.max(width - 3, 1));
  while (kept.length > 1 && JSON.stringify(kept).length + ellipsis.length > width) kept = kept.slice(0, -1);
  return `${JSON.stringify(kept).slice(0, -1)}${ellipsis}"`;
}

/**
 * Items of a list or object, as many as fit in `width`, then "… N more": the reader sees where a
 * long list starts and how long it is, rather than a cut in the middle of an item.
 */
function compactItems(open: string, close: string, items: ((width: number) => string)[], width: number): string {
  const parts: string[] = [];
  let used = open.length + close.length;
  for (let i = 0; i < items.length; i++) {
    const more = `${ellipsis} ${items.length - i} more`;
    const room = width - used - (i > 0 ? 1 : 0);
    // Keep room for the "… N more" unless this is the last item.
    const reserve = i < items.length - 1 ? more.length + 1 : 0;
    const part = items[i]!(Math.max(room - reserve, 8));
    if (parts.length > 0 && part.length + reserve > room) {
      parts.push(more);
      break;
    }
    parts.push(part);
    used += part.length + (i > 0 ? 1 : 0);
  }
  return `${open}${parts.join(',')}${close}`;
}

/** Any JSON value on one line, at most about `width` characters: compact JSON, long parts cut. */
export function compactValue(value: unknown, width = compactWidth): string {
  if (value === undefined || value === null) return 'null';
  if (typeof value === 'string') return compactString(value, width);
  if (Array.isArray(value)) {
    return compactItems(
      '[',
      ']',
      value.map((item) => (w: number) => compactValue(item, w)),
      width,
    );
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return compactItems(
      '{',
      '}',
      entries.map(([key, item]) => (w: number) => {
        const name = `${JSON.stringify(key)}:`;
        return `${name}${compactValue(item, Math.max(w - name.length, 8))}`;
      }),
      width,
    );
  }
  return String(value);
}
