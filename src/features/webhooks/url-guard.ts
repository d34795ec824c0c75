import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import type { WebhookSettings } from './settings.js';

/** One address a host name resolved to. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to its addresses (the system resolver; tests give their own). */
export type Resolver = (host: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

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
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  privateRanges.addSubnet(network, prefix, 'ipv6');
}

/** IPv4 addresses carried inside IPv6 ones (mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::a.b.c.d`). */
function embeddedIpv4(address: string): string | undefined {
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (dotted?.[1]) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex?.[1] || !hex[2]) return undefined;
  const high = parseInt(hex[1], 16);
  const low = parseInt(hex[2], 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

export function isPrivateAddress(address: string): boolean {
  const inner = embeddedIpv4(address);
  if (inner) return privateRanges.check(inner, 'ipv4');
  return privateRanges.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
}

type UrlRules = Pick<WebhookSettings, 'allowHttp' | 'allowPrivate'>;

/** The URL, or why its form is refused (scheme, credentials). */
export function parseWebhookUrl(raw: string, settings: UrlRules): URL | string {
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
  return url;
}

/** The host of a URL without the brackets of an IPv6 literal. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

/**
 * The addresses a delivery may connect to, or why it may not: the host is resolved once, every
 * address is checked, and the caller connects only to these (so a name cannot resolve to a
 * public address for the check and a private one for the connection).
 */
export async function vetWebhookHost(host: string, settings: UrlRules, resolve: Resolver): Promise<ResolvedAddress[] | string> {
  const literal = isIP(host);
  let addresses: ResolvedAddress[];
  if (literal) {
    addresses = [{ address: host, family: literal === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await resolve(host);
    } catch {
      return `The url field's host "${host}" does not resolve.`;
    }
    if (addresses.length === 0) return `The url field's host "${host}" does not resolve.`;
  }
  if (!settings.allowPrivate && addresses.some((a) => isPrivateAddress(a.address))) {
    return `The url field's host "${host}" is a loopback, link-local or private address.`;
  }
  return addresses;
}

/** Why a URL may not receive webhooks, or undefined when it may (checked when it is saved). */
export async function refuseWebhookUrl(raw: string, settings: UrlRules, resolve: Resolver = systemResolver): Promise<string | undefined> {
  const url = parseWebhookUrl(raw, settings);
  if (typeof url === 'string') return url;
  // Private targets allowed: a host that does not resolve yet is accepted, deliveries will tell.
  if (settings.allowPrivate) return undefined;
  const vetted = await vetWebhookHost(hostOf(url), settings, resolve);
  return typeof vetted === 'string' ? vetted : undefined;
}
