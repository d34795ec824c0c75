/**
 * Checked by `make typecheck` (tsconfig.test.json), never run: each `@ts-expect-error` below must
 * meet an error, so the handler-map types of src/http/handler-map.ts must keep refusing a missing
 * handler, an extra one and a body of the wrong shape, and keep accepting a right one.
 */
import type { components } from '../../generated/management.js';
import type { EveryOperationHandled } from '../../src/composition-root.js';
import type { HandlersCover, ManagementHandlers, ManagementOperations } from '../../src/http/handler-map.js';
import type { ManagementRequest } from '../../src/http/operation.js';

type Holds<Check extends true> = Check;
type AllOperations = keyof ManagementOperations;

// The composition root's own check holds today.
export const composed: EveryOperationHandled = [true, true];

// Every operation handled, nothing more: accepted.
export type Complete = Holds<HandlersCover<AllOperations, AllOperations>>;

// One handler removed (listProjects): refused.
// @ts-expect-error the missing handler fails the check
export type OneMissing = Holds<HandlersCover<Exclude<AllOperations, 'listProjects'>, AllOperations>>;

// A handler for an operation the document does not have: refused.
// @ts-expect-error the extra handler fails the check
export type OneExtra = Holds<HandlersCover<AllOperations | 'listProjectz', AllOperations>>;

type Project = components['schemas']['ProjectResponse']['data'];
declare const project: Project;

// A body of the documented shape: accepted.
export const right: Pick<ManagementHandlers, 'getProject'> = {
  getProject: async (_request: ManagementRequest<{ projectKey: string }>) => ({ body: { status: 'success' as const, data: project } }),
};

export const wrong: Pick<ManagementHandlers, 'getProject'> = {
  // @ts-expect-error a body of another shape (the project without its envelope) fails
  getProject: async (_request: ManagementRequest<{ projectKey: string }>) => ({ body: project }),
};
