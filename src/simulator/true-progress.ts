/**
 * The true daily progress of every translation: its counts at the end of each UTC day,
 * from a forward replay of the simulator's own history (`instance.history`), which holds
 * every move of every unit, also those Weblate does not log and those of strings removed
 * since (whose changes the log lost). What a change-log estimate is measured against.
 */
import { isFuzzyState, type SimInstance, type SimStateMove } from './model.ts';
import { MICROS_PER_DAY } from './time.ts';

export interface DailyProgress {
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
  total: number;
  /** State >= 20: translated, approved and read-only. */
  translated: number;
  approved: number;
  /** Needing editing (10, and the simulator's 11 and 12), as the statistics count it. */
  fuzzy: number;
  totalWords: number;
  translatedWords: number;
  approvedWords: number;
  fuzzyWords: number;
}

export interface TrueProgressOptions {
  /** Last day: `YYYY-MM-DD`, or an instant in epoch milliseconds (default `now()`). */
  until?: string | number;
  /** The clock for the default last day, epoch milliseconds (default real time). */
  now?: () => number;
}

function dayNumber(us: number): number {
  return Math.floor(us / MICROS_PER_DAY);
}

function lastDay(options: TrueProgressOptions): number {
  const { until } = options;
  if (typeof until === 'string') {
    const ms = Date.parse(`${until}T00:00:00Z`);
    if (Number.isNaN(ms)) throw new Error(`invalid day "${until}"`);
    return dayNumber(ms * 1000);
  }
  return dayNumber(Math.floor((until ?? (options.now ?? Date.now)()) * 1000));
}

function formatDay(day: number): string {
  return new Date(day * 86_400_000).toISOString().slice(0, 10);
}

interface Tally {
  counts: Omit<DailyProgress, 'day'>;
}

function emptyTally(): Tally {
  return {
    counts: {
      total: 0,
      translated: 0,
      approved: 0,
      fuzzy: 0,
      totalWords: 0,
      translatedWords: 0,
      approvedWords: 0,
      fuzzyWords: 0,
    },
  };
}

/** Adds (sign 1) or takes away (sign -1) one string in `state` (-1: none) to the tally. */
function count(tally: Tally, state: number, words: number, sign: number): void {
  if (state < 0) return;
  const c = tally.counts;
  c.total += sign;
  c.totalWords += sign * words;
  if (state >= 20) {
    c.translated += sign;
    c.translatedWords += sign * words;
  }
  if (state === 30) {
    c.approved += sign;
    c.approvedWords += sign * words;
  }
  if (isFuzzyState(state)) {
    c.fuzzy += sign;
    c.fuzzyWords += sign * words;
  }
}

/** Each unit's state before its first move: that move's `from`, else its state now. */
function startingTally(
  instance: SimInstance,
  translationId: number,
  moves: readonly SimStateMove[],
): Tally {
  const tally = emptyTally();
  const seen = new Set<number>();
  for (const move of moves) {
    if (seen.has(move.unitId)) continue;
    seen.add(move.unitId);
    count(tally, move.from, move.words, 1);
  }
  for (const unit of instance.index.unitsByTranslation.get(translationId) ?? []) {
    if (!seen.has(unit.id)) count(tally, unit.state, unit.numWords, 1);
  }
  return tally;
}

function seriesOf(
  instance: SimInstance,
  translationId: number,
  moves: readonly SimStateMove[],
  until: number,
): DailyProgress[] {
  const tally = startingTally(instance, translationId, moves);
  const existedBefore = tally.counts.total > 0 || moves.length === 0;
  const firstChange = instance.index.changesByTranslation.get(translationId)?.at(-1)?.timestampUs;
  const firstMove = moves[0]?.us;
  let day = dayNumber(instance.history.startUs);
  if (!existedBefore) day = dayNumber(Math.min(firstMove ?? Infinity, firstChange ?? Infinity));
  const series: DailyProgress[] = [];
  let next = 0;
  // Moves replay in the order they happened; one stamped before an earlier one counts with it.
  for (; day <= until; day += 1) {
    while (next < moves.length && dayNumber((moves[next] as SimStateMove).us) <= day) {
      const move = moves[next] as SimStateMove;
      count(tally, move.from, move.words, -1);
      count(tally, move.to, move.words, 1);
      next += 1;
    }
    series.push({ day: formatDay(day), ...tally.counts });
  }
  return series;
}

function movesByTranslation(instance: SimInstance): Map<number, SimStateMove[]> {
  const groups = new Map<number, SimStateMove[]>();
  for (const move of instance.history.moves) {
    const group = groups.get(move.translationId);
    if (group === undefined) groups.set(move.translationId, [move]);
    else group.push(move);
  }
  return groups;
}

/**
 * Every non-source translation's counts at the end of each UTC day, from the timeline start
 * (or, for a translation created later, its first change) up to `until`, keyed by id.
 */
export function trueDailyProgress(
  instance: SimInstance,
  options: TrueProgressOptions = {},
): Map<number, DailyProgress[]> {
  const until = lastDay(options);
  const groups = movesByTranslation(instance);
  const result = new Map<number, DailyProgress[]>();
  for (const translation of instance.translations) {
    if (translation.isSource) continue;
    result.set(
      translation.id,
      seriesOf(instance, translation.id, groups.get(translation.id) ?? [], until),
    );
  }
  return result;
}

/** One translation's series (see trueDailyProgress). */
export function trueTranslationProgress(
  instance: SimInstance,
  translationId: number,
  options: TrueProgressOptions = {},
): DailyProgress[] {
  if (!instance.index.translationById.has(translationId))
    throw new Error(`unknown translation ${translationId}`);
  const moves = instance.history.moves.filter((m) => m.translationId === translationId);
  return seriesOf(instance, translationId, moves, lastDay(options));
}
