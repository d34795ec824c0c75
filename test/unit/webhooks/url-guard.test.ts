import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { generateWebhookSecret, signWebhook } from '../../../src/features/webhooks/signing.js';
import { refuseWebhookUrl } from '../../../src/features/webhooks/url-guard.js';

describe('webhook URLs', () => {
  const strict = { allowHttp: false, allowPrivate: false };

  it('accept https to public addresses only', async () => {
    expect(await refuseWebhookUrl('https://203.0.113.10/hook', strict)).toBeUndefined();
    expect(await refuseWebhookUrl('http://203.0.113.10/hook', strict)).toBe('The url field must be an https URL.');
    expect(await refuseWebhookUrl('ftp://203.0.113.10/hook', { ...strict, allowHttp: true })).toBe(
      'The url field must be an http or https URL.',
    );
    expect(await refuseWebhookUrl('not a url', strict)).toBe('The url field must be an absolute URL.');
    expect(await refuseWebhookUrl('https://user:pw@203.0.113.10/', strict)).toBe('The url field must not carry credentials.');
  });

  it('refuse loopback, link-local and private addresses unless allowed', async () => {
    for (const host of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '0.0.0.0',
      '[::1]',
      '[fe80::1]',
      '[fd00::1]',
      '[::ffff:127.0.0.1]',
      'localhost',
    ]) {
      expect(await refuseWebhookUrl(`https://${host}/hook`, strict), host).toMatch(/loopback, link-local or private address/);
      expect(await refuseWebhookUrl(`https://${host}/hook`, { ...strict, allowPrivate: true }), host).toBeUndefined();
    }
  });
});

describe('webhook signatures', () => {
  it('are Standard Webhooks signatures the reference library verifies', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const body = JSON.stringify({ type: 'flag.created', timestamp: '2026-01-01T00:00:00.000Z', data: {} });
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      'webhook-id': 'whe_1',
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signWebhook(secret, 'whe_1', timestamp, body),
    };
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(body.replace('flag', 'flog'), headers)).toThrow();
    expect(() => new Webhook(generateWebhookSecret()).verify(body, headers)).toThrow();
  });
});

describe('webhook event filters', () => {
  it('take *, one type, or a family pattern that stops at its own family', async () => {
    const { EventTypes } = await import('../../../src/features/webhooks/event-types.js');
    const types = new EventTypes(['flag.created', 'flag_value.created', 'target.rollout_updated', 'webhook.ping']);
    expect(types.isChangeEvent('flag.created')).toBe(true);
    expect(types.isChangeEvent('webhook.ping')).toBe(false);
    expect(types.isChangeEvent('flag.read')).toBe(false);
    expect(types.matches(['*'], 'flag_value.created')).toBe(true);
    expect(types.matches(['flag.*'], 'flag.created')).toBe(true);
    expect(types.matches(['flag.*'], 'flag_value.created')).toBe(false);
    expect(types.matches(['target.*'], 'target.rollout_updated')).toBe(true);
    expect(types.matches(['target.*'], 'target_rule.created')).toBe(false);
    expect(types.matches(['flag.created'], 'flag.updated')).toBe(false);
  });
});

describe('webhook addresses inside IPv6', () => {
  it('are checked as the IPv4 addresses they carry', async () => {
    const { isPrivateAddress } = await import('../../../src/features/webhooks/url-guard.js');
    expect(isPrivateAddress('::ffff:10.0.0.1')).toBe(true);
    expect(isPrivateAddress('::ffff:a00:1')).toBe(true);
    expect(isPrivateAddress('64:ff9b::7f00:1')).toBe(true);
    expect(isPrivateAddress('64:ff9b::203.0.113.5')).toBe(false);
    expect(isPrivateAddress('2001:db8::1')).toBe(false);
    expect(isPrivateAddress('fec0::1')).toBe(true);
  });
});

describe('webhook addresses in every IPv6 spelling of a private IPv4 address', () => {
  const strict = { allowHttp: true, allowPrivate: false };

  it('are refused when saved, without private targets allowed', async () => {
    for (const host of [
      '[::127.0.0.1]', // IPv4-compatible
      '[::10.0.0.1]',
      '[2002:7f00:1::]', // 6to4 of 127.0.0.1
      '[2002:a9fe:a9fe::1]', // 6to4 of 169.254.169.254
      '[2001:0:4136:e378:8000:63bf:80ff:fffe]', // Teredo, client 127.0.0.1
      '[2001:0:7f00:1::1]', // Teredo, server 127.0.0.1
      '[64:ff9b::a9fe:a9fe]', // NAT64 of 169.254.169.254
      '[64:ff9b:1::a00:1]', // local-use NAT64
      '[::ffff:0:7f00:1]', // RFC 6145
      '[fe80::200:5efe:7f00:1]', // ISATAP under a link-local prefix
      '[2001:db8::5efe:c0a8:101]', // ISATAP under a public prefix, 192.168.1.1
      '[::]',
      '[ff02::1]',
      '[100::1]', // discard
      '0x7f.1', // WHATWG URL spelling of 127.0.0.1
      '2130706433',
    ]) {
      expect(await refuseWebhookUrl(`http://${host}/`, strict), host).toMatch(/loopback, link-local or private address/);
      expect(await refuseWebhookUrl(`http://${host}/`, { ...strict, allowPrivate: true }), host).toBeUndefined();
    }
  });

  it('are accepted when every address they carry is public', async () => {
    const { isPrivateAddress } = await import('../../../src/features/webhooks/url-guard.js');
    for (const address of [
      '2002:cb00:7107::1',
      '64:ff9b::cb00:7107',
      '::ffff:203.0.113.7',
      '2001:0:cb00:7107:8000:63bf:34ff:8ef8',
      '2606:4700::1111',
      '8.8.8.8',
    ]) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
  });

  it('are refused at delivery time when a name resolves to one', async () => {
    const { vetWebhookHost } = await import('../../../src/features/webhooks/url-guard.js');
    const resolve = async () => [{ address: '2002:7f00:1::1', family: 6 as const }];
    expect(await vetWebhookHost('hooks.example.com', strict, resolve)).toMatch(/private address/);
  });
});
