import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { generateWebhookSecret, signWebhook } from '../../../src/features/webhooks/signing.js';
import { refuseWebhookUrl } from '../../../src/features/webhooks/url-guard.js';

describe('webhook URLs', () => {
  const strict = { allowHttp: false, allowPrivate: false };

  it('accept https to public addresses only', async () => {
    expect(await refuseWebhookUrl('https://203.0.113.10/hook', strict)).toBeUndefined();
    expect(await refuseWebhookUrl('http://203.0.113.10/hook', strict)).toBe('The url field must be an https URL.');
    expect(await refuseWebhookUrl('ftp://203.0.113.10/hook', { ...strict, allowHttp: true })).toBe('The url field must be an http or https URL.');
    expect(await refuseWebhookUrl('not a url', strict)).toBe('The url field must be an absolute URL.');
    expect(await refuseWebhookUrl('https://user:pw@203.0.113.10/', strict)).toBe('The url field must not carry credentials.');
  });

  it('refuse loopback, link-local and private addresses unless allowed', async () => {
    for (const host of ['127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.1.1', '169.254.169.254', '0.0.0.0', '[::1]', '[fe80::1]', '[fd00::1]', '[::ffff:127.0.0.1]', 'localhost']) {
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
    const headers = { 'webhook-id': 'whe_1', 'webhook-timestamp': String(timestamp), 'webhook-signature': signWebhook(secret, 'whe_1', timestamp, body) };
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
