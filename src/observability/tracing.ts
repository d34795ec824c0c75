import type { Logger } from 'pino';
import type { Tracing } from './tracing-hooks.js';
import type { TracingSettings } from './tracing-settings.js';

export type { Tracing } from './tracing-hooks.js';

/**
 * Loads the OpenTelemetry SDK only when trace export is on: without it no SDK module is loaded and
 * the request path has no tracing code at all (the app adds none of the hooks).
 */
export async function startTracing(settings: TracingSettings, logger: Logger): Promise<Tracing | undefined> {
  if (!settings.enabled) return undefined;
  const { createTracing } = await import('./tracing-sdk.js');
  return createTracing(settings, logger);
}
