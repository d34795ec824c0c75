/** The SSE parser and the backoff schedule. */
import { describe, expect, it } from 'vitest';
import { SseParser } from '../src/sse.js';
import { backoffDelay } from '../src/backoff.js';

describe('SseParser', () => {
  it('parses the server stream: etag events and heartbeat comments', () => {
    const p = new SseParser();
    const events = p.feed(
      'event: etag\ndata: {"etag":"\\"srv-42-7d1f0c9a\\""}\n\n: heartbeat\n\nevent: etag\ndata: {"etag":"\\"srv-43-0b6e44d2\\""}\n\n',
    );
    expect(events.map((e) => [e.event, JSON.parse(e.data).etag])).toEqual([
      ['etag', '"srv-42-7d1f0c9a"'],
      ['etag', '"srv-43-0b6e44d2"'],
    ]);
    expect(p.comments).toBe(1);
  });

  it('handles any chunking, CRLF and CR line ends, multi-line data and default event names', () => {
    const text = 'event: etag\r\ndata: a\r\ndata: b\r\n\r\ndata:c\r\rid: 7\nevent:x\ndata: d\n\n';
    const whole = new SseParser().feed(text);
    expect(whole).toEqual([
      { event: 'etag', data: 'a\nb', id: undefined },
      { event: 'message', data: 'c', id: undefined },
      { event: 'x', data: 'd', id: '7' },
    ]);
    for (let size = 1; size <= 5; size++) {
      const p = new SseParser();
      const out = [];
      for (let i = 0; i < text.length; i += size) out.push(...p.feed(text.slice(i, i + size)));
      expect(out).toEqual(whole);
    }
  });

  it('ignores events without data and unknown fields', () => {
    expect(new SseParser().feed('event: etag\n\nretry: 100\nfoo: bar\n\n')).toEqual([]);
  });
});

describe('backoffDelay', () => {
  it('doubles from the initial delay up to the maximum, with jitter between half and all of it', () => {
    const low = [0, 1, 2, 3, 4, 5, 6].map((n) => backoffDelay(n, 500, 30_000, () => 0));
    const high = [0, 1, 2, 3, 4, 5, 6, 7, 50].map((n) => backoffDelay(n, 500, 30_000, () => 1));
    expect(low).toEqual([250, 500, 1000, 2000, 4000, 8000, 15_000]);
    expect(high).toEqual([500, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
    for (let i = 0; i < 100; i++) {
      const d = backoffDelay(3, 500, 30_000, Math.random);
      expect(d).toBeGreaterThanOrEqual(2000);
      expect(d).toBeLessThanOrEqual(4000);
    }
  });
});
