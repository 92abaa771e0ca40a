// Parses Prometheus' text exposition format (what /metrics serves) into plain samples.

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;

function unescape(value: string): string {
  return value.replace(/\\(["\\n])/g, (_, char: string) => (char === 'n' ? '\n' : char));
}

function parseLabels(text: string): Record<string, string> {
  const labels: Record<string, string> = {};
  const label = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*,?\s*/y;
  for (let match = label.exec(text); match !== null; match = label.exec(text)) {
    labels[match[1] as string] = unescape(match[2] as string);
  }
  return labels;
}

function parseValue(text: string): number {
  if (text === '+Inf') return Number.POSITIVE_INFINITY;
  if (text === '-Inf') return Number.NEGATIVE_INFINITY;
  return Number(text);
}

export function parsePrometheusText(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const match = SAMPLE.exec(line);
    if (!match) continue;
    samples.push({ name: match[1] as string, labels: parseLabels(match[2] ?? ''), value: parseValue(match[3] as string) });
  }
  return samples;
}
