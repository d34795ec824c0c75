/**
 * Rollout bucketing: murmur3 x86 32, seed 0, over the UTF-8 bytes of
 * `flagKey/contextType/identifier`; bucket = hash mod 10000; inside a rollout of p percent when
 * bucket < p * 100.
 */
import { murmur3, murmur3ExtendInto, murmur3Last, type Murmur3Scratch, type Murmur3State } from './murmur3.js';

export const BUCKET_COUNT = 10000;

/** Bucket 0..9999 of a context for a flag. */
export function bucketOf(flagKey: string, contextType: string, identifier: string): number {
  return murmur3(flagKey + '/' + contextType + '/' + identifier, 0) % BUCKET_COUNT;
}

/** Whether a bucket is inside a rollout of `percentage` percent. */
export function inRollout(bucket: number, percentage: number): boolean {
  return bucket < percentage * 100;
}

/**
 * The hash state after `flagKey/contextType/` for the context type last bucketed with a flag.
 * Contexts of one type dominate most traffic, so the hash then only streams the identifier.
 * A pure function of (flag key, type): sharing it between snapshots is safe.
 */
export interface BucketTypeCache extends Murmur3Scratch {
  type: string | null;
}

export function newBucketTypeCache(): BucketTypeCache {
  return { h: 0, pending: 0, bits: 0, length: 0, type: null };
}

/**
 * bucketOf(flagKey, contextType, identifier) where `keyState` = murmur3Prefix(`${flagKey}/`) and
 * `cache` belongs to that flag (updated when the context type differs from the cached one).
 */
export function contextBucket(keyState: Murmur3State, cache: BucketTypeCache, contextType: string, identifier: string): number {
  if (cache.type !== contextType) {
    murmur3ExtendInto(keyState, contextType, '/', cache);
    cache.type = contextType;
  }
  return murmur3Last(cache, identifier) % BUCKET_COUNT;
}
