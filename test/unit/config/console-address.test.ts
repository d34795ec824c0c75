import { describe, expect, it } from 'vitest';
import { consoleAddress } from '../../../src/features/accounts/bootstrap.js';

describe('the console address printed at first start', () => {
  it('is the public address when one is set', () => {
    expect(consoleAddress({ publicOrigin: 'https://flags.example.com', host: '0.0.0.0', port: 8080 })).toBe('https://flags.example.com/');
  });

  it('is this machine for a wildcard listener, and the listener itself otherwise', () => {
    expect(consoleAddress({ publicOrigin: undefined, host: '0.0.0.0', port: 8080 })).toBe('http://localhost:8080/');
    expect(consoleAddress({ publicOrigin: undefined, host: '::', port: 9000 })).toBe('http://localhost:9000/');
    expect(consoleAddress({ publicOrigin: undefined, host: '10.0.0.5', port: 8080 })).toBe('http://10.0.0.5:8080/');
    expect(consoleAddress({ publicOrigin: undefined, host: '::1', port: 8080 })).toBe('http://[::1]:8080/');
  });
});
