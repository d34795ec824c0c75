import { BadRequestError, NotFoundError, OfrepError, InvalidQueryError, ValidationError, publicMessages } from '../../http/errors.js';
import { operationState } from '../../http/operation.js';
import type { PublicStage, PublicStageContext } from '../../http/openapi/router.js';
import { invalidDefaultsMessage, targetingKeyMissingMessage } from './inputs.js';

export const usageMessages = {
  malformedJson: 'Request body is not valid JSON.',
  invalidBody: 'Request body is invalid.',
  missingBody: 'A request body is required, e.g. {"context": {"targetingKey": "user-42"}} or {}.',
  invalidLastModified: 'flagConfigLastModified must be Unix seconds or a date-time.',
} as const;

const flagPathOperations = new Set(['getEvaluatedFlag', 'recordFlagUsage', 'evaluateFlag']);
const ofrepOperations = new Set(['ofrepEvaluateFlag', 'ofrepEvaluateFlags']);
/** The POST twins: context and default values in an EvaluationRequest body. */
const evaluationBodyOperations = new Set(['evaluateFlags', 'evaluateFlag', 'getPayloadForContext']);

function touches(error: ValidationError, member: string): boolean {
  return Object.keys(error.errors).some((field) => field === member || field.startsWith(`${member}.`));
}

function touchesContext(error: ValidationError): boolean {
  return touches(error, 'context');
}

/**
 * Public-API stage (after authentication, around validation and the handler): gives the
 * generic validation failures of these operations the shapes and messages specs/public.yaml
 * documents for them.
 * - Flag paths: a key that cannot name a flag is `404 Feature flag not found.`
 * - recordFlagUsage: body failures are 400 (not the management API's field-keyed 422).
 * - The evaluation twins: body failures are the 400s of the context and default-value headers.
 * - OFREP: failures use OFREP's error shapes and codes (PARSE_ERROR, INVALID_CONTEXT, FLAG_NOT_FOUND).
 */
export const publicErrorShaping: PublicStage = async (ctx, next) => {
  const shaping = shapingFor(operationState(ctx).operation?.operationId ?? '');
  return shaping ? shaping(ctx, next) : next();
};
// Only the operations above have documented shapes; the others skip this stage altogether.
publicErrorShaping.forOperation = (op) => shapingFor(op.operationId);

function shapingFor(operationId: string): PublicStage | undefined {
  if (!flagPathOperations.has(operationId) && !ofrepOperations.has(operationId) && !evaluationBodyOperations.has(operationId)) {
    return undefined;
  }
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      throw reshape(operationId, error, ctx);
    }
  };
}

function reshape(operationId: string, error: unknown, ctx: PublicStageContext): unknown {
  if (error instanceof OfrepError) return error;
  if (ofrepOperations.has(operationId)) {
    const key = operationId === 'ofrepEvaluateFlag' ? String(ctx.params?.key ?? '') : undefined;
    if (error instanceof NotFoundError && key !== undefined) {
      return new OfrepError(404, 'FLAG_NOT_FOUND', publicMessages.flagNotFound, key);
    }
    if (error instanceof BadRequestError) return new OfrepError(400, 'PARSE_ERROR', usageMessages.malformedJson, key);
    // The protocol's document makes these 400s: a bulk re-fetch's flagConfigLastModified that is
    // neither Unix seconds nor a date-time, and a single-flag request without a body.
    if (error instanceof InvalidQueryError) {
      return new OfrepError(400, 'PARSE_ERROR', usageMessages.invalidLastModified, key);
    }
    if (error instanceof ValidationError && operationState(ctx).body === undefined && key !== undefined && !ctx.request.length) {
      return new OfrepError(400, 'PARSE_ERROR', usageMessages.missingBody, key);
    }
    if (error instanceof ValidationError) {
      if (!touchesContext(error)) return new OfrepError(400, 'PARSE_ERROR', usageMessages.invalidBody, key);
      // The document's `not: {minProperties: 1, not: {required: [targetingKey]}}` (OfrepEvaluationContext)
      // failed: the context has members but no targetingKey. It is the only `not` of the context.
      const missingKey = error.errors.context?.some((m) => m.includes('must NOT be valid')) === true;
      return missingKey
        ? new OfrepError(400, 'TARGETING_KEY_MISSING', targetingKeyMissingMessage, key)
        : new OfrepError(400, 'INVALID_CONTEXT', publicMessages.invalidContext, key);
    }
    return error;
  }
  if (error instanceof NotFoundError) return new NotFoundError(publicMessages.flagNotFound);
  if (evaluationBodyOperations.has(operationId)) {
    // The handler's own 400s already carry the header operations' messages.
    const own =
      error instanceof BadRequestError && (error.message === publicMessages.invalidContext || error.message === invalidDefaultsMessage);
    if (error instanceof BadRequestError && !own) return new BadRequestError(usageMessages.malformedJson);
    if (error instanceof ValidationError) {
      // As with the headers, the context is checked first.
      if (touchesContext(error)) return new BadRequestError(publicMessages.invalidContext);
      if (touches(error, 'default_values')) return new BadRequestError(invalidDefaultsMessage);
      return new BadRequestError(usageMessages.invalidBody);
    }
  }
  if (operationId === 'recordFlagUsage') {
    if (error instanceof BadRequestError && error.message !== publicMessages.invalidContext) {
      return new BadRequestError(usageMessages.malformedJson);
    }
    if (error instanceof ValidationError) {
      return new BadRequestError(touchesContext(error) ? publicMessages.invalidContext : usageMessages.invalidBody);
    }
  }
  return error;
}
