import type { Db } from '../../storage/db.js';

/** A rule of a target as the management preview names it. */
export interface RuleDescription {
  ulid: string;
  description: string;
}

/** What the management preview reads to name the target and rules the engine's explanation points at. */
export interface ExplanationStore {
  /** The ulids of the flag's published targets in the environment, newest publish first, at most `limit`. */
  publishedTargetUlids(db: Db, flagUlid: string, environmentUlid: string, limit: number): Promise<string[]>;
  /** The target's rules by position. */
  ruleDescriptions(db: Db, targetUlid: string): Promise<RuleDescription[]>;
}
