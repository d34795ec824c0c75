import { prefersHtml, sendReferencePage } from '../../http/web/api-reference.js';
import type { OperationRequest } from '../../http/operation.js';
import type { FeatureDeps } from '../feature.js';

/** A browser gets the human-readable reference; every other client the document as JSON. */
function document(body: unknown) {
  return async (request: OperationRequest) => {
    if (!prefersHtml(request.ctx)) return { body, headers: { Vary: 'Accept' } };
    sendReferencePage(request.ctx);
    return { streamed: true };
  };
}

/** The published descriptions, served as JSON exactly as written in specs/. */
export function createApiDocsFeature(deps: FeatureDeps) {
  return {
    publicHandlers: { getPublicApiDocs: document(deps.documents.public.original) },
    managementHandlers: { getManagementApiDocs: document(deps.documents.management.original) },
  };
}
