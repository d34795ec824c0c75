import { builtDocumentsDir, type ApiName } from '../../http/openapi/document.js';
import { CompressedDocument } from '../../http/web/compressed-document.js';
import { prefersHtml, sendReferencePage } from '../../http/web/api-reference.js';
import type { OperationRequest } from '../../http/operation.js';
import type { FeatureDeps } from '../feature.js';

/**
 * A browser gets the human-readable reference; every other client the document as JSON, in the
 * build's gzip or brotli copy when it accepts one.
 */
function document(name: ApiName, body: unknown) {
  const served = new CompressedDocument(body, { dir: builtDocumentsDir(), name });
  return async (request: OperationRequest) => {
    if (prefersHtml(request.ctx)) sendReferencePage(request.ctx);
    else await served.send(request.ctx, { Vary: 'Accept' });
    return { streamed: true };
  };
}

/** The published descriptions, served as JSON exactly as written in specs/. */
export function createApiDocsFeature(deps: FeatureDeps) {
  return {
    publicHandlers: { getPublicApiDocs: document('public', deps.documents.public.original) },
    managementHandlers: { getManagementApiDocs: document('management', deps.documents.management.original) },
  };
}
