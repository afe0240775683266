import {
  type CostOptions,
  listCostEstimate,
  listMachineTranslation,
  listStringsOverTarget,
  listTimeInState,
  listTranslatorWorkByPerson,
  readTranslatorWork,
  type TranslatorWorkFigures as WorkRow,
} from '../db/queries/report-effort.ts';
import type { DayRange, ReportFilter } from '../db/queries/report-scope.ts';
import type { SnapshotRead } from '../db/snapshot.ts';
import type { Effort, TranslatorWorkFigures } from './model.ts';
import { ranked, toNumber, toNumberOrNull, withNumbers } from './numbers.ts';

/** What the effort sections read beside the scope and window. */
export interface EffortOptions {
  /** Each translator's work too (the figures of role weblate_effort_reader). */
  people: boolean;
  /** The cost estimate's rates; null leaves the cost out (it reads every string left). */
  cost: CostOptions | null;
  /** Strings over this many days in this state are listed. */
  target: { state: string; days: number };
}

export const DEFAULT_EFFORT: EffortOptions = {
  people: false,
  cost: null,
  target: { state: 'waiting for review', days: 7 },
};

/** Weblate's translator_work defaults, which the report keeps. */
export const WORK_LIMITS = { min_changes: 5, max_changes: 1000, max_words: 10_000 };

function workFigures(row: WorkRow): TranslatorWorkFigures {
  return {
    user_days_included: toNumber(row.user_days_included),
    user_days_excluded: toNumber(row.user_days_excluded),
    strings_median: toNumberOrNull(row.strings_median),
    strings_mean: toNumberOrNull(row.strings_mean),
    strings_p75: toNumberOrNull(row.strings_p75),
    strings_p90: toNumberOrNull(row.strings_p90),
    words_median: toNumberOrNull(row.words_median),
    words_mean: toNumberOrNull(row.words_mean),
    words_p75: toNumberOrNull(row.words_p75),
    words_p90: toNumberOrNull(row.words_p90),
  };
}

function costRates(cost: CostOptions | null): Effort['cost_rates'] {
  return cost === null ? null : { base_rate: cost.base_rate, tm_threshold: cost.tm_threshold };
}

/** Translator work, the remaining cost, machine translation and time in each state. */
export async function buildEffort(
  read: SnapshotRead,
  scope: ReportFilter,
  options: { window: DayRange; limit: number; effort: EffortOptions },
): Promise<Effort> {
  const { window, limit, effort } = options;
  // Side by side where the snapshot has connections for it; the slowest first.
  const [cost, states, over, machine, work, people] = await Promise.all([
    effort.cost === null ? null : read((db) => listCostEstimate(db, scope, effort.cost!)),
    read((db) => listTimeInState(db, scope, { window, limit })),
    read((db) => listStringsOverTarget(db, scope, { ...effort.target, limit })),
    read((db) => listMachineTranslation(db, scope, { window, limit })),
    read((db) => readTranslatorWork(db, scope, window)),
    effort.people
      ? read((db) => listTranslatorWorkByPerson(db, scope, { window, limit })).then((rows) =>
          ranked(rows, (r) => ({ username: r.username, ...workFigures(r) })),
        )
      : null,
  ]);
  return {
    work_limits: WORK_LIMITS,
    translator_work: {
      ...workFigures(work),
      translators: toNumber(work.translators),
      authors_unverified: toNumber(work.authors_unverified),
    },
    translator_work_people: people,
    cost_rates: costRates(effort.cost),
    cost:
      cost?.map((r) => ({
        ...withNumbers(r, ['estimate_strings', 'estimate_words', 'estimate_chars', 'rate', 'cost']),
        approximation: r.approximation,
      })) ?? null,
    machine_translation: ranked(machine, (r) =>
      withNumbers(r, [
        'filled',
        'kept',
        'edited',
        'replaced',
        'superseded',
        'edits_0',
        'edits_1_10',
        'edits_11_30',
        'edits_31_60',
        'edits_over_60',
        'median_edit_percent',
        'p90_edit_percent',
        'median_hours_to_person',
        'p90_hours_to_person',
      ]),
    ),
    time_in_state: ranked(states, (r) =>
      withNumbers(r, [
        'spans',
        'ended',
        'still_open',
        'median_hours_in_state',
        'p90_hours_in_state',
      ]),
    ),
    target: effort.target,
    over_target: ranked(over, (r) => ({ ...r, unit_id: toNumber(r.unit_id) })),
  };
}

/** The effort sections as --label leaves them: empty, with the options they would use. */
export function emptyEffort(effort: EffortOptions): Effort {
  const none = { matching: 0, rows: [] };
  return {
    work_limits: WORK_LIMITS,
    translator_work: {
      user_days_included: 0,
      user_days_excluded: 0,
      strings_median: null,
      strings_mean: null,
      strings_p75: null,
      strings_p90: null,
      words_median: null,
      words_mean: null,
      words_p75: null,
      words_p90: null,
      translators: 0,
      authors_unverified: 0,
    },
    translator_work_people: effort.people ? none : null,
    cost_rates: costRates(effort.cost),
    cost: effort.cost === null ? null : [],
    machine_translation: none,
    time_in_state: none,
    target: effort.target,
    over_target: none,
  };
}
