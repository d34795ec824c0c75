import { monotonicFactory } from 'ulid';
import { pooledRandom } from './random-pool.js';

/** Kind prefixes of every identifier Vexil issues (the `ulid` patterns of specs/). */
export const idPrefixes = {
  project: 'prj_',
  environment: 'env_',
  flag: 'flg_',
  flagValue: 'val_',
  target: 'tgt_',
  rule: 'rul_',
  criterion: 'crt_',
  auditEntry: 'aud_',
  account: 'usr_',
  managementToken: 'mgt_',
  segment: 'seg_',
  environmentKey: 'key_',
  personalAccessToken: 'tok_',
  webhook: 'whk_',
  webhookEvent: 'whe_',
  consoleSession: 'ses_',
  auditRequest: 'req_',
} as const;

export type IdKind = keyof typeof idPrefixes;

// Monotonic so that ulid order is creation order within a process, which keyset pagination relies on.
const nextUlid = monotonicFactory(pooledRandom);

export function newId(kind: IdKind, now: number = Date.now()): string {
  return idPrefixes[kind] + nextUlid(now);
}
