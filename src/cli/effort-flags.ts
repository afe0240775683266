import { type CostRates, DEFAULT_COST } from '../db/queries/report-effort.ts';
import { UsageError } from '../errors.ts';
import { DEFAULT_EFFORT, type EffortOptions } from '../report/build-effort.ts';

// The report's flags of its effort sections: --people, the cost's rates and the target.

/** The states strings_over_target takes (weblate.state_spans). */
export const TARGET_STATES = [
  'untranslated',
  'needs editing',
  'waiting for review',
  'first translation to approval',
] as const;

export const EFFORT_OPTIONS = {
  people: { type: 'boolean' },
  cost: { type: 'boolean' },
  'base-rate': { type: 'string' },
  rates: { type: 'string' },
  'tm-threshold': { type: 'string' },
  'target-state': { type: 'string' },
  'target-days': { type: 'string' },
} as const;

export const EFFORT_HELP = [
  "--people               each translator's work too (as the role weblate_effort_reader may read it)",
  "--cost                 the remaining cost in Weblate's cost estimate's buckets (it reads every",
  '                       string left and searches the memory: slow on a large scope)',
  '--base-rate <n>        …the cost of one source word at 100 % (default 1; implies --cost)',
  '--rates <bucket=%,…>   percent of the base rate per bucket: repetition, tm_100, tm_fuzzy,',
  '                       needs_editing, new (default repetition=0,tm_100=0,tm_fuzzy=50,',
  '                       needs_editing=50,new=100, as Weblate)',
  '--tm-threshold <n>     memory matches from this quality are fuzzy matches (default 80, as Weblate)',
  `--target-state <s>     strings in this state too long are listed: ${TARGET_STATES.join(', ')} (default waiting for review)`,
  '--target-days <n>      …for more than this many days (default 7)',
];

function text(value: unknown): string | null {
  if (Array.isArray(value)) return text(value.at(-1));
  return typeof value === 'string' ? value.trim() : null;
}

/** A decimal of at most two places, as Weblate's rate fields take (0 to 9999.99). */
function rate(flag: string, given: string): number {
  if (!/^\d{1,4}(\.\d{1,2})?$/.test(given))
    throw new UsageError(
      `${flag} takes a number from 0 to 9999.99 with at most two decimals, not "${given}"`,
    );
  return Number(given);
}

function wholeNumber(flag: string, given: string, min: number, max: number): number {
  const value = Number(given);
  if (!/^\d+$/.test(given) || value < min || value > max)
    throw new UsageError(`${flag} takes a whole number from ${min} to ${max}, not "${given}"`);
  return value;
}

function parseRates(given: string): CostRates {
  const rates = { ...DEFAULT_COST.rates };
  for (const part of given.split(',')) {
    const [bucket, value] = part.split('=').map((s) => s.trim());
    if (bucket === undefined || value === undefined || !(bucket in rates))
      throw new UsageError(
        `--rates takes bucket=percent pairs separated by commas (buckets: ${Object.keys(rates).join(', ')}), not "${part}"`,
      );
    rates[bucket as keyof CostRates] = rate(`--rates ${bucket}`, value);
  }
  return rates;
}

/** Reads and checks the effort flags; a bad value is a UsageError (exit code 2). */
export function parseEffortFlags(values: Record<string, unknown>): EffortOptions {
  const base = text(values['base-rate']);
  const rates = text(values.rates);
  const threshold = text(values['tm-threshold']);
  const state = text(values['target-state']);
  const days = text(values['target-days']);
  if (state !== null && !(TARGET_STATES as readonly string[]).includes(state))
    throw new UsageError(
      `--target-state must be one of ${TARGET_STATES.join(', ')}, not "${state}"`,
    );
  const defaults = DEFAULT_EFFORT;
  return {
    people: values.people === true,
    cost:
      values.cost === true || base !== null || rates !== null || threshold !== null
        ? {
            base_rate: base === null ? DEFAULT_COST.base_rate : rate('--base-rate', base),
            tm_threshold:
              threshold === null
                ? DEFAULT_COST.tm_threshold
                : wholeNumber('--tm-threshold', threshold, 1, 100),
            rates: rates === null ? DEFAULT_COST.rates : parseRates(rates),
          }
        : null,
    target: {
      state: state ?? defaults.target.state,
      days: days === null ? defaults.target.days : wholeNumber('--target-days', days, 0, 36_500),
    },
  };
}
