import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { type Dialect, hasRowLocks } from '../storage/database.js';
import { decodeSketch, encodeSketch, mergeSketch } from './distinct-sketch.js';
import type { ExposureSketch } from './exposure-buffer.js';

/** Writes drained exposure sketches (table split_exposures). */
export interface ExposureStore {
  /** Merges the sketches into the stored ones; returns those that could not be written. */
  write(sketches: readonly ExposureSketch[], now: string): Promise<ExposureSketch[]>;
}

export function variantDigest(variant: string): string {
  return createHash('sha256').update(variant).digest('hex');
}

export class KnexExposureStore implements ExposureStore {
  constructor(
    private readonly knex: Knex,
    private readonly dialect: Dialect,
  ) {}

  async write(sketches: readonly ExposureSketch[], now: string): Promise<ExposureSketch[]> {
    const failed: ExposureSketch[] = [];
    for (const sketch of sketches) {
      try {
        await this.knex.transaction((trx) => this.merge(trx, sketch, now));
      } catch {
        // A flag or environment deleted meanwhile, or a busy database: kept for the next flush
        // (the buffer's bound drops what cannot be kept).
        failed.push(sketch);
      }
    }
    return failed;
  }

  /** Read-merge-write under the row's lock: instances flushing at once each add their registers. */
  private async merge(trx: Knex.Transaction, sketch: ExposureSketch, now: string): Promise<void> {
    const key = {
      environment_ulid: sketch.environmentUlid,
      flag_ulid: sketch.flagUlid,
      day: sketch.day,
      variant_digest: variantDigest(sketch.variant),
    };
    await trx('split_exposures')
      .insert({ ...key, variant: sketch.variant, registers: encodeSketch(sketch.registers), updated_at: now })
      .onConflict(['environment_ulid', 'flag_ulid', 'day', 'variant_digest'])
      .ignore();
    const query = trx('split_exposures').where(key).first('registers');
    if (hasRowLocks(this.dialect)) query.forUpdate();
    const row = (await query) as { registers: string } | undefined;
    if (!row) return;
    const merged = decodeSketch(row.registers);
    mergeSketch(merged, sketch.registers);
    const text = encodeSketch(merged);
    if (text !== row.registers) await trx('split_exposures').where(key).update({ registers: text, updated_at: now });
  }
}
