import type { FastReadRequest, OperationResult } from './operation.js';

/**
 * The handlers of the public reads answered in front of Koa (fast-public-reads.ts), typed for the
 * request that path makes; the evaluation feature hands them over with its handler map.
 */
export interface FastReadHandlers {
  listEvaluatedFlags(request: FastReadRequest): Promise<OperationResult>;
  getEvaluatedFlag(request: FastReadRequest<{ flagKey: string }>): Promise<OperationResult>;
  getPayload(request: FastReadRequest): Promise<OperationResult>;
  ofrepEvaluateFlags(request: FastReadRequest): Promise<OperationResult>;
}
