import type { Progress } from '../../../src/report/model.ts';
import type { TierApi } from './api.ts';

// Weblate's statistics of a project's translations, components and languages, and the
// arithmetic that relates them to the report's figures: sums and differences of counts, with
// percentages computed again as Weblate computes them.

/** The figures compared: counts, and percentages of them (part, whole). */
const COUNTS = [
  'total',
  'total_words',
  'translated',
  'translated_words',
  'fuzzy',
  'approved',
  'failing',
] as const;
const PERCENTS = {
  translated_percent: ['translated', 'total'],
  translated_words_percent: ['translated_words', 'total_words'],
} as const;
export type Figures = Record<(typeof COUNTS)[number], number> &
  Record<keyof typeof PERCENTS, number | null>;

/** What Weblate's statistics endpoints answer (StatisticsSerializer), in part. */
export type WeblateStatistics = Figures & { code?: string; name?: string };

/**
 * Weblate's translation_percent (weblate/trans/util.py): truncated to one decimal, never 0.0 when
 * something is done nor 100.0 when something is left; 100.0 without strings, as the report says
 * (Weblate then says 0.0 where it treats reviews as on: docs/metrics.md, translated_percent).
 */
function translationPercent(part: number, whole: number): number {
  if (whole === 0) return 100;
  const percent = Math.floor((1000 * part) / whole) / 10;
  if (percent === 0 && part !== 0) return 0.1;
  if (percent === 100 && part < whole) return 99.9;
  return percent;
}

/** The compared figures of a report's row or of Weblate's statistics. */
export function figuresOf(from: Progress | WeblateStatistics): Figures {
  const figures = {} as Figures;
  for (const key of COUNTS) figures[key] = from[key];
  for (const key of Object.keys(PERCENTS) as Array<keyof typeof PERCENTS>) figures[key] = from[key];
  return figures;
}

type Counts = Record<(typeof COUNTS)[number], number>;

/** Counts with their percentages, as Weblate computes those of summed statistics. */
function withPercents(counts: Counts): Figures {
  const figures = { ...counts } as Figures;
  for (const [key, [part, whole]] of Object.entries(PERCENTS) as Array<
    [keyof typeof PERCENTS, readonly [keyof Counts, keyof Counts]]
  >)
    figures[key] = translationPercent(counts[part], counts[whole]);
  return figures;
}

/** Figures summed as Weblate's ComponentStats sums its translations. */
export function sum(parts: Figures[]): Figures {
  const counts = {} as Counts;
  for (const key of COUNTS) counts[key] = parts.reduce((total, p) => total + p[key], 0);
  return withPercents(counts);
}

/** `figures` less those of `parts`; with no parts, `figures` as Weblate gave them. */
export function less(figures: Figures, parts: Figures[]): Figures {
  if (parts.length === 0) return figures;
  const taken = sum(parts);
  const counts = {} as Counts;
  for (const key of COUNTS) counts[key] = figures[key] - taken[key];
  return withPercents(counts);
}

/** What Weblate's statistics say of a project's translations, read at one moment. */
export interface WeblateState {
  project: WeblateStatistics;
  /** /api/projects/<p>/languages/, by code. */
  languages: Map<string, WeblateStatistics>;
  /** By component slug: its source translation, and its translations by language code. */
  components: Map<string, WeblateComponent>;
}

export interface WeblateComponent {
  sourceLanguage: string;
  source: Figures;
  translations: Map<string, WeblateStatistics>;
}

export async function readProjectStatistics(api: TierApi, project: string): Promise<WeblateState> {
  const components = new Map<string, WeblateComponent>();
  for (const c of await api.listAll<{ slug: string; source_language: { code: string } }>(
    `projects/${project}/components/`,
  )) {
    const listed = await api.listAll<WeblateStatistics>(
      `components/${project}/${c.slug}/statistics/`,
    );
    const source = listed.find((t) => t.code === c.source_language.code);
    if (source === undefined) throw new Error(`no source translation of ${c.slug}`);
    const translations = new Map<string, WeblateStatistics>();
    for (const t of listed) {
      if (t === source) continue;
      // Each translation's own endpoint, which the per-translation figures are compared with.
      translations.set(
        t.code!,
        await api.get<WeblateStatistics>(`translations/${project}/${c.slug}/${t.code}/statistics/`),
      );
    }
    components.set(c.slug, {
      sourceLanguage: c.source_language.code,
      source: figuresOf(source),
      translations,
    });
  }
  const languages = await api.get<WeblateStatistics[]>(`projects/${project}/languages/`);
  return {
    project: await api.get<WeblateStatistics>(`projects/${project}/statistics/`),
    languages: new Map(languages.map((l) => [l.code!, l])),
    components,
  };
}
