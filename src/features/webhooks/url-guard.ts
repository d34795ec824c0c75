import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isPrivateAddress } from './private-address.js';
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

export { isPrivateAddress };

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
