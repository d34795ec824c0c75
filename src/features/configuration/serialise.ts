import YAML from 'yaml';

export type ConfigurationFormat = 'yaml' | 'json';

/**
 * The document as file text. Both forms are stable for the same input: keys keep the order the
 * export builds them in, and YAML lines are never folded.
 */
export function serialiseConfiguration(document: unknown, format: ConfigurationFormat): string {
  if (format === 'json') return JSON.stringify(document, null, 2) + '\n';
  return YAML.stringify(document, { lineWidth: 0, minContentWidth: 0 });
}

export const configurationContentTypes: Record<ConfigurationFormat, string> = {
  yaml: 'application/yaml; charset=utf-8',
  json: 'application/json; charset=utf-8',
};

/** `format` wins; otherwise YAML only when the client asks for it. */
export function chooseFormat(format: string | undefined, accept: string | undefined): ConfigurationFormat {
  if (format === 'yaml' || format === 'json') return format;
  return /\b(application|text)\/(x-)?yaml\b/i.test(accept ?? '') ? 'yaml' : 'json';
}
