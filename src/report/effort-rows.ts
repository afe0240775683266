import { formatRange } from './format.ts';
import type { Report } from './model.ts';

// What the table, HTML and CSV renderers share about the effort sections: titles and labels.

/** Weblate's names of its cost buckets, as its report shows them. */
export const BUCKET_LABELS: Readonly<Record<string, string>> = {
  repetition: 'Repetitions',
  tm_100: 'Exact matches',
  tm_fuzzy: 'Fuzzy matches',
  needs_editing: 'Needs editing',
  new: 'New strings',
  total: 'Total',
};

export function effortTitles(report: Report): {
  work: string;
  people: string;
  cost: string;
  machine: string;
  states: string;
  over: string;
} {
  const range = formatRange(report.window);
  const { min_changes, max_changes, max_words } = report.effort.work_limits;
  const rates = report.effort.cost_rates;
  const { state, days } = report.effort.target;
  const limits = `user-days of ${min_changes} to ${max_changes.toLocaleString('en-US')} strings and at most ${max_words.toLocaleString('en-US')} source words`;
  return {
    work: `Translator work, ${range} (as Weblate's translator work report: ${limits})`,
    people: `Translator work per person, ${range}`,
    cost:
      rates === null
        ? ''
        : `Remaining cost by Weblate's buckets (base rate ${rates.base_rate}, memory matches from ${rates.tm_threshold} %)`,
    machine: `Machine translation: strings filled automatically ${range}, and what people did with them`,
    states: `Time in each state, ${range} (spans that ended in the window, or are still open)`,
    over: `Strings ${state} for more than ${days} days, oldest first`,
  };
}

/** A figure with up to one decimal and thousands separators; empty when unknown. */
export function formatFigure(value: number | null): string {
  return value === null ? '' : value.toLocaleString('en-US', { maximumFractionDigits: 1 });
}

/** A cost with up to four decimals, as Weblate writes it. */
export function formatCost(value: number | null): string {
  return value === null ? '' : value.toLocaleString('en-US', { maximumFractionDigits: 4 });
}
