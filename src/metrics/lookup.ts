import { type Dimension, type Metric, METRIC_CATALOGUE } from './catalogue.ts';

export type { Dimension, History, Metric, Unit } from './catalogue.ts';

// The metric catalogue: every figure a surface shows (the report in its four formats, the
// Grafana panels, the example queries, /healthz and /metrics) is one named metric, defined
// once (catalogue.ts). Its name is its key in JSON and CSV, its heading the column
// heading of the text and HTML tables; docs/metrics.md is written from it
// (`npm run docs:metrics`), and test/report/metric-catalogue.test.ts walks the surfaces.

const BY_NAME = new Map(METRIC_CATALOGUE.metrics.map((m) => [m.name, m]));

export const METRICS: readonly Metric[] = METRIC_CATALOGUE.metrics;
export const DIMENSIONS: readonly Dimension[] = METRIC_CATALOGUE.dimensions;

/** The metric of this name; an unknown name is a programming error. */
export function metric(name: string): Metric {
  const found = BY_NAME.get(name);
  if (found === undefined) throw new Error(`no metric ${name} in the catalogue`);
  return found;
}

/** The heading of a metric's column. */
export function headingOf(name: string): string {
  return metric(name).heading;
}
