/**
 * An incremental Server-Sent Events parser (the text/event-stream format): feed it decoded text
 * as it arrives, in chunks of any size, and it returns the complete events. Comment lines (the
 * server's `: heartbeat`) are counted so the caller can tell the connection is alive.
 */
export interface SseEvent {
  readonly event: string;
  readonly data: string;
  readonly id: string | undefined;
}

/** The longest line (or event data) kept: the stream's events are small; more is a broken peer. */
export const MAX_SSE_LINE = 1 << 20;

/** A stream that broke the format's limits; the caller drops the connection and reconnects. */
export class SseOverflowError extends Error {}

export class SseParser {
  private buffer = '';
  private started = false;
  private eventName = '';
  private dataLines: string[] = [];
  private dataLength = 0;
  private lastId: string | undefined;
  private pendingCr = false;
  /** Comment lines seen so far. */
  comments = 0;

  constructor(private readonly maxLine = MAX_SSE_LINE) {}

  /** Throws SseOverflowError when a line or an event's data grows past the limit. */
  feed(text: string): SseEvent[] {
    const out: SseEvent[] = [];
    let chunk = text;
    // The format allows one byte-order mark at the very start of the stream.
    if (!this.started && chunk.length > 0) {
      this.started = true;
      if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1);
    }
    // a CR at the end of the previous chunk may be the first half of CRLF
    if (this.pendingCr && chunk.startsWith('\n')) chunk = chunk.slice(1);
    this.pendingCr = false;
    this.buffer += chunk;
    let start = 0;
    for (let i = 0; i < this.buffer.length; i++) {
      const ch = this.buffer.charCodeAt(i);
      if (ch !== 10 && ch !== 13) continue;
      const line = this.buffer.slice(start, i);
      if (ch === 13) {
        if (i + 1 < this.buffer.length) {
          if (this.buffer.charCodeAt(i + 1) === 10) i++;
        } else {
          this.pendingCr = true;
        }
      }
      start = i + 1;
      this.line(line, out);
    }
    this.buffer = this.buffer.slice(start);
    if (this.buffer.length > this.maxLine) throw new SseOverflowError(`A stream line grew past ${this.maxLine} characters.`);
    return out;
  }

  private line(line: string, out: SseEvent[]): void {
    if (line === '') {
      if (this.dataLines.length > 0) {
        out.push({ event: this.eventName === '' ? 'message' : this.eventName, data: this.dataLines.join('\n'), id: this.lastId });
      }
      this.eventName = '';
      this.dataLines = [];
      this.dataLength = 0;
      return;
    }
    if (line.startsWith(':')) {
      this.comments++;
      return;
    }
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'event':
        this.eventName = value;
        break;
      case 'data':
        this.dataLines.push(value);
        this.dataLength += value.length;
        if (this.dataLength > this.maxLine) throw new SseOverflowError(`A stream event grew past ${this.maxLine} characters.`);
        break;
      case 'id':
        if (!value.includes('\u0000')) this.lastId = value;
        break;
      default:
        // `retry` and unknown fields: the SDK has its own reconnection policy
        break;
    }
  }
}
