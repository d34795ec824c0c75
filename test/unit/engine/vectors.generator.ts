/**
 * Generates specs/evaluation-vectors.json, the shared evaluation test vectors (server and SDKs).
 *
 *   npx tsx test/unit/engine/vectors.generator.ts
 *
 * Every expectation below is written by hand from the evaluation rules (specs/management.yaml: targets, rules, segments) and the
 * contract; nothing here imports the engine. The only computed inputs are rollout identifiers,
 * chosen with this file's own byte-wise MurmurHash3 (checked against published reference values
 * before use) so that their bucket is exactly the boundary being tested.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

interface Criterion {
  selector: string;
  sub_selector: string | null;
  comparer: string;
  values: string[];
}
interface SplitShare {
  variant: string;
  value: Json;
  weight: number;
}
interface Split {
  attribute: string | null;
  shares: SplitShare[];
}
interface Rule {
  value: Json;
  criteria: Criterion[];
  split?: Split;
}
interface Target {
  value: Json;
  rules: Rule[];
  split?: Split;
  prerequisites?: { flag_key: string; values: Json[] }[];
}
interface Flag {
  key: string;
  name: string;
  type: 'boolean' | 'number' | 'string' | 'json';
  include_in_mobile: boolean;
  include_in_client: boolean;
  default: { value: Json } | null;
  serving: Target | null;
  previous: Target | null;
  rollout: { percentage: number } | null;
}
interface Segment {
  key: string;
  included: string[];
  excluded: string[];
  rules: { criteria: Criterion[] }[];
}
interface Ctx {
  type: string;
  identifier: string;
  name?: string;
  attributes?: { key: string; values: { value: string }[] }[];
}
interface Declaration {
  key: string;
  type: string;
  value: Json;
}
interface Vector {
  name: string;
  config: { revision: number; flags: Flag[]; segments: Segment[] };
  flag_key: string;
  context: Ctx | null;
  declared_defaults: Declaration[];
  expected: { value: Json; resolved_by: string; split?: { rule: number | null; variant: string; weight: number } } | null;
}

// ---------------------------------------------------------------------------------------------
// Independent reference MurmurHash3 x86 32 (byte-wise, over TextEncoder output).

function refMurmur3(text: string, seed = 0): number {
  const data = new TextEncoder().encode(text);
  const c1 = 0xcc9e2d51;
  const c2 = 0x1b873593;
  let h = seed >>> 0;
  const rounds = Math.floor(data.length / 4);
  const byte = (i: number): number => data[i] ?? 0;
  for (let r = 0; r < rounds; r++) {
    const i = r * 4;
    let k = (byte(i) | (byte(i + 1) << 8) | (byte(i + 2) << 16) | (byte(i + 3) << 24)) >>> 0;
    k = Math.imul(k, c1) >>> 0;
    k = ((k << 15) | (k >>> 17)) >>> 0;
    k = Math.imul(k, c2) >>> 0;
    h = (h ^ k) >>> 0;
    h = ((h << 13) | (h >>> 19)) >>> 0;
    h = (Math.imul(h, 5) + 0xe6546b64) >>> 0;
  }
  const rest = data.length % 4;
  if (rest > 0) {
    let k = 0;
    for (let j = rest - 1; j >= 0; j--) k = (k << 8) | byte(rounds * 4 + j);
    k = Math.imul(k >>> 0, c1) >>> 0;
    k = ((k << 15) | (k >>> 17)) >>> 0;
    k = Math.imul(k, c2) >>> 0;
    h = (h ^ k) >>> 0;
  }
  h = (h ^ data.length) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35) >>> 0;
  h ^= h >>> 16;
  return h >>> 0;
}

const REFERENCE: [string, number, number][] = [
  ['', 0, 0],
  ['', 1, 0x514e28b7],
  ['test', 0, 0xba6bd213],
  ['Hello, world!', 1234, 0xfaf6cdb3],
  ['The quick brown fox jumps over the lazy dog', 0, 0x2e4ff723],
  ['我的气垫船装满了鳗鱼。', 0, 4193185573],
  ['My 🚀 is full of 🦎.', 0, 1818098979],
];
for (const [s, seed, want] of REFERENCE) {
  if (refMurmur3(s, seed) !== want) throw new Error(`reference murmur3 wrong for ${JSON.stringify(s)}`);
}

function bucket(flagKey: string, type: string, identifier: string): number {
  return refMurmur3(`${flagKey}/${type}/${identifier}`) % 10000;
}

/** First identifier `${prefix}${n}` whose bucket for the flag is exactly `want`. */
function identifierWithBucket(flagKey: string, type: string, want: number, prefix = 'user-'): string {
  for (let n = 0; n < 5_000_000; n++) {
    const id = `${prefix}${n}`;
    if (bucket(flagKey, type, id) === want) return id;
  }
  throw new Error(`no identifier with bucket ${want}`);
}

// ---------------------------------------------------------------------------------------------
// Builders

const vectors: Vector[] = [];
const categories = new Map<string, number>();
let category = '';

function section(name: string): void {
  category = name;
}

function crit(selector: string, sub: string | null, comparer: string, values: string[] = []): Criterion {
  return { selector, sub_selector: sub, comparer, values };
}
const attr = (name: string, comparer: string, values: string[] = []): Criterion => crit('attribute', name, comparer, values);
const ctxCrit = (comparer: string, values: string[], type: string | null = null): Criterion => crit('context', type, comparer, values);
const segCrit = (comparer: string, values: string[]): Criterion => crit('segment', null, comparer, values);

function ctx(identifier: string, attrs: Record<string, string[]> = {}, type = 'user'): Ctx {
  const c: Ctx = { type, identifier };
  const keys = Object.keys(attrs);
  if (keys.length > 0) c.attributes = keys.map((key) => ({ key, values: (attrs[key] ?? []).map((value) => ({ value })) }));
  return c;
}

function stringFlag(key: string, serving: Target | null, extra: Partial<Flag> = {}): Flag {
  return {
    key,
    name: `Flag ${key}`,
    type: 'string',
    include_in_mobile: true,
    include_in_client: true,
    default: { value: 'default' },
    serving,
    previous: null,
    rollout: null,
    ...extra,
  };
}

function add(
  name: string,
  flags: Flag[],
  flagKey: string,
  context: Ctx | null,
  expected: Vector['expected'],
  opts: { segments?: Segment[]; declared?: Declaration[] } = {},
): void {
  if (vectors.some((v) => v.name === name)) throw new Error(`duplicate vector name ${name}`);
  vectors.push({
    name,
    config: { revision: 1, flags, segments: opts.segments ?? [] },
    flag_key: flagKey,
    context,
    declared_defaults: opts.declared ?? [],
    expected,
  });
  categories.set(category, (categories.get(category) ?? 0) + 1);
}

const HIT = { value: 'hit', resolved_by: 'rule' } as const;
const BASE = { value: 'base', resolved_by: 'target' } as const;

/** One string flag `f` whose serving target has one rule (criteria) -> 'hit', base 'base'. */
function oneRule(name: string, criteria: Criterion[], context: Ctx | null, hit: boolean, segments?: Segment[]): void {
  add(name, [stringFlag('f', { value: 'base', rules: [{ value: 'hit', criteria }] })], 'f', context, hit ? HIT : BASE, {
    segments,
  });
}

// ---------------------------------------------------------------------------------------------
section('attribute: equal / notequal / in / notin');

oneRule('attribute equal: single value matches', [attr('plan', 'equal', ['gold'])], ctx('u1', { plan: ['gold'] }), true);
oneRule('attribute equal: different value', [attr('plan', 'equal', ['gold'])], ctx('u1', { plan: ['silver'] }), false);
oneRule('attribute equal: case-sensitive', [attr('plan', 'equal', ['gold'])], ctx('u1', { plan: ['Gold'] }), false);
oneRule('attribute equal: no numeric coercion ("10" vs "10.0")', [attr('n', 'equal', ['10'])], ctx('u1', { n: ['10.0'] }), false);
oneRule(
  'attribute equal: multi-valued attribute, any value matches',
  [attr('groups', 'equal', ['beta'])],
  ctx('u1', { groups: ['alpha', 'beta'] }),
  true,
);
oneRule(
  'attribute equal: several criterion values, any matches',
  [attr('plan', 'equal', ['gold', 'platinum'])],
  ctx('u1', { plan: ['platinum'] }),
  true,
);
oneRule('attribute equal: attribute absent', [attr('plan', 'equal', ['gold'])], ctx('u1', { other: ['gold'] }), false);
oneRule('attribute equal: context without attributes', [attr('plan', 'equal', ['gold'])], ctx('u1'), false);
oneRule('attribute equal: empty string equals empty string', [attr('plan', 'equal', [''])], ctx('u1', { plan: [''] }), true);
oneRule('attribute equal: attribute with no values', [attr('plan', 'equal', ['gold'])], ctx('u1', { plan: [] }), false);
oneRule('attribute equal: no context', [attr('plan', 'equal', ['gold'])], null, false);
oneRule('attribute equal: attribute name is case-sensitive', [attr('plan', 'equal', ['gold'])], ctx('u1', { Plan: ['gold'] }), false);
oneRule('attribute equal: no criterion values never matches', [attr('plan', 'equal', [])], ctx('u1', { plan: ['gold'] }), false);
oneRule('attribute notequal: different value', [attr('plan', 'notequal', ['gold'])], ctx('u1', { plan: ['silver'] }), true);
oneRule('attribute notequal: equal value', [attr('plan', 'notequal', ['gold'])], ctx('u1', { plan: ['gold'] }), false);
oneRule('attribute notequal: attribute absent matches (negation)', [attr('plan', 'notequal', ['gold'])], ctx('u1'), true);
oneRule('attribute notequal: no context matches (negation)', [attr('plan', 'notequal', ['gold'])], null, true);
oneRule(
  'attribute notequal: multi-valued, one value equal -> negation fails',
  [attr('groups', 'notequal', ['beta'])],
  ctx('u1', { groups: ['alpha', 'beta'] }),
  false,
);
oneRule(
  'attribute notequal: multi-valued, none equal',
  [attr('groups', 'notequal', ['beta'])],
  ctx('u1', { groups: ['alpha', 'gamma'] }),
  true,
);
oneRule('attribute in: value in list', [attr('country', 'in', ['fr', 'de', 'nl'])], ctx('u1', { country: ['de'] }), true);
oneRule('attribute in: value not in list', [attr('country', 'in', ['fr', 'de', 'nl'])], ctx('u1', { country: ['uk'] }), false);
const many = ['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8', 'a9', 'a10', 'a11', 'a12'];
oneRule('attribute in: long list, member', [attr('code', 'in', many)], ctx('u1', { code: ['a11'] }), true);
oneRule('attribute in: long list, non-member', [attr('code', 'in', many)], ctx('u1', { code: ['a13'] }), false);
oneRule(
  'attribute in: multi-valued attribute, one value in list',
  [attr('country', 'in', ['fr', 'de'])],
  ctx('u1', { country: ['uk', 'fr'] }),
  true,
);
oneRule('attribute notin: value not in list', [attr('country', 'notin', ['fr', 'de'])], ctx('u1', { country: ['uk'] }), true);
oneRule('attribute notin: value in list', [attr('country', 'notin', ['fr', 'de'])], ctx('u1', { country: ['fr'] }), false);
oneRule('attribute notin: long list, member', [attr('code', 'notin', many)], ctx('u1', { code: ['a12'] }), false);
oneRule('attribute notin: attribute absent matches', [attr('country', 'notin', ['fr'])], ctx('u1'), true);
oneRule(
  'attribute notin: multi-valued, one value in list -> negation fails',
  [attr('country', 'notin', ['fr'])],
  ctx('u1', { country: ['uk', 'fr'] }),
  false,
);

section('attribute: contains / startswith / endswith and negations');

oneRule(
  'attribute contains: substring present',
  [attr('email', 'contains', ['@example'])],
  ctx('u1', { email: ['ann@example.com'] }),
  true,
);
oneRule('attribute contains: substring absent', [attr('email', 'contains', ['@example'])], ctx('u1', { email: ['ann@test.org'] }), false);
oneRule('attribute contains: case-sensitive', [attr('email', 'contains', ['EXAMPLE'])], ctx('u1', { email: ['ann@example.com'] }), false);
oneRule('attribute contains: whole value', [attr('email', 'contains', ['abc'])], ctx('u1', { email: ['abc'] }), true);
oneRule(
  'attribute contains: any criterion value',
  [attr('email', 'contains', ['@foo', '@example'])],
  ctx('u1', { email: ['ann@example.com'] }),
  true,
);
oneRule('attribute contains: any attribute value', [attr('tags', 'contains', ['vip'])], ctx('u1', { tags: ['new', 'super-vip'] }), true);
oneRule(
  'attribute contains: empty criterion value matches a present value',
  [attr('email', 'contains', [''])],
  ctx('u1', { email: ['x'] }),
  true,
);
oneRule('attribute contains: attribute absent', [attr('email', 'contains', [''])], ctx('u1'), false);
oneRule('attribute contains: multi-byte characters', [attr('city', 'contains', ['ü'])], ctx('u1', { city: ['Zürich'] }), true);
oneRule(
  'attribute notcontains: substring absent',
  [attr('email', 'notcontains', ['@example'])],
  ctx('u1', { email: ['ann@test.org'] }),
  true,
);
oneRule(
  'attribute notcontains: substring present',
  [attr('email', 'notcontains', ['@example'])],
  ctx('u1', { email: ['ann@example.com'] }),
  false,
);
oneRule('attribute notcontains: attribute absent matches', [attr('email', 'notcontains', ['@example'])], ctx('u1'), true);
oneRule(
  'attribute notcontains: one of several values contains -> fails',
  [attr('tags', 'notcontains', ['vip'])],
  ctx('u1', { tags: ['new', 'vip'] }),
  false,
);
oneRule('attribute startswith: prefix', [attr('version', 'startswith', ['2.'])], ctx('u1', { version: ['2.14.0'] }), true);
oneRule('attribute startswith: not a prefix', [attr('version', 'startswith', ['2.'])], ctx('u1', { version: ['12.0'] }), false);
oneRule(
  'attribute startswith: criterion longer than value',
  [attr('version', 'startswith', ['2.14.0.1'])],
  ctx('u1', { version: ['2.14.0'] }),
  false,
);
oneRule('attribute startswith: attribute absent', [attr('version', 'startswith', ['2.'])], null, false);
oneRule('attribute notstartswith: not a prefix', [attr('version', 'notstartswith', ['2.'])], ctx('u1', { version: ['3.0'] }), true);
oneRule('attribute notstartswith: prefix', [attr('version', 'notstartswith', ['2.'])], ctx('u1', { version: ['2.0'] }), false);
oneRule('attribute notstartswith: attribute absent matches', [attr('version', 'notstartswith', ['2.'])], ctx('u1'), true);
oneRule('attribute endswith: suffix', [attr('email', 'endswith', ['.org'])], ctx('u1', { email: ['ann@test.org'] }), true);
oneRule('attribute endswith: not a suffix', [attr('email', 'endswith', ['.org'])], ctx('u1', { email: ['ann@test.org.uk'] }), false);
oneRule(
  'attribute endswith: any criterion value',
  [attr('email', 'endswith', ['.com', '.org'])],
  ctx('u1', { email: ['ann@test.org'] }),
  true,
);
oneRule('attribute notendswith: not a suffix', [attr('email', 'notendswith', ['.org'])], ctx('u1', { email: ['ann@test.com'] }), true);
oneRule('attribute notendswith: suffix', [attr('email', 'notendswith', ['.org'])], ctx('u1', { email: ['ann@test.org'] }), false);
oneRule('attribute notendswith: attribute absent matches', [attr('email', 'notendswith', ['.org'])], ctx('u1', { other: ['x.org'] }), true);

section('attribute: gt / gte / lt / lte (numeric only)');

oneRule('attribute gt: "10" > "9" numerically', [attr('age', 'gt', ['9'])], ctx('u1', { age: ['10'] }), true);
oneRule('attribute gt: "9" > "10" is false numerically', [attr('age', 'gt', ['10'])], ctx('u1', { age: ['9'] }), false);
oneRule('attribute gt: equal is not greater', [attr('age', 'gt', ['18'])], ctx('u1', { age: ['18'] }), false);
oneRule('attribute gt: non-numeric attribute never matches', [attr('age', 'gt', ['1'])], ctx('u1', { age: ['abc'] }), false);
oneRule('attribute gt: non-numeric criterion never matches', [attr('name', 'gt', ['abc'])], ctx('u1', { name: ['abd'] }), false);
oneRule('attribute gt: decimals', [attr('score', 'gt', ['2.25'])], ctx('u1', { score: ['2.5'] }), true);
oneRule('attribute gt: exponent notation', [attr('score', 'gt', ['999'])], ctx('u1', { score: ['1e3'] }), true);
oneRule('attribute gt: leading zeros are numeric', [attr('score', 'gt', ['9'])], ctx('u1', { score: ['010'] }), true);
oneRule('attribute gt: negative numbers', [attr('score', 'gt', ['-5'])], ctx('u1', { score: ['-1'] }), true);
oneRule('attribute gt: plus sign is not numeric', [attr('score', 'gt', ['1'])], ctx('u1', { score: ['+5'] }), false);
oneRule('attribute gt: surrounding whitespace is not numeric', [attr('score', 'gt', ['1'])], ctx('u1', { score: [' 5'] }), false);
oneRule('attribute gt: leading dot is not numeric', [attr('score', 'gt', ['0'])], ctx('u1', { score: ['.5'] }), false);
oneRule('attribute gt: trailing dot is not numeric', [attr('score', 'gt', ['0'])], ctx('u1', { score: ['5.'] }), false);
oneRule('attribute gt: hexadecimal is not numeric', [attr('score', 'gt', ['1'])], ctx('u1', { score: ['0x10'] }), false);
oneRule('attribute gt: Infinity is not numeric', [attr('score', 'gt', ['1'])], ctx('u1', { score: ['Infinity'] }), false);
oneRule('attribute gt: overflowing exponent is not numeric', [attr('score', 'gt', ['1'])], ctx('u1', { score: ['1e400'] }), false);
oneRule('attribute gt: empty string is not numeric', [attr('score', 'gt', ['-1'])], ctx('u1', { score: [''] }), false);
oneRule('attribute gt: multi-valued, one numeric value greater', [attr('score', 'gt', ['10'])], ctx('u1', { score: ['abc', '20'] }), true);
oneRule(
  'attribute gt: any criterion value (greater than the smallest)',
  [attr('score', 'gt', ['100', '5'])],
  ctx('u1', { score: ['6'] }),
  true,
);
oneRule('attribute gt: non-numeric criterion values are skipped', [attr('score', 'gt', ['x', '5'])], ctx('u1', { score: ['6'] }), true);
oneRule('attribute gt: attribute absent', [attr('score', 'gt', ['5'])], ctx('u1'), false);
oneRule('attribute gte: equal', [attr('age', 'gte', ['18'])], ctx('u1', { age: ['18'] }), true);
oneRule('attribute gte: equal in another notation', [attr('age', 'gte', ['18'])], ctx('u1', { age: ['18.0'] }), true);
oneRule('attribute gte: smaller', [attr('age', 'gte', ['18'])], ctx('u1', { age: ['17.99'] }), false);
oneRule('attribute gte: non-numeric', [attr('age', 'gte', ['18'])], ctx('u1', { age: ['eighteen'] }), false);
oneRule('attribute lt: smaller', [attr('age', 'lt', ['18'])], ctx('u1', { age: ['9'] }), true);
oneRule('attribute lt: "10" < "9" is false numerically', [attr('age', 'lt', ['9'])], ctx('u1', { age: ['10'] }), false);
oneRule('attribute lt: equal is not smaller', [attr('age', 'lt', ['18'])], ctx('u1', { age: ['18'] }), false);
oneRule('attribute lt: any criterion value (smaller than the largest)', [attr('age', 'lt', ['1', '10'])], ctx('u1', { age: ['6'] }), true);
oneRule('attribute lt: negative exponent', [attr('ratio', 'lt', ['0.01'])], ctx('u1', { ratio: ['5e-3'] }), true);
oneRule('attribute lt: non-numeric', [attr('age', 'lt', ['100'])], ctx('u1', { age: ['abc'] }), false);
oneRule('attribute lte: equal', [attr('age', 'lte', ['18'])], ctx('u1', { age: ['18'] }), true);
oneRule('attribute lte: greater', [attr('age', 'lte', ['18'])], ctx('u1', { age: ['19'] }), false);
oneRule('attribute lte: negative zero equals zero', [attr('n', 'lte', ['0'])], ctx('u1', { n: ['-0'] }), true);
oneRule('attribute lte: no context', [attr('age', 'lte', ['18'])], null, false);

section('attribute: isnull / notnull');

oneRule('attribute isnull: attribute absent', [attr('email', 'isnull')], ctx('u1', { other: ['x'] }), true);
oneRule('attribute isnull: no attributes at all', [attr('email', 'isnull')], ctx('u1'), true);
oneRule('attribute isnull: no context', [attr('email', 'isnull')], null, true);
oneRule('attribute isnull: all values empty strings', [attr('email', 'isnull')], ctx('u1', { email: ['', ''] }), true);
oneRule('attribute isnull: attribute with no values', [attr('email', 'isnull')], ctx('u1', { email: [] }), true);
oneRule('attribute isnull: one non-empty value', [attr('email', 'isnull')], ctx('u1', { email: ['', 'a@b.c'] }), false);
oneRule('attribute isnull: present', [attr('email', 'isnull')], ctx('u1', { email: ['a@b.c'] }), false);
oneRule('attribute isnull: criterion values are ignored', [attr('email', 'isnull', ['a@b.c'])], ctx('u1'), true);
oneRule('attribute notnull: present', [attr('email', 'notnull')], ctx('u1', { email: ['a@b.c'] }), true);
oneRule('attribute notnull: absent', [attr('email', 'notnull')], ctx('u1'), false);
oneRule('attribute notnull: only empty strings', [attr('email', 'notnull')], ctx('u1', { email: [''] }), false);
oneRule('attribute notnull: whitespace is a value', [attr('email', 'notnull')], ctx('u1', { email: [' '] }), true);
oneRule('attribute notnull: no context', [attr('email', 'notnull')], null, false);

section('attribute: malformed criteria and context details');

oneRule(
  'attribute criterion without sub_selector never matches',
  [crit('attribute', null, 'equal', ['x'])],
  ctx('u1', { x: ['x'] }),
  false,
);
oneRule(
  'attribute criterion without sub_selector never matches, even negated',
  [crit('attribute', null, 'notequal', ['x'])],
  ctx('u1'),
  false,
);
oneRule('unknown comparer never matches', [attr('plan', 'like', ['gold'])], ctx('u1', { plan: ['gold'] }), false);
oneRule('unknown selector never matches', [crit('device', 'plan', 'equal', ['gold'])], ctx('u1', { plan: ['gold'] }), false);
oneRule(
  'attribute sent twice: values are combined',
  [attr('plan', 'equal', ['gold'])],
  {
    type: 'user',
    identifier: 'u1',
    attributes: [
      { key: 'plan', values: [{ value: 'silver' }] },
      { key: 'plan', values: [{ value: 'gold' }] },
    ],
  },
  true,
);
oneRule(
  'attribute sent twice: notequal sees both values',
  [attr('plan', 'notequal', ['gold'])],
  {
    type: 'user',
    identifier: 'u1',
    attributes: [
      { key: 'plan', values: [{ value: 'silver' }] },
      { key: 'plan', values: [{ value: 'gold' }] },
    ],
  },
  false,
);
oneRule('context name is not an attribute', [attr('name', 'equal', ['Ann'])], { type: 'user', identifier: 'u1', name: 'Ann' }, false);
oneRule('context identifier is not an attribute', [attr('identifier', 'equal', ['u1'])], ctx('u1'), false);

section('context selector');

oneRule('context equal: identifier matches', [ctxCrit('equal', ['u1'])], ctx('u1'), true);
oneRule('context equal: other identifier', [ctxCrit('equal', ['u1'])], ctx('u2'), false);
oneRule('context equal: any of several values', [ctxCrit('equal', ['u1', 'u2'])], ctx('u2'), true);
oneRule('context equal: any context type without sub_selector', [ctxCrit('equal', ['acme'])], ctx('acme', {}, 'organization'), true);
oneRule('context notequal: other identifier', [ctxCrit('notequal', ['u1'])], ctx('u2'), true);
oneRule('context notequal: same identifier', [ctxCrit('notequal', ['u1'])], ctx('u1'), false);
oneRule('context in: listed', [ctxCrit('in', ['u1', 'u2', 'u3'])], ctx('u3'), true);
oneRule('context in: not listed', [ctxCrit('in', ['u1', 'u2', 'u3'])], ctx('u4'), false);
oneRule('context in: long list, listed', [ctxCrit('in', many)], ctx('a9'), true);
oneRule('context notin: not listed', [ctxCrit('notin', ['u1', 'u2'])], ctx('u3'), true);
oneRule('context notin: listed', [ctxCrit('notin', ['u1', 'u2'])], ctx('u1'), false);
oneRule('context equal with sub_selector: type and identifier match', [ctxCrit('equal', ['u1'], 'user')], ctx('u1'), true);
oneRule('context equal with sub_selector: other type', [ctxCrit('equal', ['u1'], 'organization')], ctx('u1'), false);
oneRule('context notequal with sub_selector: type matches, identifier differs', [ctxCrit('notequal', ['u1'], 'user')], ctx('u2'), true);
oneRule('context notequal with sub_selector: other type never matches', [ctxCrit('notequal', ['u1'], 'organization')], ctx('u2'), false);
oneRule('context notin with sub_selector: other type never matches', [ctxCrit('notin', ['u1'], 'organization')], ctx('u2'), false);
oneRule('context equal: no context', [ctxCrit('equal', ['u1'])], null, false);
oneRule('context notequal: no context matches', [ctxCrit('notequal', ['u1'])], null, true);
oneRule('context notin: no context matches', [ctxCrit('notin', ['u1'])], null, true);
oneRule('context notequal with sub_selector: no context never matches', [ctxCrit('notequal', ['u1'], 'user')], null, false);
oneRule('context equal: identifier comparison is case-sensitive', [ctxCrit('equal', ['U1'])], ctx('u1'), false);
for (const comparer of [
  'contains',
  'notcontains',
  'startswith',
  'notstartswith',
  'endswith',
  'notendswith',
  'gt',
  'gte',
  'lt',
  'lte',
  'isnull',
  'notnull',
]) {
  oneRule(`context ${comparer}: not allowed on context selector, never matches`, [ctxCrit(comparer, ['u'])], ctx('u1'), false);
}

section('segments');

const segBeta: Segment = {
  key: 'beta',
  included: ['u-inc', 'u-both'],
  excluded: ['u-exc', 'u-both', 'u-exc-rule'],
  rules: [{ criteria: [attr('plan', 'equal', ['gold'])] }],
};
const segStaff: Segment = {
  key: 'staff',
  included: [],
  excluded: [],
  rules: [
    { criteria: [attr('email', 'endswith', ['@vexil.dev']), attr('verified', 'equal', ['true'])] },
    { criteria: [ctxCrit('equal', ['founder'], 'user')] },
  ],
};
const segNoRules: Segment = { key: 'empty', included: ['u-inc'], excluded: [], rules: [] };
const segs = [segBeta, segStaff, segNoRules];
oneRule('segment equal: identifier included', [segCrit('equal', ['beta'])], ctx('u-inc'), true, segs);
oneRule('segment equal: included regardless of rules', [segCrit('equal', ['beta'])], ctx('u-inc', { plan: ['free'] }), true, segs);
oneRule('segment equal: identifier excluded', [segCrit('equal', ['beta'])], ctx('u-exc'), false, segs);
oneRule('segment equal: exclusion beats matching rule', [segCrit('equal', ['beta'])], ctx('u-exc-rule', { plan: ['gold'] }), false, segs);
oneRule('segment equal: inclusion beats exclusion', [segCrit('equal', ['beta'])], ctx('u-both'), true, segs);
oneRule('segment equal: member by rule', [segCrit('equal', ['beta'])], ctx('u7', { plan: ['gold'] }), true, segs);
oneRule('segment equal: rule does not match', [segCrit('equal', ['beta'])], ctx('u7', { plan: ['free'] }), false, segs);
oneRule(
  'segment equal: segment rule criteria are AND-ed (all match)',
  [segCrit('equal', ['staff'])],
  ctx('u8', { email: ['ann@vexil.dev'], verified: ['true'] }),
  true,
  segs,
);
oneRule(
  'segment equal: segment rule criteria are AND-ed (one fails)',
  [segCrit('equal', ['staff'])],
  ctx('u8', { email: ['ann@vexil.dev'], verified: ['false'] }),
  false,
  segs,
);
oneRule(
  'segment equal: segment rules are OR-ed (second rule, context selector)',
  [segCrit('equal', ['staff'])],
  ctx('founder'),
  true,
  segs,
);
oneRule(
  'segment equal: segment context rule respects sub_selector type',
  [segCrit('equal', ['staff'])],
  ctx('founder', {}, 'organization'),
  false,
  segs,
);
oneRule('segment equal: segment without rules, not included', [segCrit('equal', ['empty'])], ctx('u9'), false, segs);
oneRule('segment in: member of one of the listed segments', [segCrit('in', ['staff', 'beta'])], ctx('u-inc'), true, segs);
oneRule('segment in: member of none of the listed segments', [segCrit('in', ['staff', 'beta'])], ctx('u9'), false, segs);
oneRule('segment notequal: not a member', [segCrit('notequal', ['beta'])], ctx('u9'), true, segs);
oneRule('segment notequal: member', [segCrit('notequal', ['beta'])], ctx('u-inc'), false, segs);
oneRule('segment notin: member of a listed segment', [segCrit('notin', ['staff', 'beta'])], ctx('u7', { plan: ['gold'] }), false, segs);
oneRule('segment notin: member of no listed segment', [segCrit('notin', ['staff', 'beta'])], ctx('u-exc'), true, segs);
oneRule(
  'segment equal: sub_selector is ignored on the segment selector',
  [crit('segment', 'organization', 'equal', ['beta'])],
  ctx('u-inc'),
  true,
  segs,
);
oneRule('segment equal: unknown segment key', [segCrit('equal', ['nope'])], ctx('u-inc'), false, segs);
oneRule('segment notequal: unknown segment key matches', [segCrit('notequal', ['nope'])], ctx('u-inc'), true, segs);
oneRule('segment equal: no context, member lists do not apply', [segCrit('equal', ['empty'])], null, false, segs);
oneRule('segment notin: no context is a member of no rule-less segment', [segCrit('notin', ['empty'])], null, true, segs);
oneRule('segment equal: no context, segment rules still apply (isnull)', [segCrit('equal', ['anon'])], null, true, [
  { key: 'anon', included: [], excluded: [], rules: [{ criteria: [attr('email', 'isnull')] }] },
]);
oneRule('segment rule with a segment criterion never matches', [segCrit('equal', ['outer'])], ctx('u-inc'), false, [
  segNoRules,
  { key: 'outer', included: [], excluded: [], rules: [{ criteria: [segCrit('equal', ['empty'])] }] },
]);
oneRule('segment rule with a negated segment criterion never matches', [segCrit('equal', ['outer'])], ctx('u1'), false, [
  segNoRules,
  { key: 'outer', included: [], excluded: [], rules: [{ criteria: [segCrit('notequal', ['empty'])] }] },
]);
oneRule(
  'segment membership memoised across criteria of one rule',
  [segCrit('equal', ['beta']), segCrit('notin', ['staff']), segCrit('in', ['beta', 'staff'])],
  ctx('u7', { plan: ['gold'] }),
  true,
  segs,
);
for (const comparer of [
  'contains',
  'notcontains',
  'startswith',
  'notstartswith',
  'endswith',
  'notendswith',
  'gt',
  'gte',
  'lt',
  'lte',
  'isnull',
  'notnull',
]) {
  oneRule(`segment ${comparer}: not allowed on segment selector, never matches`, [segCrit(comparer, ['beta'])], ctx('u-inc'), false, segs);
}

section('rules: order and AND');

{
  const flagOf = (rules: Rule[]): Flag[] => [stringFlag('f', { value: 'base', rules })];
  const r1: Rule = { value: 'first', criteria: [attr('plan', 'equal', ['gold'])] };
  const r2: Rule = { value: 'second', criteria: [attr('country', 'equal', ['fr'])] };
  add('rules: first matching rule wins', flagOf([r1, r2]), 'f', ctx('u1', { plan: ['gold'], country: ['fr'] }), {
    value: 'first',
    resolved_by: 'rule',
  });
  add('rules: order decides (reversed)', flagOf([r2, r1]), 'f', ctx('u1', { plan: ['gold'], country: ['fr'] }), {
    value: 'second',
    resolved_by: 'rule',
  });
  add('rules: second rule when the first does not match', flagOf([r1, r2]), 'f', ctx('u1', { plan: ['free'], country: ['fr'] }), {
    value: 'second',
    resolved_by: 'rule',
  });
  add('rules: no rule matches -> target value', flagOf([r1, r2]), 'f', ctx('u1', { plan: ['free'], country: ['de'] }), BASE);
  const and3: Rule = {
    value: 'all-three',
    criteria: [attr('plan', 'equal', ['gold']), attr('age', 'gte', ['18']), ctxCrit('notin', ['blocked'])],
  };
  add('rules: AND of three criteria, all match', flagOf([and3]), 'f', ctx('u1', { plan: ['gold'], age: ['30'] }), {
    value: 'all-three',
    resolved_by: 'rule',
  });
  add('rules: AND of three criteria, first fails', flagOf([and3]), 'f', ctx('u1', { plan: ['free'], age: ['30'] }), BASE);
  add('rules: AND of three criteria, middle fails', flagOf([and3]), 'f', ctx('u1', { plan: ['gold'], age: ['17'] }), BASE);
  add('rules: AND of three criteria, last fails', flagOf([and3]), 'f', ctx('blocked', { plan: ['gold'], age: ['30'] }), BASE);
  add(
    'rules: AND fails on first rule, second rule matches',
    flagOf([and3, r2]),
    'f',
    ctx('blocked', { plan: ['gold'], age: ['30'], country: ['fr'] }),
    { value: 'second', resolved_by: 'rule' },
  );
  add(
    'rules: rule without criteria matches everything',
    flagOf([{ value: 'catch-all', criteria: [] }, r1]),
    'f',
    ctx('u1', { plan: ['gold'] }),
    { value: 'catch-all', resolved_by: 'rule' },
  );
  add('rules: rule without criteria matches without context', flagOf([{ value: 'catch-all', criteria: [] }]), 'f', null, {
    value: 'catch-all',
    resolved_by: 'rule',
  });
  add('rules: target without rules serves its value', flagOf([]), 'f', ctx('u1'), BASE);
  add('rules: no rules and no context -> target value', flagOf([]), 'f', null, BASE);
  add(
    'rules: rule value may equal the target value, still resolved by rule',
    flagOf([{ value: 'base', criteria: [ctxCrit('equal', ['u1'])] }]),
    'f',
    ctx('u1'),
    { value: 'base', resolved_by: 'rule' },
  );
}

section('rollout');

function rolloutFlag(key: string, percentage: number, previous: boolean, extra: Partial<Flag> = {}): Flag {
  return stringFlag(
    key,
    { value: 'new', rules: [] },
    {
      previous: previous ? { value: 'old', rules: [] } : null,
      rollout: { percentage },
      ...extra,
    },
  );
}
const NEW = { value: 'new', resolved_by: 'rollout' } as const;
const OLD = { value: 'old', resolved_by: 'target' } as const;
const DEFAULT = { value: 'default', resolved_by: 'default' } as const;

for (const p of [1, 5, 10, 25, 50, 75, 99]) {
  const key = `rollout-${p}`;
  const inside = identifierWithBucket(key, 'user', p * 100 - 1);
  const outside = identifierWithBucket(key, 'user', p * 100);
  add(`rollout ${p}%: bucket ${p * 100 - 1} is inside -> serving, resolved_by rollout`, [rolloutFlag(key, p, true)], key, ctx(inside), NEW);
  add(`rollout ${p}%: bucket ${p * 100} is outside -> previous target`, [rolloutFlag(key, p, true)], key, ctx(outside), OLD);
  add(`rollout ${p}%: bucket ${p * 100 - 1}, no previous target -> serving`, [rolloutFlag(key, p, false)], key, ctx(inside), NEW);
  add(`rollout ${p}%: bucket ${p * 100}, no previous target -> flag default`, [rolloutFlag(key, p, false)], key, ctx(outside), DEFAULT);
}
{
  const key = 'rollout-1';
  const zero = identifierWithBucket(key, 'user', 0);
  add('rollout 1%: bucket 0 is inside', [rolloutFlag(key, 1, true)], key, ctx(zero), NEW);
  add('rollout 1%: no context -> previous target', [rolloutFlag(key, 1, true)], key, null, OLD);
  add('rollout 1%: no context, no previous -> flag default', [rolloutFlag(key, 1, false)], key, null, DEFAULT);
}
{
  const key = 'rollout-100';
  const top = identifierWithBucket(key, 'user', 9999);
  const zero = identifierWithBucket(key, 'user', 0);
  add('rollout 100%: bucket 9999 is inside', [rolloutFlag(key, 100, true)], key, ctx(top), NEW);
  add('rollout 100%: bucket 0 is inside', [rolloutFlag(key, 100, true)], key, ctx(zero), NEW);
  add('rollout 100%: no context -> previous target', [rolloutFlag(key, 100, true)], key, null, OLD);
  add('rollout 100%: no context, no previous -> flag default', [rolloutFlag(key, 100, false)], key, null, DEFAULT);
  add(
    'rollout 100%: no context, no previous, no default -> unavailable',
    [rolloutFlag(key, 100, false, { default: null })],
    key,
    null,
    null,
  );
  add(
    'rollout 100%: no context, no previous, no default, declared default served',
    [rolloutFlag(key, 100, false, { default: null })],
    key,
    null,
    { value: 'declared', resolved_by: 'default' },
    {
      declared: [{ key, type: 'string', value: 'declared' }],
    },
  );
}
{
  const key = 'rollout-50';
  const inside = identifierWithBucket(key, 'user', 4999);
  const outside = identifierWithBucket(key, 'user', 5000);
  add(
    'rollout 50%: outside, no previous, no default -> unavailable',
    [rolloutFlag(key, 50, false, { default: null })],
    key,
    ctx(outside),
    null,
  );
  add('rollout 50%: inside, no previous, no default -> serving', [rolloutFlag(key, 50, false, { default: null })], key, ctx(inside), NEW);
  add(
    'rollout 50%: outside, no previous, no default, declared default',
    [rolloutFlag(key, 50, false, { default: null })],
    key,
    ctx(outside),
    { value: 'declared', resolved_by: 'default' },
    {
      declared: [{ key, type: 'string', value: 'declared' }],
    },
  );
  // rules of the chosen target
  const withRules = (): Flag =>
    stringFlag(
      key,
      { value: 'new', rules: [{ value: 'new-rule', criteria: [attr('plan', 'equal', ['gold'])] }] },
      {
        previous: { value: 'old', rules: [{ value: 'old-rule', criteria: [attr('plan', 'equal', ['gold'])] }] },
        rollout: { percentage: 50 },
      },
    );
  add('rollout 50%: inside and a serving rule matches -> rule', [withRules()], key, ctx(inside, { plan: ['gold'] }), {
    value: 'new-rule',
    resolved_by: 'rule',
  });
  add('rollout 50%: outside and a previous rule matches -> previous rule', [withRules()], key, ctx(outside, { plan: ['gold'] }), {
    value: 'old-rule',
    resolved_by: 'rule',
  });
  add('rollout 50%: inside, no rule matches -> serving value', [withRules()], key, ctx(inside, { plan: ['free'] }), NEW);
  add('rollout 50%: outside, no rule matches -> previous value', [withRules()], key, ctx(outside, { plan: ['free'] }), OLD);
  add('rollout 50%: no context, previous rule cannot match -> previous value', [withRules()], key, null, OLD);
  // the context type is part of the bucketing key
  let typed: string | undefined;
  for (let n = 0; n < 1_000_000 && typed === undefined; n++) {
    const id = `acct-${n}`;
    if (bucket(key, 'user', id) < 5000 && bucket(key, 'organization', id) >= 5000) typed = id;
  }
  if (typed === undefined) throw new Error('no typed identifier');
  add(
    `rollout 50%: context type is part of the key (user bucket ${bucket(key, 'user', typed)})`,
    [rolloutFlag(key, 50, true)],
    key,
    ctx(typed, {}, 'user'),
    NEW,
  );
  add(
    `rollout 50%: context type is part of the key (organization bucket ${bucket(key, 'organization', typed)})`,
    [rolloutFlag(key, 50, true)],
    key,
    ctx(typed, {}, 'organization'),
    OLD,
  );
  // the flag key is part of the bucketing key
  const otherKey = 'rollout-50-other';
  let keyed: string | undefined;
  for (let n = 0; n < 1_000_000 && keyed === undefined; n++) {
    const id = `user-${n}`;
    if (bucket(key, 'user', id) < 5000 && bucket(otherKey, 'user', id) >= 5000) keyed = id;
  }
  if (keyed === undefined) throw new Error('no keyed identifier');
  add(
    'rollout 50%: flag key is part of the key (inside for this flag)',
    [rolloutFlag(key, 50, true), rolloutFlag(otherKey, 50, true)],
    key,
    ctx(keyed),
    NEW,
  );
  add(
    'rollout 50%: flag key is part of the key (outside for the other flag)',
    [rolloutFlag(key, 50, true), rolloutFlag(otherKey, 50, true)],
    otherKey,
    ctx(keyed),
    OLD,
  );
}
{
  // UTF-8 bytes of non-ASCII identifiers
  const key = 'rollout-utf8';
  const inside = identifierWithBucket(key, 'user', 2999, 'josé-ü-🚀-');
  const outside = identifierWithBucket(key, 'user', 3000, 'josé-ü-🚀-');
  add('rollout 30%: non-ASCII identifier, bucket 2999 (UTF-8 hashing) -> serving', [rolloutFlag(key, 30, true)], key, ctx(inside), NEW);
  add('rollout 30%: non-ASCII identifier, bucket 3000 (UTF-8 hashing) -> previous', [rolloutFlag(key, 30, true)], key, ctx(outside), OLD);
}
add(
  'no rollout: previous target is ignored',
  [stringFlag('f', { value: 'new', rules: [] }, { previous: { value: 'old', rules: [] } })],
  'f',
  ctx('u1'),
  { value: 'new', resolved_by: 'target' },
);
add('no rollout: no context -> serving target value', [stringFlag('f', { value: 'new', rules: [] })], 'f', null, {
  value: 'new',
  resolved_by: 'target',
});

section('defaults and unavailable flags');

{
  const noTarget = (extra: Partial<Flag> = {}): Flag[] => [stringFlag('f', null, extra)];
  add('no published target -> flag default value', noTarget(), 'f', ctx('u1'), DEFAULT);
  add('no published target, no context -> flag default value', noTarget(), 'f', null, DEFAULT);
  add('no target, no default -> unavailable', noTarget({ default: null }), 'f', ctx('u1'), null);
  add(
    'no target, no default, declared default of the same type -> served',
    noTarget({ default: null }),
    'f',
    ctx('u1'),
    { value: 'mine', resolved_by: 'default' },
    {
      declared: [{ key: 'f', type: 'string', value: 'mine' }],
    },
  );
  add('no target, no default, declared default of another type -> unavailable', noTarget({ default: null }), 'f', ctx('u1'), null, {
    declared: [{ key: 'f', type: 'boolean', value: true }],
  });
  add('no target, no default, declared default for another key -> unavailable', noTarget({ default: null }), 'f', ctx('u1'), null, {
    declared: [{ key: 'g', type: 'string', value: 'mine' }],
  });
  add(
    'no target, no default, first declaration of the matching type is served',
    noTarget({ default: null }),
    'f',
    ctx('u1'),
    { value: 'second', resolved_by: 'default' },
    {
      declared: [
        { key: 'f', type: 'number', value: 1 },
        { key: 'f', type: 'string', value: 'second' },
        { key: 'f', type: 'string', value: 'third' },
      ],
    },
  );
  add(
    'no target, no default, declared default, no context',
    noTarget({ default: null }),
    'f',
    null,
    { value: 'mine', resolved_by: 'default' },
    {
      declared: [{ key: 'f', type: 'string', value: 'mine' }],
    },
  );
  add('flag default wins over a declared default', noTarget(), 'f', ctx('u1'), DEFAULT, {
    declared: [{ key: 'f', type: 'string', value: 'mine' }],
  });
  add('target wins over a declared default', [stringFlag('f', { value: 'base', rules: [] }, { default: null })], 'f', ctx('u1'), BASE, {
    declared: [{ key: 'f', type: 'string', value: 'mine' }],
  });
  add('unknown flag key -> unavailable', noTarget(), 'missing', ctx('u1'), null);
  add('unknown flag key with a declared default -> still unavailable', noTarget(), 'missing', ctx('u1'), null, {
    declared: [{ key: 'missing', type: 'string', value: 'mine' }],
  });
  add('empty configuration -> unavailable', [], 'f', null, null, { declared: [{ key: 'f', type: 'string', value: 'mine' }] });
  add(
    'duplicate flag key: the first occurrence is used',
    [stringFlag('f', { value: 'first', rules: [] }), stringFlag('f', { value: 'second', rules: [] })],
    'f',
    ctx('u1'),
    { value: 'first', resolved_by: 'target' },
  );
}

section('flag types');

{
  const typed = (type: Flag['type'], def: Json | undefined, serving: Target | null, key = 't'): Flag[] => [
    { ...stringFlag(key, serving), type, default: def === undefined ? null : { value: def } },
  ];
  const vip = [attr('plan', 'equal', ['vip'])];
  add(
    'boolean: rule value true',
    typed('boolean', false, { value: false, rules: [{ value: true, criteria: vip }] }),
    't',
    ctx('u1', { plan: ['vip'] }),
    { value: true, resolved_by: 'rule' },
  );
  add('boolean: target value false', typed('boolean', false, { value: false, rules: [{ value: true, criteria: vip }] }), 't', ctx('u1'), {
    value: false,
    resolved_by: 'target',
  });
  add('boolean: default false', typed('boolean', false, null), 't', ctx('u1'), { value: false, resolved_by: 'default' });
  add(
    'boolean: declared default true',
    typed('boolean', undefined, null),
    't',
    null,
    { value: true, resolved_by: 'default' },
    {
      declared: [{ key: 't', type: 'boolean', value: true }],
    },
  );
  add('boolean: declared string default does not fit', typed('boolean', undefined, null), 't', null, null, {
    declared: [{ key: 't', type: 'string', value: 'true' }],
  });
  add('number: rule value', typed('number', 0, { value: 10, rules: [{ value: 42.5, criteria: vip }] }), 't', ctx('u1', { plan: ['vip'] }), {
    value: 42.5,
    resolved_by: 'rule',
  });
  add('number: negative target value', typed('number', 0, { value: -3, rules: [] }), 't', ctx('u1'), { value: -3, resolved_by: 'target' });
  add('number: zero default', typed('number', 0, null), 't', null, { value: 0, resolved_by: 'default' });
  add(
    'number: declared default',
    typed('number', undefined, null),
    't',
    ctx('u1'),
    { value: 7, resolved_by: 'default' },
    {
      declared: [{ key: 't', type: 'number', value: 7 }],
    },
  );
  add('number: declared json default does not fit', typed('number', undefined, null), 't', ctx('u1'), null, {
    declared: [{ key: 't', type: 'json', value: 7 }],
  });
  add('string: empty string value', typed('string', 'x', { value: '', rules: [] }), 't', ctx('u1'), { value: '', resolved_by: 'target' });
  add('string: unicode value', typed('string', 'x', { value: 'héllo wörld 🚀', rules: [] }), 't', ctx('u1'), {
    value: 'héllo wörld 🚀',
    resolved_by: 'target',
  });
  const nested: Json = { theme: { colors: ['#000000', '#ffffff'], dark: true }, limits: { max: 10, ratio: 0.5 }, tags: [], note: null };
  add(
    'json: nested object rule value',
    typed('json', {}, { value: { a: 1 }, rules: [{ value: nested, criteria: vip }] }),
    't',
    ctx('u1', { plan: ['vip'] }),
    { value: nested, resolved_by: 'rule' },
  );
  add('json: array target value', typed('json', [], { value: [1, 'two', { three: [3] }], rules: [] }), 't', ctx('u1'), {
    value: [1, 'two', { three: [3] }],
    resolved_by: 'target',
  });
  add('json: null is a servable default value', typed('json', null, null), 't', ctx('u1'), { value: null, resolved_by: 'default' });
  add('json: null target value', typed('json', {}, { value: null, rules: [] }), 't', ctx('u1'), { value: null, resolved_by: 'target' });
  add('json: scalar string value', typed('json', {}, { value: 'just a string', rules: [] }), 't', ctx('u1'), {
    value: 'just a string',
    resolved_by: 'target',
  });
  add(
    'json: declared nested default',
    typed('json', undefined, null),
    't',
    null,
    { value: { fallback: [1, 2, { deep: true }] }, resolved_by: 'default' },
    {
      declared: [{ key: 't', type: 'json', value: { fallback: [1, 2, { deep: true }] } }],
    },
  );
  add('json: declared boolean default does not fit', typed('json', undefined, null), 't', null, null, {
    declared: [{ key: 't', type: 'boolean', value: false }],
  });
  add(
    'json: rollout serves nested value',
    [
      {
        ...stringFlag('rollout-json', { value: { v: 2, list: [2] }, rules: [] }),
        type: 'json',
        default: { value: { v: 0 } },
        previous: { value: { v: 1, list: [1] }, rules: [] },
        rollout: { percentage: 100 },
      },
    ],
    'rollout-json',
    ctx('anyone'),
    { value: { v: 2, list: [2] }, resolved_by: 'rollout' },
  );
}

section('splits');

// Reference of the split method (specs/public.yaml, "Evaluation order", step 4a), written from
// the document: lowest -ln(u)/weight over the shares, u = (murmur3("flagKey/variant/by") + 0.5) / 2^32.
function refSplitChoice(flagKey: string, split: Split, by: string): SplitShare {
  let best: SplitShare | undefined;
  let bestScore = Number.POSITIVE_INFINITY;
  for (const share of split.shares) {
    if (share.weight <= 0) continue;
    const score = -Math.log((refMurmur3(`${flagKey}/${share.variant}/${by}`) + 0.5) / 4294967296) / share.weight;
    if (score < bestScore) {
      bestScore = score;
      best = share;
    }
  }
  if (!best) throw new Error('split without a positive weight');
  return best;
}

/** First `${prefix}${n}` the split gives `variant`. */
function bucketingValueFor(flagKey: string, split: Split, variant: string, prefix = 'user-'): string {
  for (let n = 0; n < 100_000; n++) {
    if (refSplitChoice(flagKey, split, `${prefix}${n}`).variant === variant) return `${prefix}${n}`;
  }
  throw new Error(`no bucketing value for ${variant}`);
}

const shareOf = (variant: string, weight: number, value: Json = variant): SplitShare => ({ variant, value, weight });
const splitOf = (attribute: string | null, ...shares: SplitShare[]): Split => ({ attribute, shares });
const bySplit = (resolvedBy: string, rule: number | null, share: SplitShare) => ({
  value: share.value,
  resolved_by: resolvedBy,
  split: { rule, variant: share.variant, weight: share.weight },
});

{
  const key = 'split-base';
  const split = splitOf(null, shareOf('a', 34000), shareOf('b', 33000), shareOf('c', 33000));
  const flags = [stringFlag(key, { value: 'base', rules: [], split })];
  for (const share of split.shares) {
    const id = bucketingValueFor(key, split, share.variant);
    add(`split on the base 34/33/33: ${id} -> ${share.variant}`, flags, key, ctx(id), bySplit('target', null, share));
  }
  const id = bucketingValueFor(key, split, 'b');
  add(
    'split on the base: the context type does not take part in bucketing',
    flags,
    key,
    ctx(id, {}, 'account'),
    bySplit('target', null, split.shares[1] as SplitShare),
  );
  add('split on the base: no context -> the base value, no split', flags, key, null, { value: 'base', resolved_by: 'target' });
  add(
    'split on the base: a matching rule without a split wins',
    [stringFlag(key, { value: 'base', rules: [{ value: 'hit', criteria: [attr('plan', 'equal', ['gold'])] }], split })],
    key,
    ctx(id, { plan: ['gold'] }),
    HIT,
  );
}
{
  const key = 'split-fifty';
  const split = splitOf(null, shareOf('on', 50000), shareOf('off', 50000));
  const flags = [stringFlag(key, { value: 'base', rules: [], split })];
  for (let i = 0; i < 6; i++) {
    const id = `visitor-${i}`;
    const share = refSplitChoice(key, split, id);
    add(`split 50/50: ${id} -> ${share.variant}`, flags, key, ctx(id), bySplit('target', null, share));
  }
  // 0.001 % granularity: a share of 1 (0.001 %) against 99999.
  const tiny = splitOf(null, shareOf('rare', 1), shareOf('common', 99999));
  add(
    'split 0.001/99.999: visitor-0 -> common',
    [stringFlag(key, { value: 'base', rules: [], split: tiny })],
    key,
    ctx('visitor-0'),
    bySplit('target', null, refSplitChoice(key, tiny, 'visitor-0')),
  );
}
{
  const key = 'split-zero';
  const split = splitOf(null, shareOf('never', 0), shareOf('always', 100000));
  const flags = [stringFlag(key, { value: 'base', rules: [], split })];
  for (const id of ['u1', 'u2', 'u3'])
    add(`split with a weight of 0: ${id} -> the other value`, flags, key, ctx(id), bySplit('target', null, split.shares[1] as SplitShare));
}
{
  const key = 'split-rule';
  const split = splitOf(null, shareOf('x', 50000), shareOf('y', 50000));
  const rules: Rule[] = [
    { value: 'first', criteria: [attr('plan', 'equal', ['free'])] },
    { value: 'hit', criteria: [attr('plan', 'equal', ['gold'])], split },
  ];
  const flags = [stringFlag(key, { value: 'base', rules })];
  for (const share of split.shares) {
    const id = bucketingValueFor(key, split, share.variant);
    add(
      `split on rule 1: ${id} -> ${share.variant}, the split names rule 1`,
      flags,
      key,
      ctx(id, { plan: ['gold'] }),
      bySplit('rule', 1, share),
    );
  }
  add('split on rule 1: the rule does not match -> the base value', flags, key, ctx('u1', { plan: ['silver'] }), {
    value: 'base',
    resolved_by: 'target',
  });
  add('split on rule 1: an earlier rule matches -> its value', flags, key, ctx('u1', { plan: ['free'] }), {
    value: 'first',
    resolved_by: 'rule',
  });
}
{
  const key = 'split-attribute';
  const split = splitOf('account', shareOf('x', 50000), shareOf('y', 50000));
  const rules: Rule[] = [{ value: 'hit', criteria: [attr('plan', 'equal', ['gold'])], split }];
  const flags = [stringFlag(key, { value: 'base', rules, split })];
  for (const share of split.shares) {
    const account = bucketingValueFor(key, split, share.variant, 'acct-');
    for (const id of ['u1', 'u2']) {
      add(
        `split by attribute account: ${id} of ${account} -> ${share.variant}`,
        flags,
        key,
        ctx(id, { account: [account] }),
        bySplit('target', null, share),
      );
    }
    add(
      `split by attribute account on a rule: ${account} -> ${share.variant}`,
      flags,
      key,
      ctx('u9', { account: [account], plan: ['gold'] }),
      bySplit('rule', 0, share),
    );
  }
  const x = bucketingValueFor(key, split, 'x', 'acct-');
  const y = bucketingValueFor(key, split, 'y', 'acct-');
  add(
    'split by attribute: several values -> the first one buckets',
    flags,
    key,
    ctx('u1', { account: [y, x] }),
    bySplit('target', null, split.shares[1] as SplitShare),
  );
  add('split by attribute: attribute missing -> the base value', flags, key, ctx('u1'), { value: 'base', resolved_by: 'target' });
  add('split by attribute: empty first value -> the base value', flags, key, ctx('u1', { account: ['', x] }), {
    value: 'base',
    resolved_by: 'target',
  });
  add('split by attribute on a rule: attribute missing -> the rule value', flags, key, ctx('u1', { plan: ['gold'] }), HIT);
  add('split by attribute: no context -> the base value', flags, key, null, { value: 'base', resolved_by: 'target' });
}
{
  const key = 'split-rollout';
  const split = splitOf(null, shareOf('x', 50000), shareOf('y', 50000));
  const flags = [
    stringFlag(
      key,
      { value: 'new', rules: [], split },
      { previous: { value: 'old', rules: [], split: splitOf(null, shareOf('p', 100000)) }, rollout: { percentage: 50 } },
    ),
  ];
  for (const share of split.shares) {
    let id = '';
    for (let n = 0; ; n++) {
      const candidate = `user-${n}`;
      if (bucket(key, 'user', candidate) < 5000 && refSplitChoice(key, split, candidate).variant === share.variant) {
        id = candidate;
        break;
      }
    }
    add(
      `split with a rollout: ${id} inside the rollout -> the new target's split gives ${share.variant}, resolved_by rollout`,
      flags,
      key,
      ctx(id),
      bySplit('rollout', null, share),
    );
  }
  const outside = identifierWithBucket(key, 'user', 5000);
  add(
    "split with a rollout: bucket 5000 outside -> the previous target's split",
    flags,
    key,
    ctx(outside),
    bySplit('target', null, shareOf('p', 100000)),
  );
  add('split with a rollout: no context -> the previous target value, no split', flags, key, null, { value: 'old', resolved_by: 'target' });
}
{
  const key = 'split-json';
  const split = splitOf(
    null,
    shareOf('{"theme":"dark"}', 50000, { theme: 'dark' }),
    shareOf('{"theme":"light"}', 50000, { theme: 'light' }),
  );
  const flags: Flag[] = [{ ...stringFlag(key, { value: { theme: 'none' }, rules: [], split }), type: 'json', default: { value: null } }];
  for (const share of split.shares) {
    const id = bucketingValueFor(key, split, share.variant);
    add(`split of json values: ${id} -> ${share.variant}`, flags, key, ctx(id), bySplit('target', null, share));
  }
  const numbers = splitOf(null, shareOf('1', 50000, 1), shareOf('2.5', 50000, 2.5));
  const numberFlags: Flag[] = [
    { ...stringFlag('split-number', { value: 0, rules: [], split: numbers }), type: 'number', default: { value: 0 } },
  ];
  for (const share of numbers.shares) {
    const id = bucketingValueFor('split-number', numbers, share.variant);
    add(`split of numbers: ${id} -> ${share.variant}`, numberFlags, 'split-number', ctx(id), bySplit('target', null, share));
  }
}

// ---------------------------------------------------------------------------------------------
section('attribute: semver_eq / semver_lt / semver_gt / semver_lte / semver_gte');

const ver = (comparer: string, values: string[], attribute: string[]): [Criterion[], Ctx] => [
  [attr('app_version', comparer, values)],
  ctx('u1', { app_version: attribute }),
];
const semverCases: [string, string, string[], string[], boolean][] = [
  ['semver_eq: same version', 'semver_eq', ['1.2.3'], ['1.2.3'], true],
  ['semver_eq: different patch', 'semver_eq', ['1.2.3'], ['1.2.4'], false],
  ['semver_eq: build metadata is ignored', 'semver_eq', ['1.2.3+build.1'], ['1.2.3+build.2'], true],
  ['semver_eq: leading v accepted in the attribute', 'semver_eq', ['1.2.3'], ['v1.2.3'], true],
  ['semver_eq: leading v accepted in the criterion', 'semver_eq', ['v1.2.3'], ['1.2.3'], true],
  ['semver_eq: pre-release differs from the release', 'semver_eq', ['1.2.3'], ['1.2.3-rc.1'], false],
  ['semver_eq: any of several criterion values', 'semver_eq', ['1.0.0', '2.0.0'], ['2.0.0'], true],
  ['semver_lt: minor compared numerically (1.9.0 < 1.10.0)', 'semver_lt', ['1.10.0'], ['1.9.0'], true],
  ['semver_lt: equal is not less', 'semver_lt', ['1.2.3'], ['1.2.3'], false],
  ['semver_lt: pre-release is lower than its release', 'semver_lt', ['1.0.0'], ['1.0.0-alpha'], true],
  ['semver_lt: alpha < alpha.1', 'semver_lt', ['1.0.0-alpha.1'], ['1.0.0-alpha'], true],
  ['semver_lt: numeric identifier < alphanumeric (alpha.1 < alpha.beta)', 'semver_lt', ['1.0.0-alpha.beta'], ['1.0.0-alpha.1'], true],
  ['semver_lt: beta.2 < beta.11 numerically', 'semver_lt', ['1.0.0-beta.11'], ['1.0.0-beta.2'], true],
  ['semver_lt: rc.1 < release', 'semver_lt', ['1.0.0'], ['1.0.0-rc.1'], true],
  ['semver_lt: huge numbers compare by digits', 'semver_lt', ['1.0.99999999999999999999'], ['1.0.9999999999999999999'], true],
  ['semver_gt: major wins over minor', 'semver_gt', ['1.99.99'], ['2.0.0'], true],
  ['semver_gt: release is greater than its pre-release', 'semver_gt', ['2.0.0-rc.1'], ['2.0.0'], true],
  ['semver_gt: lower is not greater', 'semver_gt', ['2.0.0'], ['1.0.0'], false],
  ['semver_lte: equal', 'semver_lte', ['3.1.0'], ['3.1.0'], true],
  ['semver_lte: greater is not lte', 'semver_lte', ['3.1.0'], ['3.1.1'], false],
  ['semver_gte: equal', 'semver_gte', ['3.1.0'], ['3.1.0'], true],
  ['semver_gte: lower is not gte', 'semver_gte', ['3.1.0'], ['3.0.9'], false],
  ['semver_gte: any attribute value may match', 'semver_gte', ['3.0.0'], ['1.0.0', '3.0.0'], true],
  ['semver: missing patch is not a version', 'semver_gte', ['1.0.0'], ['1.2'], false],
  ['semver: leading zero is not a version', 'semver_gte', ['1.0.0'], ['01.2.3'], false],
  ['semver: leading zero in a numeric pre-release is not a version', 'semver_gte', ['1.0.0-alpha'], ['1.0.0-01'], false],
  ['semver: capital V is not accepted', 'semver_gte', ['1.0.0'], ['V2.0.0'], false],
  ['semver: white space is not a version', 'semver_gte', ['1.0.0'], [' 2.0.0'], false],
  ['semver: empty value is not a version', 'semver_lte', ['1.0.0'], [''], false],
  ['semver: text is not a version', 'semver_lt', ['1.0.0'], ['latest'], false],
  ['semver: empty pre-release identifier is not a version', 'semver_lt', ['9.0.0'], ['1.0.0-alpha..1'], false],
  ['semver: invalid criterion value never matches', 'semver_eq', ['1.0'], ['1.0'], false],
];
for (const [name, comparer, values, attribute, hit] of semverCases) oneRule(`attribute ${name}`, ...ver(comparer, values, attribute), hit);
oneRule('attribute semver_gte: absent attribute does not match', [attr('app_version', 'semver_gte', ['1.0.0'])], ctx('u1'), false);
oneRule('attribute semver_gte: no context does not match', [attr('app_version', 'semver_gte', ['1.0.0'])], null, false);

// ---------------------------------------------------------------------------------------------
section('attribute: before / after (date-times with offset, compared as instants)');

const at = (comparer: string, values: string[], attribute: string[]): [Criterion[], Ctx] => [
  [attr('signed_up', comparer, values)],
  ctx('u1', { signed_up: attribute }),
];
const dateCases: [string, string, string[], string[], boolean][] = [
  ['before: earlier instant', 'before', ['2026-01-01T00:00:00Z'], ['2025-12-31T23:59:59Z'], true],
  ['before: same instant is not before', 'before', ['2026-01-01T00:00:00Z'], ['2026-01-01T00:00:00Z'], false],
  [
    'before: offsets compared as instants (01:00+01:00 is 00:00Z)',
    'before',
    ['2026-01-01T00:00:00Z'],
    ['2026-01-01T01:00:00+01:00'],
    false,
  ],
  ['before: a later wall clock in a western offset is later', 'before', ['2026-01-01T00:00:00Z'], ['2025-12-31T20:00:00-05:00'], false],
  ['before: a negative offset one minute before', 'before', ['2026-01-01T00:00:00Z'], ['2025-12-31T18:59:00-05:00'], true],
  ['before: fractions of a second count', 'before', ['2026-01-01T00:00:00.5Z'], ['2026-01-01T00:00:00.499999999Z'], true],
  ['before: nanosecond precision', 'before', ['2026-01-01T00:00:00.000000002Z'], ['2026-01-01T00:00:00.000000001Z'], true],
  ['after: later instant', 'after', ['2026-01-01T00:00:00Z'], ['2026-01-01T00:00:01Z'], true],
  ['after: same instant written in two offsets is not after', 'after', ['2026-06-01T12:00:00+02:00'], ['2026-06-01T10:00:00Z'], false],
  ['after: across a day boundary by offset', 'after', ['2026-03-01T00:00:00Z'], ['2026-02-28T23:30:00-01:00'], true],
  ['after: leap day is a date', 'after', ['2024-02-28T00:00:00Z'], ['2024-02-29T00:00:00Z'], true],
  ['after: any of several criterion values', 'after', ['2030-01-01T00:00:00Z', '2020-01-01T00:00:00Z'], ['2025-01-01T00:00:00Z'], true],
  ['date: no offset is not a date-time', 'after', ['2020-01-01T00:00:00Z'], ['2025-01-01T00:00:00'], false],
  ['date: a date alone is not a date-time', 'after', ['2020-01-01T00:00:00Z'], ['2025-01-01'], false],
  ['date: missing seconds is not a date-time', 'after', ['2020-01-01T00:00:00Z'], ['2025-01-01T00:00Z'], false],
  ['date: February 29 of a common year is not a date', 'after', ['2020-01-01T00:00:00Z'], ['2025-02-29T00:00:00Z'], false],
  ['date: hour 24 is not a date-time', 'after', ['2020-01-01T00:00:00Z'], ['2025-01-01T24:00:00Z'], false],
  ['date: lowercase t and z are not accepted', 'after', ['2020-01-01T00:00:00Z'], ['2025-01-01t00:00:00z'], false],
  ['date: epoch milliseconds are not a date-time', 'after', ['2020-01-01T00:00:00Z'], ['1767225600000'], false],
  ['date: invalid criterion value never matches', 'before', ['tomorrow'], ['2020-01-01T00:00:00Z'], false],
];
for (const [name, comparer, values, attribute, hit] of dateCases) oneRule(`attribute ${name}`, ...at(comparer, values, attribute), hit);
oneRule('attribute before: absent attribute does not match', [attr('signed_up', 'before', ['2026-01-01T00:00:00Z'])], ctx('u1'), false);

// ---------------------------------------------------------------------------------------------
section('attribute: matches (linear-time regular expressions)');

const re = (values: string[], attribute: string[]): [Criterion[], Ctx] => [
  [attr('email', 'matches', values)],
  ctx('u1', { email: attribute }),
];
const regexCases: [string, string[], string[], boolean][] = [
  ['matches: unanchored pattern matches a part', ['example'], ['joe@example.com'], true],
  ['matches: ^ anchors at the start', ['^joe@'], ['joe@example.com'], true],
  ['matches: ^ does not match later', ['^example'], ['joe@example.com'], false],
  ['matches: $ anchors at the end', ['\\.com$'], ['joe@example.com'], true],
  ['matches: $ does not match before the end', ['\\.com$'], ['joe@example.com.au'], false],
  ['matches: ^...$ whole value', ['^[a-z]+@example\\.com$'], ['joe@example.com'], true],
  ['matches: ^...$ refuses extra text', ['^[a-z]+@example\\.com$'], ['joe@example.com '], false],
  ['matches: escaped dot is literal', ['^a\\.b$'], ['axb'], false],
  ['matches: dot matches any character', ['^a.b$'], ['axb'], true],
  ['matches: case-sensitive', ['^JOE'], ['joe@example.com'], false],
  ['matches: alternation', ['^(joe|ann)@'], ['ann@example.com'], true],
  ['matches: counted repetition', ['^\\d{3}-\\d{4}$'], ['555-1234'], true],
  ['matches: counted repetition too short', ['^\\d{3}-\\d{4}$'], ['55-1234'], false],
  ['matches: negated class', ['^[^@]+$'], ['no-at-sign'], true],
  ['matches: code points (an emoji is one character)', ['^.$'], ['😀'], true],
  ['matches: nested quantifiers run in linear time', ['^(a+)+$'], ['aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab'], false],
  ['matches: any of several patterns', ['^x', 'example'], ['joe@example.com'], true],
  ['matches: any of several attribute values', ['^admin$'], ['user', 'admin'], true],
  ['matches: empty value against ^$', ['^$'], [''], true],
  ['matches: a pattern it cannot run (back-reference) never matches', ['(a)\\1'], ['aa'], false],
  ['matches: a pattern it cannot run (lookahead) never matches', ['^(?=a)a'], ['a'], false],
];
for (const [name, values, attribute, hit] of regexCases) oneRule(`attribute ${name}`, ...re(values, attribute), hit);
oneRule('attribute matches: absent attribute does not match', [attr('email', 'matches', ['.*'])], ctx('u1'), false);
oneRule('attribute matches: comparer not allowed on context selector never matches', [ctxCrit('matches', ['.*'])], ctx('u1'), false);

// ---------------------------------------------------------------------------------------------
section('prerequisites');

/** A boolean flag whose serving target serves `value`, with rules and prerequisites; default false. */
function boolFlag(key: string, target: Target | null, extra: Partial<Flag> = {}): Flag {
  return {
    key,
    name: `Flag ${key}`,
    type: 'boolean',
    include_in_mobile: true,
    include_in_client: true,
    default: { value: false },
    serving: target,
    previous: null,
    rollout: null,
    ...extra,
  };
}
const req = (flag_key: string, values: Json[]) => ({ flag_key, values });
const PREREQ_FAILED = { value: 'default', resolved_by: 'prerequisite' } as const;
const ON = { value: 'on', resolved_by: 'target' } as const;
/** `f`: a string flag serving 'on' (rule 'vip' -> 'hit') when its prerequisites hold, default 'default'. */
const gated = (prerequisites: { flag_key: string; values: Json[] }[], extra: Partial<Flag> = {}) =>
  stringFlag('f', { value: 'on', rules: [{ value: 'hit', criteria: [attr('plan', 'equal', ['vip'])] }], prerequisites }, extra);
const onOff = (key: string, on: boolean) => boolFlag(key, { value: on, rules: [] });

add('prerequisite: holds -> target value', [gated([req('p', [true])]), onOff('p', true)], 'f', ctx('u1'), ON);
add('prerequisite: holds -> rules still apply', [gated([req('p', [true])]), onOff('p', true)], 'f', ctx('u1', { plan: ['vip'] }), HIT);
add(
  'prerequisite: fails -> flag default, resolved_by prerequisite',
  [gated([req('p', [true])]), onOff('p', false)],
  'f',
  ctx('u1'),
  PREREQ_FAILED,
);
add(
  'prerequisite: fails even when a rule would match',
  [gated([req('p', [true])]), onOff('p', false)],
  'f',
  ctx('u1', { plan: ['vip'] }),
  PREREQ_FAILED,
);
add('prerequisite: no context, required flag evaluated without one', [gated([req('p', [true])]), onOff('p', true)], 'f', null, ON);
add('prerequisite: any of several accepted values', [gated([req('p', [false, true])]), onOff('p', false)], 'f', ctx('u1'), ON);
add('prerequisite: no accepted value listed never holds', [gated([req('p', [])]), onOff('p', true)], 'f', ctx('u1'), PREREQ_FAILED);
add('prerequisite: missing flag fails', [gated([req('ghost', [true])])], 'f', ctx('u1'), PREREQ_FAILED);
add(
  'prerequisite: unavailable flag (no target, no default) fails',
  [gated([req('p', [true])]), boolFlag('p', null, { default: null })],
  'f',
  ctx('u1'),
  PREREQ_FAILED,
);
add(
  'prerequisite: required flag with nothing published serves its default, which counts',
  [gated([req('p', [false])]), boolFlag('p', null)],
  'f',
  ctx('u1'),
  ON,
);
add(
  'prerequisite: second of two fails',
  [gated([req('p', [true]), req('q', [true])]), onOff('p', true), onOff('q', false)],
  'f',
  ctx('u1'),
  PREREQ_FAILED,
);
add(
  'prerequisite: both of two hold',
  [gated([req('p', [true]), req('q', [true])]), onOff('p', true), onOff('q', true)],
  'f',
  ctx('u1'),
  ON,
);
add(
  "prerequisite: required value matched by the required flag's rule for this context",
  [gated([req('p', [true])]), boolFlag('p', { value: false, rules: [{ value: true, criteria: [attr('beta', 'equal', ['yes'])] }] })],
  'f',
  ctx('u1', { beta: ['yes'] }),
  ON,
);
add(
  "prerequisite: required flag's rule does not match this context",
  [gated([req('p', [true])]), boolFlag('p', { value: false, rules: [{ value: true, criteria: [attr('beta', 'equal', ['yes'])] }] })],
  'f',
  ctx('u1', { beta: ['no'] }),
  PREREQ_FAILED,
);
// chains of 3: f requires b, b requires c
const chainB = (cValues: Json[]) => boolFlag('b', { value: true, rules: [], prerequisites: [req('c', cValues)] });
const chainC = boolFlag('c', { value: false, rules: [{ value: true, criteria: [attr('country', 'in', ['FR', 'BE'])] }] });
add(
  'prerequisite chain of 3: every link holds',
  [gated([req('b', [true])]), chainB([true]), chainC],
  'f',
  ctx('u1', { country: ['FR'] }),
  ON,
);
add(
  'prerequisite chain of 3: last link fails, middle serves its default, first fails',
  [gated([req('b', [true])]), chainB([true]), chainC],
  'f',
  ctx('u1', { country: ['DE'] }),
  PREREQ_FAILED,
);
add(
  'prerequisite chain of 3: middle flag itself reports prerequisite',
  [gated([req('b', [true])]), chainB([true]), chainC],
  'b',
  ctx('u1', { country: ['DE'] }),
  { value: false, resolved_by: 'prerequisite' },
);
add(
  'prerequisite chain of 3: the middle default is an accepted value, so the first holds',
  [gated([req('b', [false])]), chainB([true]), chainC],
  'f',
  ctx('u1', { country: ['DE'] }),
  ON,
);
add(
  'prerequisite chain of 3: order in the configuration does not matter',
  [chainC, chainB([true]), gated([req('b', [true])])],
  'f',
  ctx('u1', { country: ['BE'] }),
  ON,
);
add('prerequisite: a flag requiring itself fails', [gated([req('f', ['on'])])], 'f', ctx('u1'), PREREQ_FAILED);
add(
  'prerequisite: a cycle of two, evaluated from f: p meets f again and fails, so f fails',
  [gated([req('p', [true])]), boolFlag('p', { value: true, rules: [], prerequisites: [req('f', ['on', 'default'])] })],
  'f',
  ctx('u1'),
  PREREQ_FAILED,
);
add(
  'prerequisite: a cycle of two, evaluated from p: f meets p again and serves its default, which p accepts',
  [gated([req('p', [true])]), boolFlag('p', { value: true, rules: [], prerequisites: [req('f', ['on', 'default'])] })],
  'p',
  ctx('u1'),
  { value: true, resolved_by: 'target' },
);
add(
  'prerequisite: json values compare as JSON (member order ignored)',
  [
    gated([req('j', [{ b: [1, 2], a: 'x' }])]),
    { ...stringFlag('j', { value: { a: 'x', b: [1, 2] }, rules: [] }), type: 'json', default: { value: {} } },
  ],
  'f',
  ctx('u1'),
  ON,
);
add(
  'prerequisite: string value must equal exactly',
  [gated([req('s', ['Blue'])]), stringFlag('s', { value: 'blue', rules: [] })],
  'f',
  ctx('u1'),
  PREREQ_FAILED,
);
add(
  'prerequisite: number values compare numerically as JSON',
  [gated([req('n', [2.5])]), { ...stringFlag('n', { value: 2.5, rules: [] }), type: 'number', default: { value: 0 } }],
  'f',
  ctx('u1'),
  ON,
);
add(
  'prerequisite: fails on a flag without a default, declared default served',
  [gated([req('p', [true])], { default: null }), onOff('p', false)],
  'f',
  ctx('u1'),
  { value: 'app', resolved_by: 'default' },
  { declared: [{ key: 'f', type: 'string', value: 'app' }] },
);
add(
  'prerequisite: fails on a flag without a default -> unavailable',
  [gated([req('p', [true])], { default: null }), onOff('p', false)],
  'f',
  ctx('u1'),
  null,
);
{
  // f's rollout: the new target requires p, the previous one does not
  const inside = identifierWithBucket('f', 'user', 100);
  const outside = identifierWithBucket('f', 'user', 9000);
  const rolling = (pOn: boolean): Flag[] => [
    stringFlag(
      'f',
      { value: 'new', rules: [], prerequisites: [req('p', [true])] },
      { previous: { value: 'old', rules: [] }, rollout: { percentage: 50 } },
    ),
    onOff('p', pOn),
  ];
  add(`prerequisite in a rollout: inside (bucket 100), holds -> new`, rolling(true), 'f', ctx(inside), NEW);
  add(`prerequisite in a rollout: inside (bucket 100), fails -> default`, rolling(false), 'f', ctx(inside), PREREQ_FAILED);
  add(`prerequisite in a rollout: outside (bucket 9000), previous target has none -> old`, rolling(false), 'f', ctx(outside), OLD);
  // p's own rollout decides what p serves
  const pInside = identifierWithBucket('p', 'user', 100);
  const pOutside = identifierWithBucket('p', 'user', 9000);
  const pRolling: Flag[] = [
    gated([req('p', [true])]),
    boolFlag('p', { value: true, rules: [] }, { previous: { value: false, rules: [] }, rollout: { percentage: 50 } }),
  ];
  add(`prerequisite on a flag in a rollout: context inside its rollout (bucket 100 of p)`, pRolling, 'f', ctx(pInside), ON);
  add(`prerequisite on a flag in a rollout: context outside its rollout (bucket 9000 of p)`, pRolling, 'f', ctx(pOutside), PREREQ_FAILED);
}
add(
  'prerequisite: segment criteria of the required flag are evaluated for the context',
  [gated([req('p', [true])]), boolFlag('p', { value: false, rules: [{ value: true, criteria: [segCrit('in', ['staff'])] }] })],
  'f',
  ctx('u-staff'),
  ON,
  { segments: [{ key: 'staff', included: ['u-staff'], excluded: [], rules: [] }] },
);

// ---------------------------------------------------------------------------------------------

const description = [
  'Vexil evaluation test vectors, shared by the server and every SDK.',
  'Each vector: compile `config` (an EnvironmentConfig), evaluate `flag_key` for `context` (null = no context)',
  'with the request declarations `declared_defaults`; `expected` is {value, resolved_by} or null when the flag is unavailable.',
  'Bucketing: murmur3 x86 32-bit, seed 0, over the UTF-8 bytes of "flagKey/contextType/identifier"; bucket = hash mod 10000;',
  'inside a rollout of p percent when bucket < p*100; no context never inside. Rollout vector names state the bucket.',
  'Criteria: any-of over attribute values and criterion values; not* comparers are the negation of the positive form',
  '(an absent attribute or no context makes the positive form false, so the not* form matches); isnull = attribute absent',
  'or all its values empty strings. Ordering comparers are numeric only: a value is numeric when it matches',
  '-?[0-9]+(\\.[0-9]+)?([eE][+-]?[0-9]+)? and is finite. Selector context compares the identifier',
  '(equal/notequal/in/notin only) and, with sub_selector, requires that context type for every comparer (that requirement is',
  'not negated). Selector segment compares member segment keys (equal/notequal/in/notin only; sub_selector ignored). Any other comparer, unknown',
  'comparers and selectors, attribute criteria without sub_selector and segment criteria inside segment rules never match.',
  'semver_* compare SemVer 2.0.0 precedence (one leading lowercase v accepted, build metadata ignored); before/after compare RFC 3339',
  'date-times with an offset as instants; an attribute value that does not parse never matches, nor does a criterion value.',
  'matches: a regular expression (linear-time subset: no back-references or lookaround) found anywhere in a value unless anchored.',
  'Prerequisites of the chosen target are checked before its rules, in order: each named flag is evaluated for the same context',
  '(recursively, at most 32 deep; a flag already being evaluated in the chain fails); when one serves no listed value (compared as JSON),',
  'or is unavailable or missing, the flag serves its',
  'default value with resolved_by prerequisite (or, without one, a declared default as usual).',
  'Segment membership: identifier included -> member; else excluded -> not; else any segment rule (criteria AND-ed) matches;',
  'without a context only the rules apply. A rule with no criteria matches. The first occurrence of a duplicated flag key wins.',
  'A declared default is served (resolved_by default) only when the flag exists and has nothing to serve, and only',
  'the first declaration with the flag key and the flag type counts.',
  'Splits (a `split` on a rule or a target): the share with the lowest -ln(u)/weight wins, u = (murmur3 x86 32 of',
  '"flagKey/variant/bucketingValue", seed 0, + 0.5) / 2^32; weight 0 never wins; the bucketing value is the identifier, or the first',
  'value of the split attribute; without one (no context, attribute absent or empty) the rule or target value is served.',
  '`expected.split` {rule, variant, weight} is present exactly when a split chose the value.',
].join(' ');

const out = { description, vectors };
const file = fileURLToPath(new URL('../../../specs/evaluation-vectors.json', import.meta.url));
writeFileSync(file, JSON.stringify(out, null, 2) + '\n');
console.log(`${vectors.length} vectors written to ${file}`);
for (const [name, count] of categories) console.log(`  ${String(count).padStart(3)}  ${name}`);
