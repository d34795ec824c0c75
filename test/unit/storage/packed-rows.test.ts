import { describe, expect, it } from 'vitest';
import { unpackRows, type PackedRows } from '../../../src/storage/packed-rows.js';

describe('packed rows', () => {
  it('unpacks row after row: its own values, then those of the shared part it points at', () => {
    const packed: PackedRows = {
      shared: [
        ['GET', '/v1/flags/a', 200],
        ['GET', '/v1/flags/b', 404],
      ],
      own: 2,
      cells: [0, 'u1', 1, 1, 'u2', 1, 0, 'u3', 5],
    };
    expect(unpackRows(packed)).toEqual([
      ...['u1', 1, 'GET', '/v1/flags/a', 200],
      ...['u2', 1, 'GET', '/v1/flags/b', 404],
      ...['u3', 5, 'GET', '/v1/flags/a', 200],
    ]);
  });

  it('runs from its own source text, as the SQLite worker thread runs it', () => {
    // The worker evaluates the function's source: it must use nothing outside itself.
    const copy = new Function(`return (${unpackRows.toString()})`)() as typeof unpackRows;
    const packed: PackedRows = { shared: [[null, 'x']], own: 1, cells: [0, 'a', 0, 'b'] };
    expect(copy(packed)).toEqual(['a', null, 'x', 'b', null, 'x']);
    expect(unpackRows({ shared: [], own: 3, cells: [] })).toEqual([]);
  });
});
