import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import type { WebhookSettings } from './settings.js';

/** Addresses a webhook may not reach unless private targets are allowed (SSRF defence). */
const privateRanges = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  privateRanges.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  privateRanges.addSubnet(network, prefix, 'ipv6');
}

function isPrivate(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return privateRanges.check(mapped[1], 'ipv4');
  return privateRanges.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
}

/** Why a URL may not receive webhooks, or undefined when it may. Checked on save and before every attempt. */
export async function refuseWebhookUrl(raw: string, settings: Pick<WebhookSettings, 'allowHttp' | 'allowPrivate'>): Promise<string | undefined> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'The url field must be an absolute URL.';
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && settings.allowHttp)) {
    return settings.allowHttp ? 'The url field must be an http or https URL.' : 'The url field must be an https URL.';
  }
  if (url.username || url.password) return 'The url field must not carry credentials.';
  if (settings.allowPrivate) return undefined;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
  } catch {
    return `The url field's host "${host}" does not resolve.`;
  }
  if (addresses.some(isPrivate)) return `The url field's host "${host}" is a loopback, link-local or private address.`;
  return undefined;
}
