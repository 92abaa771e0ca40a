import { parsePrometheusText } from './prometheus-text.ts';
import type { Sample } from './prometheus-text.ts';

export async function scrapeMetrics(url: string): Promise<Sample[]> {
  const response = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  if (!response.ok) throw new Error(`GET ${url} -> ${response.status}`);
  return parsePrometheusText(await response.text());
}
