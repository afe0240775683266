import { CONTENT_ACTIONS } from './actions.ts';
import type { GroupCounts, SimInstance, SimTranslation, StatisticsCounts } from './model.ts';
import { MICROS_PER_HOUR } from './time.ts';

/**
 * Weblate's `translation_percent` (weblate/utils/stats.py): per-mille integer division, never 0.0
 * when something is done, never 100.0 when something is left; a zero total is complete
 * only for the "completed" metric.
 */
export function translationPercent(done: number, total: number, zeroComplete = true): number {
  if (total === 0) return zeroComplete ? 100 : 0;
  const promille = Math.floor((1000 * done) / total);
  if (promille === 0 && done !== 0) return 0.1;
  if (promille === 1000 && done < total) return 99.9;
  return promille / 10;
}

export type { GroupCounts, StatisticsCounts } from './model.ts';

const emptyGroup = (): GroupCounts => ({ count: 0, words: 0, chars: 0 });

export function emptyCounts(): StatisticsCounts {
  return {
    all: emptyGroup(),
    translated: emptyGroup(),
    fuzzy: emptyGroup(),
    approved: emptyGroup(),
    readonly: emptyGroup(),
    failing: emptyGroup(),
    suggestions: 0,
    comments: 0,
    recentChanges: 0,
    lastChange: null,
    lastChangeUs: 0,
    lastAuthor: null,
  };
}

function addTo(group: GroupCounts, words: number, chars: number): void {
  group.count += 1;
  group.words += words;
  group.chars += chars;
}

/** Counts of one translation, from its units and its change history (see answeringCounts). */
export function countTranslation(
  instance: SimInstance,
  translation: SimTranslation,
): StatisticsCounts {
  const answered = instance.answeringCounts?.get(translation.id);
  if (answered !== undefined) return answered;
  return currentCounts(instance, translation);
}

/** Counts of one translation as they are now. */
export function currentCounts(
  instance: SimInstance,
  translation: SimTranslation,
): StatisticsCounts {
  const counts = emptyCounts();
  for (const unit of instance.index.unitsByTranslation.get(translation.id) ?? []) {
    const { state, numWords: words, numChars: chars } = unit;
    addTo(counts.all, words, chars);
    if (state >= 20) addTo(counts.translated, words, chars);
    if (state >= 10 && state < 20) addTo(counts.fuzzy, words, chars);
    if (state === 30) addTo(counts.approved, words, chars);
    if (state === 100) addTo(counts.readonly, words, chars);
    if (unit.hasFailingCheck) addTo(counts.failing, words, chars);
    if (unit.hasSuggestion) counts.suggestions += 1;
    if (unit.hasComment) counts.comments += 1;
  }
  addChangeCounts(instance, translation, counts);
  return counts;
}

/**
 * Last change, its author and `recent_changes`, from the translation's newest-first change
 * list. Weblate 5.14.3 dates a translation by its newest change of any kind, a comment or a
 * repository update as much as an edit (Change.save caches every change that has a
 * translation; the fallback is `change_set.order()[0]`, weblate/utils/stats.py
 * get_last_change_obj), and counts as recent the content changes less than 6 hours older
 * than that (count_changes: `timestamp__gt` last_changed − 6 h).
 */
function addChangeCounts(
  instance: SimInstance,
  translation: SimTranslation,
  counts: StatisticsCounts,
): void {
  const changes = instance.index.changesByTranslation.get(translation.id) ?? [];
  const newest = changes[0];
  if (newest === undefined) return;
  counts.lastChange = newest.timestamp;
  counts.lastChangeUs = newest.timestampUs;
  counts.lastAuthor = newest.author;
  for (const change of changes) {
    if (change.timestampUs <= newest.timestampUs - 6 * MICROS_PER_HOUR) break;
    if (CONTENT_ACTIONS.has(change.action)) counts.recentChanges += 1;
  }
}

function addGroup(into: GroupCounts, from: GroupCounts): void {
  into.count += from.count;
  into.words += from.words;
  into.chars += from.chars;
}

/** Sums counts for aggregates (language, project): percentages come from the sums later. */
export function sumCounts(list: readonly StatisticsCounts[]): StatisticsCounts {
  const sum = emptyCounts();
  for (const counts of list) {
    for (const key of ['all', 'translated', 'fuzzy', 'approved', 'readonly', 'failing'] as const) {
      addGroup(sum[key], counts[key]);
    }
    sum.suggestions += counts.suggestions;
    sum.comments += counts.comments;
    sum.recentChanges += counts.recentChanges;
    if (
      counts.lastChange !== null &&
      (sum.lastChange === null || counts.lastChangeUs > sum.lastChangeUs)
    ) {
      sum.lastChange = counts.lastChange;
      sum.lastChangeUs = counts.lastChangeUs;
      sum.lastAuthor = counts.lastAuthor;
    }
  }
  return sum;
}

/** Which metric is 100% for an empty object: approved when review is on, else translated. */
export type CompletedMetric = 'translated' | 'approved';

/** `<g>`, `<g>_words`, `<g>_chars` and their `_percent` variants for one group. */
function groupFields(
  name: string,
  group: GroupCounts,
  all: GroupCounts,
  zeroComplete: boolean,
): Record<string, number> {
  return {
    [name]: group.count,
    [`${name}_words`]: group.words,
    [`${name}_chars`]: group.chars,
    [`${name}_percent`]: translationPercent(group.count, all.count, zeroComplete),
    [`${name}_words_percent`]: translationPercent(group.words, all.words, zeroComplete),
    [`${name}_chars_percent`]: translationPercent(group.chars, all.chars, zeroComplete),
  };
}

/** Every counting field of Weblate's StatisticsSerializer (weblate/api/serializers.py). */
export function statisticsFields(
  counts: StatisticsCounts,
  completed: CompletedMetric,
): Record<string, unknown> {
  const { all, failing } = counts;
  const group = (name: 'translated' | 'fuzzy' | 'approved' | 'readonly'): Record<string, number> =>
    groupFields(name, counts[name], all, name === completed);
  return {
    total: all.count,
    total_words: all.words,
    total_chars: all.chars,
    last_change: counts.lastChange,
    recent_changes: counts.recentChanges,
    ...group('translated'),
    ...group('fuzzy'),
    failing: failing.count,
    failing_percent: translationPercent(failing.count, all.count, false),
    ...group('approved'),
    ...group('readonly'),
    suggestions: counts.suggestions,
    comments: counts.comments,
  };
}
