import { formatRange } from './format.ts';
import type { MethodPeriod, Readiness, Report } from './model.ts';

// What the table and HTML renderers share about the sections of the answer functions:
// titles, and the rows they lay out side by side (methods per period, thresholds per
// language). Nothing here adds figures up.

/** The methods of translation_methods in the order shown, with their column headings. */
export const METHOD_LABELS: Readonly<Record<string, string>> = {
  person: 'by people',
  automatic: 'automatic',
  upload: 'upload',
  repository: 'repository',
  propagated: 'propagated',
  replaced: 'search and replace',
};

export function answerTitles(report: Report): {
  newWork: string;
  contributors: string;
  waiting: string;
  approval: string;
  methods: string;
  readiness: string;
  quality: string;
} {
  const range = formatRange(report.window);
  const per = report.period;
  return {
    newWork: `New work: source strings added and removed per ${per}, ${range}`,
    contributors: `Contributors ranked by words translated, ${range}`,
    waiting: 'Review: strings waiting for approval',
    approval: `Review: time from translation to approval, ${range} (timed: approvals whose translation the change log holds)`,
    methods: `Translation method: words saved per ${per}, ${range}`,
    readiness:
      'Release readiness: translated words against 80, 90 and 95 %, at the net pace of the last 30 days',
    quality: `Quality: strings with failing checks at the end of each ${per}, ${range}`,
  };
}

/** One period's words per method, for the methods that occur at all (in METHOD_LABELS order). */
export interface MethodRow {
  period_start: string;
  words: Record<string, number>;
}

export function methodsByPeriod(rows: MethodPeriod[]): { methods: string[]; periods: MethodRow[] } {
  const present = new Set(rows.map((r) => r.method));
  const methods = [
    ...Object.keys(METHOD_LABELS).filter((m) => present.has(m)),
    ...[...present].filter((m) => !(m in METHOD_LABELS)).sort(),
  ];
  const periods = new Map<string, MethodRow>();
  for (const row of rows) {
    const period = periods.get(row.period_start) ?? { period_start: row.period_start, words: {} };
    period.words[row.method] = row.words_saved;
    periods.set(row.period_start, period);
  }
  return { methods, periods: [...periods.values()] };
}

/** A project and language with its rows of each threshold, in threshold order. */
export type ReadinessLine = Pick<
  Readiness,
  | 'project_slug'
  | 'language_code'
  | 'translated_words_percent'
  | 'words_per_day'
  | 'translations'
  | 'pace_translations'
  | 'pace_origin'
  | 'pace_known_from'
> & { thresholds: Readiness[] };

export function readinessByLanguage(rows: Readiness[]): ReadinessLine[] {
  const lines = new Map<string, ReadinessLine>();
  for (const row of rows) {
    const key = `${row.project_slug}\u0000${row.language_code}`;
    const line = lines.get(key) ?? {
      project_slug: row.project_slug,
      language_code: row.language_code,
      translated_words_percent: row.translated_words_percent,
      words_per_day: row.words_per_day,
      translations: row.translations,
      pace_translations: row.pace_translations,
      pace_origin: row.pace_origin,
      pace_known_from: row.pace_known_from,
      thresholds: [],
    };
    line.thresholds.push(row);
    lines.set(key, line);
  }
  return [...lines.values()];
}

/** The thresholds of release readiness, as the rows give them. */
export function readinessThresholds(rows: Readiness[]): number[] {
  return [...new Set(rows.map((r) => r.threshold))].sort((a, b) => a - b);
}

/** A line's row of one threshold (every line has one per threshold). */
export function thresholdOf(line: ReadinessLine, threshold: number): Readiness | undefined {
  return line.thresholds.find((t) => t.threshold === threshold);
}

/** `reached`, the projected day, or why there is none, as release_readiness words it. */
export function describeThreshold(row: Readiness | undefined): string {
  return row?.status ?? '';
}

/**
 * The pace of a readiness line: words a day, `estimated` where it reads estimated history,
 * and how many translations it covers where not all; `unknown` without history.
 */
export function describePace(line: ReadinessLine): string {
  if (line.words_per_day === null) return 'unknown';
  const parts = [line.words_per_day.toFixed(1)];
  if (line.pace_origin === 'estimated') parts.push('estimated');
  if (line.pace_translations < line.translations)
    parts.push(`(${line.pace_translations} of ${line.translations} translations)`);
  return parts.join(' ');
}

/** Hours as `5.2 h`, or `3.1 d` from two days on. */
export function formatHours(hours: number | null): string {
  if (hours === null) return '';
  return hours >= 48 ? `${(hours / 24).toFixed(1)} d` : `${hours.toFixed(1)} h`;
}
