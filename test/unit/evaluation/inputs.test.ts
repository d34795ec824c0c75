import { describe, expect, it } from 'vitest';
import { BadRequestError } from '../../../src/http/errors.js';
import { loadDocument } from '../../../src/http/openapi/document.js';
import { InputDecoder, firstHeader, ofrepContext } from '../../../src/features/evaluation/inputs.js';

const decoder = new InputDecoder((await loadDocument('public')).dereferenced);

describe('firstHeader', () => {
  it('takes the first non-empty header in precedence order', () => {
    expect(firstHeader({ 'x-vexil-context': 'a', c: 'b' }, ['x-vexil-context', 'c'])).toBe('a');
    expect(firstHeader({ 'x-vexil-context': '', c: 'b' }, ['x-vexil-context', 'c'])).toBe('b');
    expect(firstHeader({ 'x-vexil-context': '  ', c: 'b' }, ['x-vexil-context', 'c'])).toBe('b');
    expect(firstHeader({ c: 'b' }, ['x-vexil-context'])).toBeUndefined();
  });
});

describe('InputDecoder', () => {
  it('decodes a context header and keeps only known members', () => {
    const context = decoder.contextHeader({
      c: JSON.stringify({ type: 'user', identifier: 'u1', name: 'Ada', attributes: [{ key: 'plan', values: [{ value: 'pro' }] }] }),
    });
    expect(context).toEqual({ type: 'user', identifier: 'u1', name: 'Ada', attributes: [{ key: 'plan', values: [{ value: 'pro' }] }] });
    expect(decoder.contextHeader({})).toBeNull();
  });

  it('decodes a header text once: the same text gives the same frozen context, another text its own', () => {
    const text = JSON.stringify({ type: 'user', identifier: 'repeat', attributes: [{ key: 'plan', values: [{ value: 'pro' }] }] });
    const first = decoder.contextHeader({ 'x-vexil-context': text });
    const second = decoder.contextHeader({ 'x-vexil-context': text });
    expect(second).toBe(first);
    // Shared between requests, so frozen at every level.
    const attribute = first?.attributes?.[0];
    for (const part of [first, first?.attributes, attribute, attribute?.values, attribute?.values[0]]) {
      expect(part).toBeDefined();
      expect(Object.isFrozen(part)).toBe(true);
    }
    const other = decoder.contextHeader({ 'x-vexil-context': text.replace('repeat', 'other') });
    expect(other?.identifier).toBe('other');
    // A refused text is refused every time (nothing of it is kept).
    for (let i = 0; i < 2; i++) expect(() => decoder.contextHeader({ 'x-vexil-context': '{"type":"user"}' })).toThrow(BadRequestError);
  });

  it('refuses contexts outside the published schema (lengths, counts, members)', () => {
    const bad = [
      '{',
      JSON.stringify({ type: 'user', identifier: 'u', name: 'x'.repeat(201) }),
      JSON.stringify({ type: 'user', identifier: 'u', attributes: Array.from({ length: 101 }, (_, i) => ({ key: `k${i}`, values: [] })) }),
      JSON.stringify({ type: 'user', identifier: 'u', attributes: [{ key: 'k', values: [{ value: 'x'.repeat(1001) }] }] }),
      '{"type":"user","identifier":"u","__proto__":{"polluted":true}}',
    ];
    for (const text of bad) {
      expect(() => decoder.contextHeader({ 'x-vexil-context': text }), text).toThrow(BadRequestError);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('decodes default-value declarations and checks each value against its type', () => {
    const declarations = decoder.defaultsHeader({
      d: JSON.stringify([
        { key: 'a', type: 'boolean', value: true },
        { key: 'b', type: 'json', value: { nested: [1, null] } },
        { key: 'c', type: 'json', value: null },
      ]),
    });
    expect(declarations).toHaveLength(3);
    expect(decoder.defaultsHeader({})).toEqual([]);
    for (const text of ['x', '{}', '[{"key":"a","type":"boolean","value":"true"}]', '[{"key":"a","type":"number","value":null}]']) {
      expect(() => decoder.defaultsHeader({ 'x-vexil-default-value': text }), text).toThrow(
        'Default values were supplied but are invalid.',
      );
    }
  });

  it('reads the management context parameter', () => {
    expect(decoder.contextText('{"type":"user","identifier":"u"}')).toEqual({ type: 'user', identifier: 'u' });
    expect(decoder.contextText('{"type":"user"}')).toBeUndefined();
    expect(decoder.contextText('nope')).toBeUndefined();
  });
});

describe('ofrepContext', () => {
  it('maps targetingKey, contextType and the other members to a Vexil context', () => {
    const result = ofrepContext({
      context: {
        targetingKey: 'org-1',
        contextType: 'organization',
        plan: 'pro',
        beta: true,
        seats: 250,
        ratio: 0.5,
        roles: ['admin', null, 3, ['x']],
        settings: { a: 1 },
        ignored: null,
      },
    });
    expect(result).toEqual({
      ok: true,
      context: {
        type: 'organization',
        identifier: 'org-1',
        attributes: [
          { key: 'plan', values: [{ value: 'pro' }] },
          { key: 'beta', values: [{ value: 'true' }] },
          { key: 'seats', values: [{ value: '250' }] },
          { key: 'ratio', values: [{ value: '0.5' }] },
          { key: 'roles', values: [{ value: 'admin' }, { value: '3' }, { value: '["x"]' }] },
          { key: 'settings', values: [{ value: '{"a":1}' }] },
        ],
      },
    });
  });

  it('defaults the context type to user and treats absent or empty contexts as none', () => {
    expect(ofrepContext({ context: { targetingKey: 'u' } })).toEqual({
      ok: true,
      context: { type: 'user', identifier: 'u', attributes: [] },
    });
    expect(ofrepContext(undefined)).toEqual({ ok: true, context: null });
    expect(ofrepContext({})).toEqual({ ok: true, context: null });
    expect(ofrepContext({ context: {} })).toEqual({ ok: true, context: null });
  });

  it('reports a missing targeting key and invalid contexts', () => {
    expect(ofrepContext({ context: { plan: 'pro' } })).toMatchObject({ ok: false, errorCode: 'TARGETING_KEY_MISSING' });
    expect(ofrepContext({ context: 'u' })).toMatchObject({ ok: false, errorCode: 'INVALID_CONTEXT' });
    expect(ofrepContext({ context: [1] })).toMatchObject({ ok: false, errorCode: 'INVALID_CONTEXT' });
    expect(ofrepContext({ context: { targetingKey: 5 } })).toMatchObject({ ok: false, errorCode: 'INVALID_CONTEXT' });
    expect(ofrepContext({ context: { targetingKey: 'u', contextType: '' } })).toMatchObject({ ok: false, errorCode: 'INVALID_CONTEXT' });
  });
});

describe('header precedence with every header checked', () => {
  it('uses the first header sent but refuses an invalid one anywhere in the order', () => {
    const a = JSON.stringify({ type: 'user', identifier: 'a' });
    const b = JSON.stringify({ type: 'user', identifier: 'b' });
    expect(decoder.contextHeader({ 'x-vexil-context': a, c: b })?.identifier).toBe('a');
    expect(() => decoder.contextHeader({ 'x-vexil-context': a, c: 'nope' })).toThrow(BadRequestError);
    const one = JSON.stringify([{ key: 'k', type: 'string', value: '1' }]);
    const two = JSON.stringify([{ key: 'k', type: 'string', value: '2' }]);
    expect(decoder.defaultsHeader({ 'x-default-value': one, d: two })[0]!.value).toBe('1');
    expect(() => decoder.defaultsHeader({ 'x-vexil-default-value': one, d: '[{}]' })).toThrow(BadRequestError);
  });
});
