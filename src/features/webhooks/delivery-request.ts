import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { ResolvedAddress } from './url-guard.js';

/** Response bodies are read up to this many bytes, then the connection is dropped: a receiver cannot flood us. */
export const maxResponseBytes = 4096;

/** Keep-alive connections of the delivery task, so a subscription's queue does not pay a handshake per event. */
export interface DeliveryAgents {
  http: http.Agent;
  https: https.Agent;
}

/**
 * Idle connections are closed after 4 s, before common servers close theirs (Node's 5 s): a
 * request is then never written to a connection the receiver is closing at that moment.
 */
export function deliveryAgents(): DeliveryAgents {
  const options = { keepAlive: true, maxSockets: 4, timeout: 4_000 };
  return { http: new http.Agent(options), https: new https.Agent(options) };
}

/** A lookup that answers only the vetted addresses: the connection goes where the check looked. */
function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    const first = addresses[0] as ResolvedAddress;
    if (options?.all)
      callback(
        null,
        addresses.map((a) => ({ address: a.address, family: a.family })),
      );
    else callback(null, first.address, first.family);
  }) as LookupFunction;
}

/**
 * POSTs `body` to `url`, connecting only to `addresses` (TLS still checks the certificate against
 * the URL's host name, which is also the SNI name and the Host header). Resolves with the
 * response status once the body was read (at most `maxResponseBytes` of it); rejects when the
 * request fails or `signal` aborts it before the status arrives.
 */
export function postPinned(
  url: URL,
  addresses: ResolvedAddress[],
  headers: Record<string, string>,
  body: string,
  signal: AbortSignal,
  agents: DeliveryAgents,
): Promise<number> {
  const secure = url.protocol === 'https:';
  const payload = Buffer.from(body, 'utf8');
  return new Promise<number>((resolve, reject) => {
    const request = (secure ? https : http).request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(payload.length) },
        agent: secure ? agents.https : agents.http,
        lookup: pinnedLookup(addresses),
        signal,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        let read = 0;
        const done = () => resolve(status);
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read >= maxResponseBytes) {
            // Enough: the status is what counts. The connection is not reused.
            response.destroy();
            done();
          }
        });
        response.on('end', done);
        // A body cut short (timeout, reset) does not change the answer already given.
        response.on('error', done);
        response.on('close', done);
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}
