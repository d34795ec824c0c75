import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { settingsReference } from '../../src/config-reference.js';

/** With trace export on, so that the tracing settings are read too. */
const tracingOn = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel-collector:4318' };

/** The names loadConfig reads from an environment. */
function namesRead(env: Record<string, string>): Set<string> {
  const read = new Set<string>();
  loadConfig(
    new Proxy(env, {
      get(target, name) {
        if (typeof name === 'string') read.add(name);
        return target[name as string];
      },
    }),
  );
  return read;
}

describe('the configuration reference (src/config-reference.ts, docs/configuration.md)', () => {
  it('names every variable loadConfig reads, and nothing else', () => {
    const read = namesRead(tracingOn);
    const documented = settingsReference.map((s) => s.name);
    expect(new Set(documented).size).toBe(documented.length);
    expect([...read].sort()).toEqual([...documented].sort());
  });

  const withDefaults = settingsReference.filter((s) => s.default !== null && !s.default.includes('<'));
  it.each(withDefaults)('states the default of $name as loadConfig applies it', (setting) => {
    const base = setting.group === 'tracing' ? tracingOn : {};
    expect(loadConfig({ ...base, [setting.name]: setting.default! })).toEqual(loadConfig(base));
  });

  it('states defaults that differ from another value (the check above can fail)', () => {
    expect(loadConfig({ PORT: '8081' })).not.toEqual(loadConfig({}));
  });
});
