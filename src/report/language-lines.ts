import type { LanguageDay, Report } from './model.ts';

/** One drawn day of a language's line. */
export interface LinePoint {
  day: string;
  value: number;
  estimated: boolean;
}

/** A language's line: runs of days over one set of translations each. */
export interface LanguageLine {
  code: string;
  /** The language's name, or its code when it has none. */
  label: string;
  /** A new run starts where the number of translations behind the line changed. */
  runs: LinePoint[][];
  /** Estimated days before every translation of the language appears in the change log. */
  leftOut: number;
}

/**
 * Estimated days from which the language has the translations of its last estimated day.
 * An estimate starts with its component's first logged change (docs/history.md), so before
 * that the language's sum misses translations that existed: such days are not comparable
 * with the rest, and the line would move only because translations joined it.
 */
function settledFrom(days: LanguageDay[]): number {
  const lastEstimated = days.findLastIndex((d) => d.origin === 'estimated');
  if (lastEstimated === -1) return 0;
  const settled = days[lastEstimated]!.translations;
  let from = lastEstimated;
  while (from > 0 && days[from - 1]!.translations === settled) from -= 1;
  return from;
}

function splitRuns(days: LanguageDay[]): LinePoint[][] {
  const runs: LinePoint[][] = [];
  let previous: LanguageDay | undefined;
  for (const day of days) {
    if (day.translated_percent === null) continue;
    const point = {
      day: day.day,
      value: day.translated_percent,
      estimated: day.origin === 'estimated',
    };
    if (previous === undefined || previous.translations !== day.translations) runs.push([point]);
    else runs.at(-1)!.push(point);
    previous = day;
  }
  return runs;
}

/**
 * The language chart's lines: each language's days of `language_history` (in day order), with
 * the estimated lead-in left out and a new run wherever the set of translations changed, so
 * that no stretch of a line moves because of what it sums rather than of progress.
 */
export function languageLines(report: Report): LanguageLine[] {
  const names = new Map(report.languages.map((l) => [l.language_code, l.language_name]));
  const byCode = new Map<string, LanguageDay[]>();
  for (const row of report.language_history) {
    const days = byCode.get(row.language_code);
    if (days === undefined) byCode.set(row.language_code, [row]);
    else days.push(row);
  }
  return [...byCode].map(([code, days]) => {
    const from = settledFrom(days);
    return {
      code,
      label: names.get(code) ?? code,
      runs: splitRuns(days.slice(from)),
      leftOut: from,
    };
  });
}
