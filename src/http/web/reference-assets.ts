/**
 * The Swagger UI files the API reference serves. The console's build copies them into
 * web/dist/docs and precompresses them there; without a build they are read from swagger-ui-dist.
 */
export const referenceAssets = ['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'favicon-32x32.png'] as const;
