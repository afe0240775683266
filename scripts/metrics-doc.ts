import { DIMENSIONS, type Metric, METRICS } from '../src/metrics/lookup.ts';

// docs/metrics.md, written from the metric catalogue (src/metrics/catalogue.ts):
// test/report/metric-catalogue.test.ts checks that the file is what this gives.

export const METRICS_DOC_COMMAND = 'npm run docs:metrics';

const HISTORY_TEXT: Readonly<Record<Metric['history'], string>> = {
  now: 'now',
  'progress history': 'progress history (measured, and estimated before the first snapshot)',
  'measured history': 'measured snapshots only',
  'change log': 'change log',
  runs: "the mirror's run records",
};

/** A Markdown table cell: one line, pipes escaped. */
function cell(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();
}

function metricSection(m: Metric): string {
  const lines = [
    `### ${m.name}`,
    '',
    m.definition,
    '',
    `- **Heading:** ${m.heading}`,
    `- **Unit:** ${m.unit}`,
    `- **Grain:** ${m.grain}`,
    `- **History:** ${HISTORY_TEXT[m.history]}`,
    ...(m.seam === undefined ? [] : [`- **Estimated part:** ${m.seam}`]),
    `- **Computed by:** ${m.source}`,
    ...(m.aliases === undefined ? [] : [`- **Also named:** ${m.aliases.join('; ')}`]),
    ...(m.note === undefined ? [] : [`- **Beside close figures:** ${m.note}`]),
    ...(m.blindSpots === undefined ? [] : [`- **What it cannot know:** ${m.blindSpots}`]),
  ];
  return lines.join('\n');
}

/** The whole of docs/metrics.md. */
export function metricsDoc(): string {
  const index = [
    '| metric | heading | unit | history |',
    '| ------ | ------- | ---- | ------- |',
    ...METRICS.map(
      (m) =>
        `| [${m.name}](#${m.name}) | ${cell(m.heading)} | ${m.unit} | ${HISTORY_TEXT[m.history]} |`,
    ),
  ];
  const dimensions = [
    '| name | heading | meaning |',
    '| ---- | ------- | ------- |',
    ...DIMENSIONS.map((d) => `| ${d.name} | ${cell(d.heading)} | ${cell(d.meaning)} |`),
  ];
  return [
    '# Metrics',
    '',
    `<!-- Written by \`${METRICS_DOC_COMMAND}\` from src/metrics/catalogue.ts; do not edit. -->`,
    '',
    "Every figure that weblate-mirror shows (the report as tables, JSON, CSV and HTML, the Grafana dashboard, the example queries of README and docs/schema.md, the worker's `/healthz` and `/metrics`) is one of the metrics below. A metric's name is its key in JSON and CSV and, where it has one, the column of the SQL object that computes it; its heading is the column heading of the text and HTML tables. Two different figures never share a name or a heading. Where two are close, the entry says how they differ.",
    '',
    "**History.** `now` reads the mirror's current state. The _progress history_ is the one history that pace, forecasts, release readiness, movers, charts and stalled translations read (`weblate.translation_progress_spans`): measured statistics snapshots from the first sync on, and before each translation's first snapshot the estimate from the change log ([history.md](history.md)); where a figure reads an estimated day it says so. The _change log_ is Weblate's changes as the mirror keeps them, deleted objects' included.",
    '',
    ...index,
    '',
    '## Metrics',
    '',
    METRICS.map(metricSection).join('\n\n'),
    '',
    '## Dimensions',
    '',
    'What a row is about, in JSON, CSV and the tables: identifiers and labels, not figures.',
    '',
    ...dimensions,
    '',
  ].join('\n');
}
