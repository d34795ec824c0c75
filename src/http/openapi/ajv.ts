import { Ajv, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS with a default export; under NodeNext the function sits one level down.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;

export type AjvInstance = Ajv;
export type { ErrorObject };

/** OpenAPI keywords Ajv does not know; declared so they are accepted as annotations. */
const openApiKeywords = ['example', 'xml', 'externalDocs', 'discriminator'];

export function createAjv(options: { coerce: boolean }): AjvInstance {
  const ajv = new Ajv({
    allErrors: true,
    strict: false,
    coerceTypes: options.coerce ? 'array' : false,
    useDefaults: options.coerce,
    allowUnionTypes: true,
  });
  addFormats(ajv);
  for (const keyword of openApiKeywords) if (!ajv.getKeyword(keyword)) ajv.addKeyword(keyword);
  return ajv;
}
