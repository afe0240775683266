import { describe, expect, it } from 'vitest';

import { generateInstance } from '../../src/simulator/generate.ts';
import { NO_STRING, stateAction } from '../../src/simulator/history.ts';
import type { SimChange, SimInstance } from '../../src/simulator/model.ts';
import { createMutator } from '../../src/simulator/mutations.ts';
import { DEFAULT_SIZE } from '../../src/simulator/size.ts';
import { countTranslation } from '../../src/simulator/statistics.ts';
import { trueDailyProgress, trueTranslationProgress } from '../../src/simulator/true-progress.ts';

const pristine = generateInstance({ ...DEFAULT_SIZE, seed: 1 });

const CREATING = new Set([13, 31, 71, 73]);
/** Actions Weblate picks itself from the states (Unit.generate_change). */
const PICKED = new Set([2, 5, 36, 37]);

function dayOf(us: number): string {
  return new Date(us / 1000).toISOString().slice(0, 10);
}

function newestUs(instance: SimInstance): number {
  const last = instance.history.moves.reduce((max, m) => Math.max(max, m.us), 0);
  return Math.max(last, ...instance.changes.slice(-1).map((c) => c.timestampUs));
}

/**
 * Replays each unit's history: logged moves with the states their change wrote, unlogged
 * ones from the history. Returns what disagrees (empty when coherent).
 */
function incoherences(instance: SimInstance): string[] {
  const problems: string[] = [];
  const withStates = new Map<number, SimChange[]>();
  for (const change of instance.changes) {
    if (change.unitId === null || !('state' in change.details)) continue;
    const list = withStates.get(change.unitId) ?? [];
    list.push(change);
    withStates.set(change.unitId, list);
  }
  const replayed = new Map<number, { state: number; changes: number }>();
  for (const move of instance.history.moves) {
    const unit = replayed.get(move.unitId) ?? { state: move.from, changes: 0 };
    const change =
      move.changeId === null ? undefined : instance.index.changeById.get(move.changeId);
    let [from, to] = [move.from, move.to];
    if (change !== undefined && change.action !== 63) {
      const details = change.details as { state: number; old_state: number };
      from = CREATING.has(change.action) ? NO_STRING : details.old_state;
      to = details.state;
      unit.changes += 1;
    }
    if (from !== unit.state) problems.push(`unit ${move.unitId}: ${from} after ${unit.state}`);
    unit.state = to;
    replayed.set(move.unitId, unit);
  }
  for (const unit of instance.units) {
    const found = replayed.get(unit.id);
    if (found !== undefined && found.state !== unit.state)
      problems.push(`unit ${unit.id} ends in ${found.state}, is ${unit.state}`);
    const logged = withStates.get(unit.id)?.length ?? 0;
    if (logged !== (found?.changes ?? 0)) problems.push(`unit ${unit.id}: unreplayed changes`);
  }
  return problems;
}

function ruleViolations(instance: SimInstance): SimChange[] {
  return instance.changes.filter((change) => {
    if (change.unitId === null) return false;
    const unit = instance.index.unitById.get(change.unitId);
    const { details } = change;
    if (!('state' in details))
      return [2, 5, 7, 32, 36, 37, 59, 66, 71, 31, 13].includes(change.action);
    if (unit === undefined) return true;
    if (details.source !== unit.source.join('\x1e\x1e') || details.context !== unit.context)
      return true;
    const [before, after] = [details.old_state as number, details.state as number];
    if (PICKED.has(change.action)) return change.action !== stateAction(before, after);
    if (change.action === 71) return before !== NO_STRING;
    if (change.action === 31 || change.action === 13 || change.action === 66)
      return before !== after;
    if (change.action === 32) return before === 0 || before === 100;
    return ![7, 59].includes(change.action);
  });
}

function lastDayDisagreements(instance: SimInstance, until: string): unknown[] {
  const bad: unknown[] = [];
  for (const [id, series] of trueDailyProgress(instance, { until })) {
    const counts = countTranslation(instance, instance.index.translationById.get(id)!);
    const last = series.at(-1)!;
    const expected: Omit<typeof last, 'day'> = {
      total: counts.all.count,
      totalWords: counts.all.words,
      translated: counts.translated.count,
      translatedWords: counts.translated.words,
      approved: counts.approved.count,
      approvedWords: counts.approved.words,
      fuzzy: counts.fuzzy.count,
      fuzzyWords: counts.fuzzy.words,
    };
    const keys = Object.keys(expected) as (keyof typeof expected)[];
    if (keys.some((key) => last[key] !== expected[key])) bad.push({ id, last, expected });
  }
  return bad;
}

describe('generated history', () => {
  it('replays every unit from its logged and unlogged moves to its current state', () => {
    expect(incoherences(pristine)).toEqual([]);
    expect(pristine.history.moves.some((m) => m.changeId === null)).toBe(true);
  });

  it('writes details and actions as Weblate does', () => {
    expect(ruleViolations(pristine)).toEqual([]);
    const actions = new Set(pristine.changes.map((c) => c.action));
    for (const action of [2, 5, 7, 32, 36, 37, 59, 63, 71, 31, 66])
      expect(actions).toContain(action);
  });

  it('adds strings in every translation of their component', () => {
    const added = pristine.changes.filter((c) => c.action === 71 || c.action === 31);
    expect(added.length).toBeGreaterThan(0);
    for (const change of added) {
      const unit = pristine.index.unitById.get(change.unitId!)!;
      const siblings = pristine.units.filter((u) => u.sourceUnitId === unit.sourceUnitId);
      const births = siblings.map((u) =>
        pristine.changes.find((c) => c.unitId === u.id && CREATING.has(c.action)),
      );
      expect(births.every((birth) => birth !== undefined)).toBe(true);
      // From the editor: one bulk_create, one instant; from files: one parse per translation.
      if (change.action === 31)
        expect(births.every((b) => b?.timestampUs === change.timestampUs)).toBe(true);
      expect(unit.timestamp).toBe(change.timestamp);
      const before = pristine.changes.filter((c) => c.unitId === unit.id && c.id < change.id);
      expect(before).toEqual([]);
    }
  });

  it('removes strings with their units and changes, logging 63 without unit or state', () => {
    const removals = pristine.changes.filter((c) => c.action === 63);
    expect(removals.length).toBeGreaterThan(0);
    for (const removal of removals) {
      expect(removal.unitId).toBeNull();
      expect(removal.translationId).not.toBeNull();
      expect(removal.details).not.toHaveProperty('state');
      expect(removal.details.target).toBe(removal.target);
    }
    const gone = new Set(
      pristine.history.moves.filter((m) => m.to === NO_STRING).map((m) => m.unitId),
    );
    expect(gone.size).toBe(removals.length);
    expect(pristine.units.filter((u) => gone.has(u.id))).toEqual([]);
    expect(pristine.changes.filter((c) => c.unitId !== null && gone.has(c.unitId))).toEqual([]);
  });

  it('ends the true progress on the statistics the simulator serves', () => {
    expect(lastDayDisagreements(pristine, dayOf(newestUs(pristine)))).toEqual([]);
    const [id, series] = [...trueDailyProgress(pristine, { until: '2025-06-30' })][0]!;
    expect(series[0]!.day).toBe('2024-01-01');
    expect(series.at(-1)!.day).toBe('2025-06-30');
    expect(trueTranslationProgress(pristine, id, { until: '2025-06-30' })).toEqual(series);
    const moved = series.some((day, i) => i > 0 && day.translated !== series[i - 1]!.translated);
    expect(moved).toBe(true);
  });

  it('is deterministic by seed', () => {
    const again = generateInstance({ ...DEFAULT_SIZE, seed: 1 });
    expect(again.history).toEqual(pristine.history);
    const other = generateInstance({ ...DEFAULT_SIZE, seed: 2 });
    expect(other.history.moves).not.toEqual(pristine.history.moves);
  });
});

describe('history after mutations', () => {
  it('stays coherent and true through edits, bulk edits, additions and removals', () => {
    const instance = structuredClone(pristine);
    let clock = Date.UTC(2025, 8, 1, 12);
    const mutate = createMutator(instance, () => clock);
    const targets = instance.translations.filter((t) => !t.isSource);
    const unitsOf = (index: number, state: number) =>
      instance.index.unitsByTranslation.get(targets[index]!.id)!.filter((u) => u.state === state);
    mutate.editUnits(
      unitsOf(0, 0)
        .slice(0, 3)
        .map((u) => u.id),
    );
    mutate.editUnits(
      unitsOf(0, 20)
        .slice(0, 2)
        .map((u) => u.id),
      { state: 10 },
    );
    clock += 86_400_000;
    mutate.bulkEditStates(
      unitsOf(1, 20)
        .slice(0, 3)
        .map((u) => u.id),
      30,
    );
    mutate.addUnits(instance.components[0]!.id, 2);
    mutate.deleteUnits([unitsOf(2, 20)[0]!.id]);
    clock += 86_400_000;
    mutate.updateUnitsSilently(new Map([[unitsOf(3, 10)[0]!.id, { state: 20 }]]));
    const component = instance.components[1]!;
    const missing = instance.languages.find(
      (l) =>
        l.id !== component.sourceLanguageId &&
        !instance.translations.some((t) => t.componentId === component.id && t.languageId === l.id),
    );
    if (missing) mutate.addTranslation(component.id, missing.code);
    expect(incoherences(instance)).toEqual([]);
    expect(ruleViolations(instance)).toEqual([]);
    expect(lastDayDisagreements(instance, dayOf(clock * 1000))).toEqual([]);
  });
});
