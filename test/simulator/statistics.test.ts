import { describe, expect, it } from 'vitest';

import { generateInstance } from '../../src/simulator/generate.ts';
import {
  renderLanguageStatistics,
  renderProjectStatistics,
  renderTranslation,
  renderTranslationStatistics,
} from '../../src/simulator/render.ts';
import { DEFAULT_SIZE } from '../../src/simulator/size.ts';
import { countTranslation, translationPercent } from '../../src/simulator/statistics.ts';
import { siteLinks } from '../../src/simulator/urls.ts';

const BASE = siteLinks('http://weblate.test/');

describe('translationPercent', () => {
  it.each([
    [1, 3, 33.3],
    [2, 3, 66.6],
    [999, 1000, 99.9],
    [9999, 10000, 99.9],
    [1, 2000, 0.1],
    [1, 1000, 0.1],
    [0, 10, 0],
    [10, 10, 100],
    [1, 2, 50],
  ])('truncates %i/%i to %d', (done, total, expected) => {
    expect(translationPercent(done, total)).toBe(expected);
  });

  it('calls an empty total complete only for the completed metric', () => {
    expect(translationPercent(0, 0)).toBe(100);
    expect(translationPercent(0, 0, true)).toBe(100);
    expect(translationPercent(0, 0, false)).toBe(0);
  });
});

describe('statistics of the default instance', () => {
  const instance = generateInstance({ ...DEFAULT_SIZE, seed: 1 });

  it('keeps the API relations for source and target translations', () => {
    for (const translation of instance.translations) {
      const stats = renderTranslationStatistics(instance, BASE, translation);
      const record = renderTranslation(instance, BASE, translation);
      if (translation.isSource) {
        expect(stats.translated).toBe(stats.total);
        expect(stats.readonly).toBe(stats.total);
      } else {
        expect(stats.readonly).toBe(0);
      }
      expect(stats.failing).toBe(record.failing_checks);
      expect(stats.suggestions).toBe(record.have_suggestion);
      expect(stats.fuzzy).toBe(record.fuzzy);
      expect(stats.total).toBe(record.total);
      expect(stats.translated_percent).toBe(record.translated_percent);
      expect(stats.last_change).toBe(record.last_change);
    }
  });

  it('derives percentages from the counts', () => {
    for (const translation of instance.translations) {
      const stats = renderTranslationStatistics(instance, BASE, translation);
      const total = stats.total as number;
      expect(stats.translated_percent).toBe(translationPercent(stats.translated as number, total));
      expect(stats.fuzzy_words_percent).toBe(
        translationPercent(stats.fuzzy_words as number, stats.total_words as number),
      );
      expect(stats.approved_chars_percent).toBe(
        translationPercent(stats.approved_chars as number, stats.total_chars as number),
      );
      expect(stats.failing_percent).toBe(translationPercent(stats.failing as number, total));
    }
  });

  it('sums language statistics over every translation in that language', () => {
    for (const language of instance.languages) {
      const translations = instance.translations.filter((t) => t.languageId === language.id);
      const stats = renderLanguageStatistics(instance, BASE, language);
      const counts = translations.map((t) => countTranslation(instance, t));
      const total = counts.reduce((sum, c) => sum + c.all.count, 0);
      const translated = counts.reduce((sum, c) => sum + c.translated.count, 0);
      expect(stats.total).toBe(total);
      expect(stats.translated).toBe(translated);
      // Percentages come from the sums, never from averaged percentages.
      expect(stats.translated_percent).toBe(translationPercent(translated, total));
      expect(stats.name).toBe(language.name);
      expect(stats.url).toBe(`${BASE.site}languages/${language.code}/`);
      expect(stats).not.toHaveProperty('code');
      expect(stats).not.toHaveProperty('translate_url');
    }
  });

  it('treats languages without translations as complete but empty', () => {
    const unused = instance.languages.find(
      (l) => !instance.translations.some((t) => t.languageId === l.id),
    );
    expect(unused).toBeDefined();
    const stats = renderLanguageStatistics(instance, BASE, unused!);
    expect(stats.total).toBe(0);
    expect(stats.translated_percent).toBe(100);
    expect(stats.fuzzy_percent).toBe(0);
    expect(stats.last_change).toBeNull();
  });

  it('sums project statistics over all its translations', () => {
    for (const project of instance.projects) {
      const componentIds = new Set(
        instance.components.filter((c) => c.projectId === project.id).map((c) => c.id),
      );
      const units = instance.units.filter((u) =>
        componentIds.has(instance.index.translationById.get(u.translationId)?.componentId ?? 0),
      );
      const stats = renderProjectStatistics(instance, BASE, project);
      expect(stats.total).toBe(units.length);
      expect(stats.approved).toBe(units.filter((u) => u.state === 30).length);
      expect(stats.name).toBe(project.name);
    }
  });

  it('has statistics for translations that are complete, partial and untouched', () => {
    const percents = instance.translations
      .filter((t) => !t.isSource)
      .map((t) => renderTranslationStatistics(instance, BASE, t).translated_percent as number);
    expect(percents.some((p) => p === 100)).toBe(true);
    expect(percents.some((p) => p > 0 && p < 100)).toBe(true);
    const lastChanges = instance.translations.map((t) => countTranslation(instance, t).lastChange);
    expect(lastChanges).toContain(null);
    expect(lastChanges.some((value) => value !== null)).toBe(true);
  });
});
