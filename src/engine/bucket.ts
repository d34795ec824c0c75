/**
 * Rollout bucketing (DESIGN.md section 4): murmur3 x86 32, seed 0, over the UTF-8 bytes of
 * `flagKey/contextType/identifier`; bucket = hash mod 10000; inside a rollout of p percent when
 * bucket < p * 100.
 */
import { murmur3 } from './murmur3.js';

export const BUCKET_COUNT = 10000;

/** Bucket 0..9999 of a context for a flag. */
export function bucketOf(flagKey: string, contextType: string, identifier: string): number {
  return murmur3(flagKey + '/' + contextType + '/' + identifier, 0) % BUCKET_COUNT;
}

/** Whether a bucket is inside a rollout of `percentage` percent. */
export function inRollout(bucket: number, percentage: number): boolean {
  return bucket < percentage * 100;
}
