/**
 * The handler maps typed from the operations openapi-typescript generates from the documents
 * (generated/). The composition root checks that the features together handle every operation
 * and nothing else (HandlersCover), so a missing handler or an extra key fails `make typecheck`
 * instead of answering 501 at run time. A controller whose map `satisfies
 * Partial<ManagementHandlers>` (or PublicHandlers) has each handler's body checked too: it must be
 * of a shape the operation's responses document.
 */
import type { operations as ManagementOperations } from '../../generated/management.js';
import type { operations as PublicOperations } from '../../generated/public.js';
import type { JsonText } from './json-text.js';
import type { OperationHandler, OperationResult } from './operation.js';

export type { ManagementOperations, PublicOperations };

type ResponsesOf<Op> = Op extends { responses: infer Responses } ? Responses : never;

/** The JSON body of a response; unknown when it has another content type too (text, HTML). */
type BodyOf<Response> = Response extends { content: infer Content }
  ? [Exclude<keyof Content, 'application/json'>] extends [never]
    ? Content extends { 'application/json': infer Json }
      ? Json
      : undefined
    : unknown
  : undefined;

/** The bodies of the responses an operation documents (a handler may answer 503 itself: /ready). */
type DocumentedBodyOf<Op> = { [Status in keyof ResponsesOf<Op>]: BodyOf<ResponsesOf<Op>[Status]> }[keyof ResponsesOf<Op>];

/**
 * What a handler of `Op` returns. A body may also be JSON text it wrote itself, checked by the
 * body the text encodes (JsonText), or JSON already serialised (bytes), which a handler keeps for
 * answers it sends many times (the server-key payload).
 */
export type ResultOf<Op> = Omit<OperationResult, 'body'> & {
  body?: DocumentedBodyOf<Op> | JsonText<DocumentedBodyOf<Op>> | Buffer;
};

/**
 * A handler of `Op`. The request's own type is the handler's to declare (ManagementRequest or
 * PublicRequest with the operation's parameters and body): the router passes the request it built
 * for the operation, so any parameter type is accepted here.
 */
export type HandlerOf<Op> = (request: never) => Promise<ResultOf<Op>>;

/** Handlers keyed by the document's operationIds, bodies unchecked (what a feature hands over). */
export type ManagementHandlerSet = Partial<Record<keyof ManagementOperations, OperationHandler>>;
export type PublicHandlerSet = Partial<Record<keyof PublicOperations, OperationHandler>>;

export type ManagementHandlers = { [Id in keyof ManagementOperations]: HandlerOf<ManagementOperations[Id]> };
export type PublicHandlers = { [Id in keyof PublicOperations]: HandlerOf<PublicOperations[Id]> };

/**
 * `true` when the operationIds `Provided` are exactly those `Expected`; otherwise a type naming
 * the missing and the extra ones, which `true` does not satisfy.
 */
export type HandlersCover<Provided, Expected> = [Exclude<Expected, Provided>, Exclude<Provided, Expected>] extends [never, never]
  ? true
  : { missing: Exclude<Expected, Provided>; extra: Exclude<Provided, Expected> };
