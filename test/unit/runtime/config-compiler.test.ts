import { describe, expect, it } from 'vitest';
import {
  changedFlagRevisions,
  compileFlags,
  compilePrerequisites,
  compileSegments,
  servingChoices,
  type ValueTable,
} from '../../../src/runtime/config-compiler.js';
import type { FlagRow, TargetRow } from '../../../src/runtime/config-store-types.js';

function target(ulid: string, published_at: string, rollout: Partial<TargetRow> = {}): TargetRow {
  return {
    ulid,
    flag_ulid: 'flg_1',
    value_ulid: 'val_on',
    status: 'published',
    published_at,
    rollout_percentage: null,
    rollout_status: null,
    ...rollout,
  };
}

const flag: FlagRow = { ulid: 'flg_1', key: 'checkout', name: 'Checkout', type: 'boolean', include_in_mobile: 1, include_in_client: '0' };

describe('servingChoices', () => {
  it('serves the newest publish, with the one before while a rollout runs (percentage kept in 1..100)', () => {
    const older = target('tgt_1', '2030-01-01T00:00:00.000Z');
    const newer = target('tgt_2', '2030-01-02T00:00:00.000Z', { rollout_status: 'paused', rollout_percentage: '250' });
    const choice = servingChoices([older, newer]).get('flg_1');
    expect(choice).toEqual({ serving: newer, previous: older, percentage: 100, previousToRead: false });
  });

  it('asks for the earlier target to be read when a rollout runs alone, and for none without a rollout', () => {
    const rolling = target('tgt_2', '2030-01-02T00:00:00.000Z', { rollout_status: 'active', rollout_percentage: 0 });
    expect(servingChoices([rolling]).get('flg_1')).toMatchObject({ previous: null, percentage: 1, previousToRead: true });
    const completed = target('tgt_3', '2030-01-02T00:00:00.000Z', { rollout_status: 'completed', rollout_percentage: 100 });
    expect(servingChoices([completed]).get('flg_1')).toMatchObject({ percentage: null, previousToRead: false });
  });

  it('breaks a tie of publish times by the newer ulid', () => {
    const at = '2030-01-01T00:00:00.000Z';
    expect(servingChoices([target('tgt_a', at), target('tgt_b', at)]).get('flg_1')?.serving.ulid).toBe('tgt_b');
  });
});

describe('compileFlags', () => {
  it('compiles the serving target, its rules by position and criteria, and leaves out rules of unreadable values', () => {
    const table: ValueTable = {
      values: new Map([
        ['val_on', true],
        ['val_off', false],
      ]),
      displays: new Map([
        ['val_on', 'true'],
        ['val_off', 'false'],
      ]),
      defaults: new Map([['flg_1', false]]),
    };
    const serving = target('tgt_1', '2030-01-01T00:00:00.000Z');
    const [compiled] = compileFlags([flag], {
      table,
      choices: servingChoices([serving]),
      ruleRows: [
        { ulid: 'rul_2', target_ulid: 'tgt_1', value_ulid: 'val_off', position: '1' },
        { ulid: 'rul_1', target_ulid: 'tgt_1', value_ulid: 'val_on', position: 0 },
        { ulid: 'rul_3', target_ulid: 'tgt_1', value_ulid: 'val_gone', position: 2 },
      ],
      criterionRows: [{ rule_ulid: 'rul_1', selector: 'user.id', sub_selector: null, comparer: 'IN', position: 0, values: '["a","b"]' }],
      splits: new Map(),
      prerequisites: new Map(),
    });
    expect(compiled).toEqual({
      key: 'checkout',
      name: 'Checkout',
      type: 'boolean',
      include_in_mobile: true,
      include_in_client: false,
      default: { value: false },
      serving: {
        value: true,
        rules: [
          { value: true, criteria: [{ selector: 'user.id', sub_selector: null, comparer: 'IN', values: ['a', 'b'] }] },
          { value: false, criteria: [] },
        ],
      },
      previous: null,
      rollout: null,
    });
  });
});

describe('compilePrerequisites', () => {
  it('lists each target’s prerequisites by position with the values that still parse', () => {
    const rows = [
      { target_ulid: 'tgt_1', position: 1, key: 'second', type: 'string' as const, value_ulids: '["val_s"]' },
      { target_ulid: 'tgt_1', position: 0, key: 'first', type: 'json' as const, value_ulids: '["val_t","val_bad","val_missing"]' },
    ];
    const displays = new Map([
      ['val_s', 'blue'],
      ['val_t', '{"a":1}'],
      ['val_bad', '{not json'],
    ]);
    expect(compilePrerequisites(rows, displays).get('tgt_1')).toEqual([
      { flag_key: 'first', values: [{ a: 1 }] },
      { flag_key: 'second', values: ['blue'] },
    ]);
  });
});

describe('compileSegments', () => {
  it('orders segments by key and keeps only well-formed criteria', () => {
    const segments = compileSegments([
      {
        ulid: 'seg_2',
        key: 'vip',
        included: '["u1"]',
        excluded: 'not json',
        rules: '[{"criteria":[{"selector":"user.id","comparer":"IN","values":["x",1]},{"selector":3}]}]',
      },
      { ulid: 'seg_1', key: 'beta', included: '', excluded: '[]', rules: '[]' },
    ]);
    expect(segments).toEqual([
      { key: 'beta', included: [], excluded: [], rules: [] },
      {
        key: 'vip',
        included: ['u1'],
        excluded: [],
        rules: [{ criteria: [{ selector: 'user.id', sub_selector: null, comparer: 'IN', values: ['x'] }] }],
      },
    ]);
  });
});

describe('changedFlagRevisions', () => {
  it('gives each changed flag its newest revision in the range', () => {
    const rows = [
      { revision: 4, flag_ulid: 'flg_a' },
      { revision: '5', flag_ulid: 'flg_b' },
      { revision: 6, flag_ulid: 'flg_a' },
    ];
    expect(changedFlagRevisions(rows, 3, 6)).toEqual(
      new Map([
        ['flg_a', 6],
        ['flg_b', 5],
      ]),
    );
  });

  it('asks for a full reload when a revision of the range has no row or a change concerns more than flags', () => {
    expect(changedFlagRevisions([{ revision: 5, flag_ulid: 'flg_a' }], 3, 5)).toBeUndefined();
    expect(changedFlagRevisions([{ revision: 4, flag_ulid: null }], 3, 4)).toBeUndefined();
  });
});
