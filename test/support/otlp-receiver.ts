import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One span of an OTLP/HTTP JSON export, with ids as lower-case hex. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** OTLP SpanKind: 1 internal, 2 server, 3 client. */
  kind: number;
  attributes: Record<string, string | number | boolean>;
}

export interface ReceivedExport {
  path: string;
  contentType: string;
  body: Buffer;
}

/** OTLP JSON ids are hex by the specification; some encoders send base64 (protobuf's JSON mapping). */
function hexId(id: unknown): string {
  if (typeof id !== 'string' || id === '') return '';
  return /^[0-9a-f]+$/i.test(id) && (id.length === 32 || id.length === 16) ? id.toLowerCase() : Buffer.from(id, 'base64').toString('hex');
}

type AnyValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };

function attributeValue(value: AnyValue): string | number | boolean {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  return value.boolValue ?? '';
}

/** A real local OTLP/HTTP receiver: accepts every export (200), keeps the bodies, decodes JSON spans. */
export class OtlpReceiver {
  readonly exports: ReceivedExport[] = [];
  private server!: http.Server;
  url = '';

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        this.exports.push({ path: req.url ?? '', contentType: String(req.headers['content-type'] ?? ''), body: Buffer.concat(chunks) });
        const json = String(req.headers['content-type']).includes('json');
        res.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' }).end(json ? '{}' : '');
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Every span received in JSON exports. */
  spans(): ReceivedSpan[] {
    const out: ReceivedSpan[] = [];
    for (const received of this.exports) {
      if (!received.contentType.includes('json')) continue;
      const body = JSON.parse(received.body.toString('utf8')) as {
        resourceSpans?: Array<{ scopeSpans?: Array<{ spans?: Array<Record<string, unknown>> }> }>;
      };
      for (const resource of body.resourceSpans ?? []) {
        for (const scope of resource.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) {
            const attributes: ReceivedSpan['attributes'] = {};
            for (const a of (span.attributes as Array<{ key: string; value: AnyValue }> | undefined) ?? [])
              attributes[a.key] = attributeValue(a.value);
            out.push({
              traceId: hexId(span.traceId),
              spanId: hexId(span.spanId),
              parentSpanId: hexId(span.parentSpanId),
              name: String(span.name),
              kind: Number(span.kind),
              attributes,
            });
          }
        }
      }
    }
    return out;
  }

  async close(): Promise<void> {
    await new Promise((resolve) => this.server.close(resolve));
  }
}
