import { describe, expect, it } from 'vitest';
import { SignInThrottle } from '../../../src/features/console-sessions/sign-in-throttle.js';

function throttle() {
  let now = 1_000_000;
  const t = new SignInThrottle({ freeFailures: 3, freeAddressFailures: 30, windowMs: 15 * 60_000 }, () => now);
  return { t, advance: (ms: number) => (now += ms) };
}

describe('sign-in throttle', () => {
  it('delays a failing address with growing waits, and never the person at another address', () => {
    const { t, advance } = throttle();
    for (let i = 0; i < 3; i++) {
      expect(t.retryAfter('owner@vexil.local', '203.0.113.1')).toBe(0);
      t.failed('owner@vexil.local', '203.0.113.1');
    }
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      const wait = t.retryAfter('owner@vexil.local', '203.0.113.1');
      waits.push(wait);
      advance(wait * 1000);
      t.failed('owner@vexil.local', '203.0.113.1');
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 32]);
    // The owner at home: no failures there, no wait, although the account is under attack.
    expect(t.retryAfter('owner@vexil.local', '198.51.100.7')).toBe(0);
  });

  it('an address that failed on the account shares the account delay, however many addresses the attacker uses', () => {
    const { t } = throttle();
    for (let i = 0; i < 10; i++) t.failed('owner@vexil.local', `203.0.113.${i}`);
    // Each of these addresses failed once only, but the account has ten failures.
    expect(t.retryAfter('owner@vexil.local', '203.0.113.4')).toBeGreaterThan(0);
    expect(t.retryAfter('owner@vexil.local', '198.51.100.7')).toBe(0);
  });

  it('caps the delay at the window and forgets failures a window after the last', () => {
    const { t, advance } = throttle();
    for (let i = 0; i < 40; i++) t.failed('a@example.test', '203.0.113.1');
    expect(t.retryAfter('a@example.test', '203.0.113.1')).toBe(15 * 60);
    // The address-wide count (over 30) also delays the address on other accounts.
    expect(t.retryAfter('b@example.test', '203.0.113.1')).toBeGreaterThan(0);
    advance(15 * 60_000 + 1);
    expect(t.retryAfter('a@example.test', '203.0.113.1')).toBe(0);
  });

  it('forgives an address its failures on an account once the right password is given', () => {
    const { t } = throttle();
    for (let i = 0; i < 3; i++) t.failed('a@example.test', '203.0.113.1');
    t.succeeded('a@example.test', '203.0.113.1');
    expect(t.retryAfter('a@example.test', '203.0.113.1')).toBe(0);
  });
});
