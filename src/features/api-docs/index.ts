import type { FeatureDeps, FeatureParts } from '../feature.js';

/** The published descriptions, served as JSON exactly as written in specs/. */
export function createApiDocsFeature(deps: FeatureDeps): FeatureParts {
  return {
    publicHandlers: {
      getPublicApiDocs: async () => ({ body: deps.documents.public.original }),
    },
    managementHandlers: {
      getManagementApiDocs: async () => ({ body: deps.documents.management.original }),
    },
  };
}
