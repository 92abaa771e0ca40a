// A labelled histogram for series that come and go with objects (one per host), exposed exactly
// as prom-client's Histogram exposes it. prom-client copies an object keyed by the bucket bounds
// for every label set; with integer bounds such as BMO's slow-operation buckets (30 … 1440 s) V8
// backs each copy with an array as long as the largest bound, ~17 KiB a series, ~34 KiB a
// provisioned host (test/bench/README.md). Here a series is its labels, one count per bucket, a
// sum and a count. Scraped over HTTP, its text is written in chunks (`exposition`), not built
// from an object per line: at 10,000 hosts that was 25 MB of text and ~80 MiB of RSS a scrape.
import type { Metric, Registry } from 'prom-client';

export interface CompactHistogramOptions<L extends string> {
  name: string;
  help: string;
  labelNames: readonly L[];
  /** Upper bounds, ascending; `+Inf` is implied. */
  buckets: readonly number[];
  registers: readonly Registry[];
}

/** One line of the exposition: prom-client's registry puts `sharedLabels` after `labels`. */
export interface ExposedValue {
  labels: Record<string, string | number>;
  sharedLabels: Record<string, string>;
  value: number;
  metricName: string;
}

interface Series<L extends string> {
  labels: Record<L, string>;
  /** Observations per bucket (not cumulative). */
  counts: number[];
  sum: number;
  count: number;
}

export class CompactHistogram<L extends string> {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly name: string;
  readonly help: string;
  readonly #labelNames: readonly L[];
  readonly #bounds: readonly number[];
  readonly #series = new Map<string, Series<L>>();

  constructor(options: CompactHistogramOptions<L>) {
    const ascending = options.buckets.every((bound, i) => Number.isFinite(bound) && (i === 0 || bound > options.buckets[i - 1]!));
    if (!ascending || options.buckets.length === 0) throw new RangeError(`${options.name}: buckets must be finite and ascending, got ${options.buckets.join(', ')}`);
    this.name = options.name;
    this.help = options.help;
    this.#labelNames = options.labelNames;
    this.#bounds = options.buckets;
    // The registry only calls get() and reset(); its Metric type names prom-client's own classes.
    for (const registry of options.registers) registry.registerMetric(this as unknown as Metric);
  }

  observe(labels: Record<L, string>, value: number): void {
    const key = this.#key(labels);
    let series = this.#series.get(key);
    if (series === undefined) {
      series = { labels: this.#ownLabels(labels), counts: this.#bounds.map(() => 0), sum: 0, count: 0 };
      this.#series.set(key, series);
    }
    const bucket = this.#bounds.findIndex((bound) => value <= bound);
    if (bucket >= 0) series.counts[bucket]! += 1;
    series.sum += value;
    series.count += 1;
  }

  /** Drops one series (its object is gone). */
  remove(labels: Record<L, string>): void {
    this.#series.delete(this.#key(labels));
  }

  /** How many series are kept. */
  get size(): number {
    return this.#series.size;
  }

  reset(): void {
    this.#series.clear();
  }

  /** The values prom-client's registry formats, in the order and shape its Histogram gives them. */
  get(): { name: string; help: string; type: 'histogram'; aggregator: 'sum'; values: ExposedValue[] } {
    const values: ExposedValue[] = [];
    for (const series of this.#series.values()) {
      let cumulative = 0;
      this.#bounds.forEach((bound, i) => {
        cumulative += series.counts[i]!;
        values.push({ labels: { le: bound }, sharedLabels: series.labels, value: cumulative, metricName: `${this.name}_bucket` });
      });
      values.push({ labels: { le: '+Inf' }, sharedLabels: series.labels, value: series.count, metricName: `${this.name}_bucket` });
      values.push({ labels: {}, sharedLabels: series.labels, value: series.sum, metricName: `${this.name}_sum` });
      values.push({ labels: {}, sharedLabels: series.labels, value: series.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  /**
   * The same text prom-client's registry makes of `get()`, in chunks of at most `seriesPerChunk`
   * series, so a scrape holds one chunk at a time.
   */
  *exposition(options: { seriesPerChunk?: number } = {}): Generator<string> {
    const seriesPerChunk = options.seriesPerChunk ?? 250;
    const bucketNames = this.#bounds.map((bound) => `${this.name}_bucket{le="${bound}"`);
    let chunk = `# HELP ${escapeText(this.name)} ${escapeText(this.help)}\n# TYPE ${escapeText(this.name)} ${this.type}`;
    let inChunk = 0;
    for (const series of this.#series.values()) {
      const labels = this.#labelNames.map((name) => `${name}="${escapeLabelValue(series.labels[name])}"`).join(',');
      const afterLe = labels ? `,${labels}}` : '}';
      const braced = labels ? `{${labels}}` : '';
      let cumulative = 0;
      series.counts.forEach((count, i) => {
        cumulative += count;
        chunk += `\n${bucketNames[i]}${afterLe} ${cumulative}`;
      });
      chunk += `\n${this.name}_bucket{le="+Inf"${afterLe} ${series.count}`;
      chunk += `\n${this.name}_sum${braced} ${valueText(series.sum)}`;
      chunk += `\n${this.name}_count${braced} ${series.count}`;
      if (++inChunk >= seriesPerChunk) {
        yield chunk;
        chunk = '';
        inChunk = 0;
      }
    }
    if (chunk) yield chunk;
  }

  #key(labels: Record<L, string>): string {
    return this.#labelNames.map((name) => labels[name]).join('\u0000');
  }

  #ownLabels(labels: Record<L, string>): Record<L, string> {
    return Object.fromEntries(this.#labelNames.map((name) => [name, labels[name]])) as Record<L, string>;
  }
}

/** As prom-client escapes HELP text and names. */
const escapeText = (text: string): string => text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
/** As prom-client escapes label values. */
const escapeLabelValue = (value: string): string => escapeText(value).replace(/"/g, '\\"');
/** As prom-client writes a value. */
function valueText(value: number): string {
  if (Number.isNaN(value)) return 'Nan';
  if (!Number.isFinite(value)) return value < 0 ? '-Inf' : '+Inf';
  return `${value}`;
}
