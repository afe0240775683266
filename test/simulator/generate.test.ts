import { describe, expect, it } from 'vitest';

import { CONTENT_ACTIONS } from '../../src/simulator/actions.ts';
import { generateInstance, generateInstanceEndingAt } from '../../src/simulator/generate.ts';
import type { SimInstance, SimUnit } from '../../src/simulator/model.ts';
import { calculateHash } from '../../src/simulator/siphash.ts';
import { DEFAULT_SIZE } from '../../src/simulator/size.ts';
import { countTranslation } from '../../src/simulator/statistics.ts';
import { parseInstant } from '../../src/simulator/time.ts';

const instance = generateInstance({ ...DEFAULT_SIZE, seed: 1 });
const { index } = instance;

function languageOf(unit: SimUnit): string {
  const translation = index.translationById.get(unit.translationId);
  return index.languageById.get(translation?.languageId ?? 0)?.code ?? '';
}

/** Everything but the index (Maps of the same objects), for equality checks. */
function data(value: SimInstance): Partial<SimInstance> {
  const copy: Partial<SimInstance> = { ...value };
  delete copy.index;
  return copy;
}

describe('generateInstance determinism', () => {
  it('gives the same instance for the same seed', () => {
    expect(data(generateInstance({ ...DEFAULT_SIZE, seed: 1 }))).toEqual(data(instance));
  });

  it('moves the same history in time so that it ends when asked', () => {
    const endUs = Date.UTC(2026, 10, 20, 12, 0, 0) * 1000;
    const moved = generateInstanceEndingAt({ ...DEFAULT_SIZE, seed: 1 }, endUs);
    const newest = Math.max(...moved.changes.map((c) => c.timestampUs));
    expect(newest).toBe(endUs);
    const shift = endUs - Math.max(...instance.changes.map((c) => c.timestampUs));
    expect(moved.changes.map((c) => [c.id, c.action, c.unitId ?? null])).toEqual(
      instance.changes.map((c) => [c.id, c.action, c.unitId ?? null]),
    );
    expect(moved.changes.map((c) => c.timestampUs - shift)).toEqual(
      instance.changes.map((c) => c.timestampUs),
    );
    // Timestamps as served say the same instants.
    expect(moved.changes.map((c) => parseInstant(c.timestamp)! - shift)).toEqual(
      instance.changes.map((c) => parseInstant(c.timestamp)),
    );
    expect(moved.units.map((u) => [u.id, u.target, u.state])).toEqual(
      instance.units.map((u) => [u.id, u.target, u.state]),
    );
  });

  it('gives a different instance for another seed', () => {
    const other = generateInstance({ ...DEFAULT_SIZE, seed: 2 });
    expect(other.units.map((u) => u.target)).not.toEqual(instance.units.map((u) => u.target));
    expect(other.changes.map((c) => c.timestamp)).not.toEqual(
      instance.changes.map((c) => c.timestamp),
    );
  });
});

describe('size semantics', () => {
  it('has the requested counts', () => {
    expect(instance.projects).toHaveLength(3);
    expect(instance.components).toHaveLength(10);
    expect(instance.changes).toHaveLength(10_000);
    expect(instance.users.filter((u) => u.username !== 'anonymous')).toHaveLength(3);
    expect(instance.units.length).toBeGreaterThan(18_000);
    expect(instance.units.length).toBeLessThan(22_000);
    for (const project of instance.projects) {
      expect(index.componentsByProject.get(project.id)?.length).toBeGreaterThanOrEqual(1);
    }
  });

  it('translates every component into its source and at least 70% of the target languages', () => {
    const targets = new Set(
      instance.translations.filter((t) => !t.isSource).map((t) => t.languageId),
    );
    expect(targets.size).toBe(10);
    for (const component of instance.components) {
      const translations = index.translationsByComponent.get(component.id) ?? [];
      expect(translations.filter((t) => t.isSource)).toHaveLength(1);
      expect(translations.filter((t) => !t.isSource).length).toBeGreaterThanOrEqual(7);
    }
  });

  it('handles tiny sizes', () => {
    const tiny = generateInstance({
      projects: 2,
      components: 1,
      languages: 1,
      units: 0,
      changes: 3,
      users: 0,
      seed: 9,
    });
    expect(tiny.components).toHaveLength(2);
    expect(tiny.changes).toHaveLength(3);
    expect(tiny.users.map((u) => u.username)).toEqual(['anonymous']);
  });
});

describe('languages', () => {
  it('covers directions, regions, scripts, plural counts and big populations', () => {
    const byCode = index.languageByCode;
    expect(instance.languages.length).toBeGreaterThanOrEqual(25);
    for (const code of ['ar', 'he', 'fa']) expect(byCode.get(code)?.direction).toBe('rtl');
    for (const code of ['pt_BR', 'zh_Hans', 'sr_Latn']) expect(byCode.has(code)).toBe(true);
    const plurals = new Set(instance.languages.map((l) => l.plural.number));
    for (const count of [1, 2, 3, 4, 6]) expect(plurals).toContain(count);
    expect(instance.languages.some((l) => l.population > 2 ** 31)).toBe(true);
    expect(instance.languages.every((l) => l.plural.source === 0 && Array.isArray(l.aliases))).toBe(
      true,
    );
  });
});

describe('components', () => {
  it('mixes bilingual and monolingual formats', () => {
    const formats = new Set(instance.components.map((c) => c.fileFormat));
    expect(formats).toEqual(new Set(['po', 'strings-utf8', 'json', 'aresource']));
    for (const component of instance.components) {
      expect(component.template === '').toBe(component.fileFormat === 'po');
    }
    expect(instance.components.some((c) => c.licenseUrl === null)).toBe(true);
    expect(instance.components.some((c) => c.licenseUrl !== null)).toBe(true);
    expect(instance.projects.some((p) => /-.*\d/.test(p.slug))).toBe(true);
  });
});

describe('units', () => {
  it('uses every state, with booleans derivable and targets consistent', () => {
    const states = new Set(instance.units.map((u) => u.state));
    expect(states).toEqual(new Set([0, 10, 11, 12, 20, 30, 100]));
    const bad = instance.units.filter((unit) => {
      const translation = index.translationById.get(unit.translationId)!;
      if ((unit.state === 100) !== translation.isSource) return true;
      if (unit.state === 0 && unit.target.some((t) => t !== '')) return true;
      return unit.state === 100 && unit.target.join('\n') !== unit.source.join('\n');
    });
    expect(bad).toEqual([]);
  });

  it('has plural strings with one target per plural form of the language', () => {
    const plurals = instance.units.filter((u) => u.source.length === 2);
    expect(plurals.length / instance.units.length).toBeGreaterThan(0.05);
    expect(plurals.length / instance.units.length).toBeLessThan(0.15);
    const bad = instance.units.filter((unit) => {
      const language = index.languageByCode.get(languageOf(unit))!;
      return unit.target.length !== (unit.source.length === 2 ? language.plural.number : 1);
    });
    expect(bad).toEqual([]);
    expect(new Set(plurals.map((u) => u.target.length))).toEqual(new Set([1, 2, 3, 4, 6]));
  });

  it('hashes ids as Weblate does, equal across the languages of a component', () => {
    const bad = instance.units.filter((unit) => {
      const component = index.componentById.get(
        index.translationById.get(unit.translationId)!.componentId,
      )!;
      const contentHash = calculateHash(unit.source.join('\x1e\x1e'), unit.context);
      const idHash = component.template === '' ? contentHash : calculateHash(unit.context);
      const sourceUnit = index.unitById.get(unit.sourceUnitId);
      return (
        unit.contentHash !== contentHash || unit.idHash !== idHash || sourceUnit?.idHash !== idHash
      );
    });
    expect(bad).toEqual([]);
    expect(instance.units.some((u) => u.idHash > 2n ** 53n || u.idHash < -(2n ** 53n))).toBe(true);
    expect(instance.units.some((u) => u.idHash !== u.contentHash)).toBe(true);
  });

  it('keeps ids unique and ascending, sources distinct per component and positions 1..n', () => {
    const ids = instance.units.map((u) => u.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
    for (const [translationId, units] of index.unitsByTranslation) {
      expect(units.map((u) => u.position)).toEqual(units.map((_, i) => i + 1));
      expect(new Set(units.map((u) => u.idHash)).size, `translation ${translationId}`).toBe(
        units.length,
      );
    }
  });

  it('draws texts from every script and awkward character class', () => {
    const texts = instance.units.flatMap((u) => [...u.source, ...u.target]).join('\n');
    const patterns = {
      diacritics: /[ěščřžýáíéůú]/u,
      cyrillic: /\p{Script=Cyrillic}/u,
      greek: /\p{Script=Greek}/u,
      arabic: /\p{Script=Arabic}/u,
      hebrew: /\p{Script=Hebrew}/u,
      devanagari: /\p{Script=Devanagari}/u,
      thai: /\p{Script=Thai}/u,
      han: /\p{Script=Han}/u,
      kana: /\p{Script=Hiragana}|\p{Script=Katakana}/u,
      hangul: /\p{Script=Hangul}/u,
      zwj: /\u200d/u,
      flags: /\p{Regional_Indicator}{2}/u,
      combining: /\p{M}/u,
      markup: /<a href="/,
      placeholders: /%1.*%2|%s|\{name\}/,
      newline: /\n/,
      tab: /\t/,
      quote: /"/,
      backslash: /\\/,
    };
    for (const [name, pattern] of Object.entries(patterns))
      expect(pattern.test(texts), name).toBe(true);
  });

  it('writes timestamps with six fraction digits, some Z and some offsets', () => {
    const stamps = [
      ...instance.units.map((u) => u.timestamp),
      ...instance.changes.map((c) => c.timestamp),
    ];
    const format = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}(Z|[+-]\d\d:\d\d)$/;
    expect(stamps.filter((stamp) => !format.test(stamp))).toEqual([]);
    const zulu = stamps.filter((s) => s.endsWith('Z')).length / stamps.length;
    expect(zulu).toBeGreaterThan(0.25);
    expect(zulu).toBeLessThan(0.42);
    for (const offset of ['+02:00', '-05:00', '+05:30'])
      expect(stamps.some((s) => s.endsWith(offset))).toBe(true);
    const bad = instance.units.filter(
      (u) =>
        parseInstant(u.lastUpdated) !== u.lastUpdatedUs ||
        u.lastUpdatedUs < parseInstant(u.timestamp)!,
    );
    expect(bad).toEqual([]);
  });
});

describe('changes', () => {
  const changes = instance.changes;

  it('has ids ascending with time, shared timestamps and exact instants', () => {
    const unordered = changes.filter(
      (c, i) =>
        i > 0 && (c.id <= changes[i - 1]!.id || c.timestampUs < changes[i - 1]!.timestampUs),
    );
    expect(unordered).toEqual([]);
    expect(changes.filter((c) => parseInstant(c.timestamp) !== c.timestampUs)).toEqual([]);
    const ties = changes.filter((c, i) => i > 0 && c.timestamp === changes[i - 1]!.timestamp);
    expect(ties.length).toBeGreaterThan(3);
  });

  it('mixes content, repository, component, project and unknown actions', () => {
    const actions = new Set(changes.map((c) => c.action));
    for (const action of [2, 5, 7, 36, 37, 4, 3, 17, 18, 20, 59, 0, 150])
      expect(actions).toContain(action);
    expect(changes.find((c) => c.action === 150)?.actionName).toBe('Future action');
    expect(changes.some((c) => c.componentId === null)).toBe(true);
    expect(changes.some((c) => c.componentId !== null && c.translationId === null)).toBe(true);
    expect(changes.some((c) => c.author === 'anonymous')).toBe(true);
  });

  it('keeps scopes consistent', () => {
    const bad = changes.filter((change) => {
      const { unitId, translationId, componentId } = change;
      if (unitId !== null && index.unitById.get(unitId)?.translationId !== translationId)
        return true;
      if (
        translationId !== null &&
        index.translationById.get(translationId)?.componentId !== componentId
      ) {
        return true;
      }
      return (
        componentId !== null && index.componentById.get(componentId)?.projectId !== change.projectId
      );
    });
    expect(bad).toEqual([]);
    expect(changes.some((c) => c.unitId === null && c.translationId !== null)).toBe(true);
  });

  it('follows each repository string update with a resource update of the translation', () => {
    for (const [i, change] of changes.entries()) {
      if (change.action !== 59) continue;
      const next = changes.slice(i + 1).find((c) => c.action !== 59);
      expect(next).toMatchObject({ action: 0, translationId: change.translationId, unitId: null });
    }
  });

  it('agrees with unit last_updated and translation last_change', () => {
    // Weblate 5.14.3 dates a translation by its newest change of any kind, not only content.
    for (const translation of instance.translations) {
      const own = changes.filter((c) => c.translationId === translation.id);
      const newest = own.reduce(
        (a, c) => (a === undefined || c.timestampUs >= a.timestampUs ? c : a),
        own[0],
      );
      const counts = countTranslation(instance, translation);
      expect([counts.lastChange, counts.lastAuthor]).toEqual([
        newest?.timestamp ?? null,
        newest?.author ?? null,
      ]);
      const recent = own.filter(
        (c) =>
          CONTENT_ACTIONS.has(c.action) &&
          c.timestampUs > (newest?.timestampUs ?? 0) - 6 * 3_600_000_000,
      );
      expect(counts.recentChanges).toBe(recent.length);
    }
    const saved = changes.filter(
      (c) => c.unitId !== null && [2, 5, 7, 36, 37, 59].includes(c.action),
    );
    const newestByUnit = new Map(saved.map((c) => [c.unitId, c]));
    for (const [unitId, change] of newestByUnit) {
      const unit = index.unitById.get(unitId!)!;
      expect(unit.lastUpdated).toBe(change.timestamp);
      expect(change.target).toBe(unit.target.join('\x1e\x1e'));
    }
  });
});

describe('users', () => {
  it('have subscriptions of Weblate notification kinds under several scopes, with unique ids', () => {
    const named = instance.users.filter((u) => u.username !== 'anonymous');
    const subscriptions = named.flatMap((u) => u.subscriptions);
    expect(new Set(subscriptions.map((s) => s.id)).size).toBe(subscriptions.length);
    expect(instance.users.find((u) => u.username === 'anonymous')?.subscriptions).toEqual([]);
    const kinds = new Set(subscriptions.map((s) => s.notification));
    expect(kinds).toContain('MentionCommentNotificaton');
    const first = named[0]!.subscriptions;
    const sameKind = first.filter((s) => s.notification === first[0]!.notification);
    expect(new Set(sameKind.map((s) => s.scope)).size).toBeGreaterThan(1);
    for (const s of subscriptions) {
      expect(s.projectId !== null).toBe(s.scope === 30);
      expect(s.componentId !== null).toBe(s.scope === 40);
      expect(s.frequency).toBeGreaterThanOrEqual(1);
      expect(s.frequency).toBeLessThanOrEqual(4);
    }
  });
});
