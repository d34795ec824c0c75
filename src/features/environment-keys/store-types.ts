import type { Knex } from 'knex';
import type { EnvironmentKeyKind } from '../../auth/principal.js';
import type { Db } from '../../storage/db.js';

/** An environment key as the API lists it: never the secret nor its digest. */
export interface EnvironmentKey {
  ulid: string;
  kind: EnvironmentKeyKind;
  name: string;
  masked_key: string;
  created_at: string;
  revoked_at: string | null;
}

export interface EnvironmentKeyRecord extends EnvironmentKey {
  environment_ulid: string;
  /** SHA-256 hex digest of the secret. */
  digest: string;
  updated_at: string;
}

export interface EnvironmentKeyStore {
  listForEnvironment(db: Db, environmentUlid: string): Promise<EnvironmentKey[]>;
  find(db: Db, environmentUlid: string, ulid: string): Promise<EnvironmentKey | undefined>;
  insert(trx: Knex.Transaction, record: EnvironmentKeyRecord): Promise<void>;
  /**
   * Sets revoked_at and updated_at unless already revoked; false when nothing changed. The
   * changed updated_at is what the key caches of every instance notice.
   */
  revoke(trx: Knex.Transaction, ulid: string, now: string): Promise<boolean>;
}
