import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { SettingError } from '../../../src/settings.js';

/** Settings: a value that is set but invalid stops the start, naming the variable; it never means something else. */
describe('loadConfig', () => {
  it('gives the documented defaults when nothing is set', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      logLevel: 'info',
      trustProxy: false,
      redisUrl: undefined,
      redisPrefix: 'vexil:',
      redisChannel: 'vexil:environment-revisions',
      revisionPollMs: 250,
      databaseAcquireTimeoutMs: 3000,
      databaseQueryTimeoutMs: 5000,
      drainMs: 5000,
      maxHeaderBytes: 65_536,
    });
  });

  it('reads the public audit mode, buffer size and flush interval, every request each second by default', () => {
    expect(loadConfig({}).publicAudit).toEqual({ mode: { kind: 'every' }, capacity: 50_000, flushIntervalMs: 1000 });
    expect(
      loadConfig({ VEXIL_PUBLIC_AUDIT: 'sample:0.01', VEXIL_PUBLIC_AUDIT_BUFFER: '1000', VEXIL_PUBLIC_AUDIT_FLUSH_MS: '100' }).publicAudit,
    ).toEqual({
      mode: { kind: 'sample', rate: 0.01 },
      capacity: 1000,
      flushIntervalMs: 100,
    });
    expect(() => loadConfig({ VEXIL_PUBLIC_AUDIT: 'some' })).toThrow(SettingError);
    expect(() => loadConfig({ VEXIL_PUBLIC_AUDIT_BUFFER: '0' })).toThrow(/VEXIL_PUBLIC_AUDIT_BUFFER/);
    expect(() => loadConfig({ VEXIL_PUBLIC_AUDIT_FLUSH_MS: '5' })).toThrow(/VEXIL_PUBLIC_AUDIT_FLUSH_MS/);
  });

  it('reads which requests get a log line: all but the public API by default', () => {
    expect(loadConfig({}).requestLog).toBe('management');
    expect(loadConfig({ VEXIL_REQUEST_LOG: 'all' }).requestLog).toBe('all');
    expect(() => loadConfig({ VEXIL_REQUEST_LOG: 'public' })).toThrow(/VEXIL_REQUEST_LOG/);
  });

  it('keeps only the origin of VEXIL_PUBLIC_URL', () => {
    expect(loadConfig({}).publicOrigin).toBeUndefined();
    expect(loadConfig({ VEXIL_PUBLIC_URL: 'https://Flags.Example.com/' }).publicOrigin).toBe('https://flags.example.com');
    expect(loadConfig({ VEXIL_PUBLIC_URL: 'http://flags.internal:8443' }).publicOrigin).toBe('http://flags.internal:8443');
  });

  it('reads true/false and 1/0 for switches', () => {
    expect(loadConfig({ VEXIL_TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ VEXIL_TRUST_PROXY: '1' }).trustProxy).toBe(true);
    expect(loadConfig({ VEXIL_TRUST_PROXY: 'FALSE' }).trustProxy).toBe(false);
    expect(loadConfig({ VEXIL_TRUST_PROXY: '0' }).trustProxy).toBe(false);
  });

  it.each([
    ['VEXIL_TRUST_PROXY', 'yes', /VEXIL_TRUST_PROXY must be true or false/],
    ['VEXIL_PUBLIC_URL', 'flags.example.com', /VEXIL_PUBLIC_URL must be a URL starting with https:\/\/ or http:\/\//],
    ['VEXIL_PUBLIC_URL', 'https://flags.example.com/console', /VEXIL_PUBLIC_URL must be an address without a path/],
    ['VEXIL_WEBHOOK_ALLOW_HTTP', 'maybe', /VEXIL_WEBHOOK_ALLOW_HTTP must be true or false/],
    ['PORT', '80a', /PORT must be an integer from 0 to 65535/],
    ['PORT', '70000', /PORT must be an integer from 0 to 65535/],
    ['VEXIL_PUBLIC_RATE_LIMIT', '-1', /VEXIL_PUBLIC_RATE_LIMIT must be an integer of at least 0/],
    ['VEXIL_PUBLIC_RATE_LIMIT', '1.5', /VEXIL_PUBLIC_RATE_LIMIT/],
    ['VEXIL_REVISION_POLL_MS', '0', /VEXIL_REVISION_POLL_MS must be an integer of at least 1/],
    ['LOG_LEVEL', 'verbose', /LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent/],
    ['REDIS_URL', 'localhost:6379', /REDIS_URL must be a URL starting with redis:\/\/ or rediss:\/\//],
    ['DATABASE_URL', 'oracle://db/vexil', /DATABASE_URL must start with sqlite:, mysql:\/\/ \(or mariadb:\/\/\) or postgres:\/\//],
    ['VEXIL_DB_QUERY_TIMEOUT_MS', '5s', /VEXIL_DB_QUERY_TIMEOUT_MS must be an integer of at least 100/],
    ['VEXIL_DB_ACQUIRE_TIMEOUT_MS', '10', /VEXIL_DB_ACQUIRE_TIMEOUT_MS must be an integer of at least 100/],
    ['VEXIL_REDIS_PREFIX', 'two words', /VEXIL_REDIS_PREFIX must be 1 to 100 printable characters/],
  ])('refuses %s=%s with a message naming it', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(SettingError);
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });

  it('never repeats a refused URL or token, which may hold a secret', () => {
    expect(() => loadConfig({ REDIS_URL: 'http://user:s3cret@host' })).toThrow(/^(?!.*s3cret)/);
    expect(() => loadConfig({ VEXIL_INIT_OWNER_TOKEN: 'pat_s3cret' })).toThrow(
      /^VEXIL_INIT_OWNER_TOKEN must be a personal access token(?!.*s3cret)/,
    );
    const token = `pat_${'a1'.repeat(20)}`;
    expect(loadConfig({ VEXIL_INIT_OWNER_TOKEN: token }).initOwnerToken).toBe(token);
  });

  it('derives the Redis channel from the prefix unless it is set itself', () => {
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379', VEXIL_REDIS_PREFIX: 'staging:' })).toMatchObject({
      redisUrl: 'redis://127.0.0.1:6379',
      redisPrefix: 'staging:',
      redisChannel: 'staging:environment-revisions',
    });
    expect(loadConfig({ VEXIL_REDIS_PREFIX: 'staging:', VEXIL_REDIS_CHANNEL: 'changes' }).redisChannel).toBe('changes');
  });
});
