import { choiceSetting, integerSetting, SettingError } from '../settings.js';

const samplers = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;

/**
 * Trace export, from the standard OpenTelemetry settings: on when OTEL_EXPORTER_OTLP_ENDPOINT
 * (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set, unless OTEL_SDK_DISABLED=true or
 * OTEL_TRACES_EXPORTER=none. The exporter reads the endpoint and OTEL_EXPORTER_OTLP_HEADERS itself.
 */
export interface TracingSettings {
  enabled: boolean;
  protocol: 'http/protobuf' | 'http/json';
  sampler: (typeof samplers)[number];
  /** Ratio for the traceidratio samplers (OTEL_TRACES_SAMPLER_ARG), 0 to 1. */
  samplerRatio: number;
  /** Longest wait before finished spans are sent (OTEL_BSP_SCHEDULE_DELAY). */
  exportDelayMs: number;
}

export function tracingSettings(env: NodeJS.ProcessEnv): TracingSettings {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  const disabled = env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true' || env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === 'none';
  const off: TracingSettings = {
    enabled: false,
    protocol: 'http/protobuf',
    sampler: 'parentbased_always_on',
    samplerRatio: 1,
    exportDelayMs: 5000,
  };
  // Other programs' OTEL_* settings on the machine must not stop Vexil while it does not trace.
  if (!endpoint || disabled) return off;
  const protocols = ['http/protobuf', 'http/json'] as const;
  const protocol = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL
    ? choiceSetting(env, 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', protocols, 'http/protobuf')
    : choiceSetting(env, 'OTEL_EXPORTER_OTLP_PROTOCOL', protocols, 'http/protobuf');
  const ratioText = env.OTEL_TRACES_SAMPLER_ARG?.trim();
  const ratio = ratioText ? Number(ratioText) : 1;
  if (!(ratio >= 0 && ratio <= 1)) throw new SettingError(`OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1, got "${ratioText}"`);
  return {
    enabled: true,
    protocol,
    sampler: choiceSetting(env, 'OTEL_TRACES_SAMPLER', samplers, 'parentbased_always_on'),
    samplerRatio: ratio,
    exportDelayMs: integerSetting(env, 'OTEL_BSP_SCHEDULE_DELAY', 5000, { min: 1 }),
  };
}
