/**
 * The SQL of splits (tables `splits` and `split_shares`, db/migrations/0014_splits.ts), shared
 * by the stores of rules and targets, whose rows own them.
 */
import type { Knex } from 'knex';
import type { Db } from '../../storage/db.js';
import type { SplitRecord } from './splits.js';

const CHUNK = 500;

/** The splits of these owners (rules or targets); owners without one are absent. */
export async function readSplits(db: Db, ownerUlids: readonly string[]): Promise<Map<string, SplitRecord>> {
  const out = new Map<string, SplitRecord>();
  for (let i = 0; i < ownerUlids.length; i += CHUNK) {
    const part = ownerUlids.slice(i, i + CHUNK);
    const heads = (await db('splits').whereIn('owner_ulid', part).select('owner_ulid', 'attribute')) as {
      owner_ulid: string;
      attribute: string | null;
    }[];
    if (heads.length === 0) continue;
    for (const h of heads) out.set(h.owner_ulid, { attribute: h.attribute ?? null, shares: [] });
    const shares = (await db('split_shares')
      .whereIn(
        'owner_ulid',
        heads.map((h) => h.owner_ulid),
      )
      .orderBy([
        { column: 'owner_ulid', order: 'asc' },
        { column: 'position', order: 'asc' },
      ])
      .select('owner_ulid', 'value_ulid', 'weight')) as { owner_ulid: string; value_ulid: string; weight: number | string }[];
    for (const s of shares) out.get(s.owner_ulid)?.shares.push({ value_ulid: s.value_ulid, weight: Number(s.weight) });
  }
  return out;
}

/** Removes the splits of these owners. */
export async function deleteSplits(db: Db, ownerUlids: readonly string[]): Promise<void> {
  for (let i = 0; i < ownerUlids.length; i += CHUNK) {
    const part = ownerUlids.slice(i, i + CHUNK);
    await db('split_shares').whereIn('owner_ulid', part).delete();
    await db('splits').whereIn('owner_ulid', part).delete();
  }
}

/** Replaces the owner's split (null: removes it). */
export async function writeSplit(db: Db, ownerUlid: string, split: SplitRecord | null): Promise<void> {
  await deleteSplits(db, [ownerUlid]);
  if (split === null) return;
  await db('splits').insert({ owner_ulid: ownerUlid, attribute: split.attribute });
  const rows = split.shares.map((s, position) => ({ owner_ulid: ownerUlid, position, value_ulid: s.value_ulid, weight: s.weight }));
  for (let i = 0; i < rows.length; i += 100) await db('split_shares').insert(rows.slice(i, i + 100));
}

/**
 * Removes the splits of the targets `targets` selects (a query of target ulids) and of their
 * rules: what deleting a flag, an environment or a project takes with it (the splits tables
 * have no foreign key to their owners).
 */
export async function deleteSplitsOfTargets(db: Db, targets: (db: Db) => Knex.QueryBuilder): Promise<void> {
  const rules = (d: Db) => d('rules').select('ulid').whereIn('target_ulid', targets(d));
  for (const owners of [targets, rules]) {
    await db('split_shares').whereIn('owner_ulid', owners(db)).delete();
    await db('splits').whereIn('owner_ulid', owners(db)).delete();
  }
}

/** Gives each new owner a copy of its old owner's split (`owners`: old ulid -> new ulid). */
export async function copySplits(db: Db, owners: ReadonlyMap<string, string>): Promise<void> {
  const splits = await readSplits(db, [...owners.keys()]);
  for (const [from, split] of splits) await writeSplit(db, owners.get(from) as string, split);
}
