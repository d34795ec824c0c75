/** A reader of the Prometheus text exposition format (0.0.4), strict enough to catch malformed output. */

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  /** Metric family name -> type from its `# TYPE` line. */
  types: Map<string, string>;
  samples: Sample[];
}

const sampleLine = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$/;
const labelPair = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(,|$)/y;

function parseLabels(text: string): Record<string, string> {
  const labels: Record<string, string> = {};
  labelPair.lastIndex = 0;
  while (labelPair.lastIndex < text.length) {
    const match = labelPair.exec(text);
    if (!match) throw new Error(`malformed labels: {${text}}`);
    labels[match[1]!] = match[2]!.replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
  }
  return labels;
}

export function parseExposition(text: string): Exposition {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('# HELP ')) continue;
    if (line.startsWith('# TYPE ')) {
      const [name, type] = line.slice(7).split(' ');
      types.set(name!, type!);
      continue;
    }
    const match = sampleLine.exec(line);
    if (!match) throw new Error(`malformed sample line: ${line}`);
    const value = match[4] === '+Inf' ? Infinity : match[4] === '-Inf' ? -Infinity : Number(match[4]);
    // prom-client writes NaN as "Nan" (an event-loop histogram without samples yet); Prometheus
    // parses floats case-insensitively.
    if (Number.isNaN(value) && !/^nan$/i.test(match[4]!)) throw new Error(`malformed value: ${line}`);
    samples.push({ name: match[1]!, labels: match[3] ? parseLabels(match[3]) : {}, value });
  }
  return { types, samples };
}

/** The sum of the samples named `name` whose labels include `labels` (0 when there are none). */
export function sampleValue(exposition: Exposition, name: string, labels: Record<string, string> = {}): number {
  return exposition.samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

/** Whether any sample named `name` has these labels. */
export function hasSample(exposition: Exposition, name: string, labels: Record<string, string> = {}): boolean {
  return exposition.samples.some((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
}
