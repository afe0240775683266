import type { RawJson } from '../../db/database.ts';
import { type TranslationRow, upsertTranslations } from '../../db/queries/records.ts';
import { SyncError } from '../../errors.ts';
import { pickNullable } from '../../lib/pick.ts';
import { type WeblateTranslation, weblateTranslation } from '../../weblate/schemas.ts';
import { urlKey } from '../../weblate/urls.ts';
import type { SyncContext } from '../context.ts';
import { PAGE_SIZE, pagesFor, readObject, readPages } from '../read.ts';
import type { ComponentRef } from './components.ts';

/** A translation found in a component's list, with what the later stages need. */
export interface TranslationRef {
  id: number;
  url: string;
  /** The translation's `language_code` (may differ from its language's code, e.g. Android's `b+ach`). */
  languageCode: string;
  /** Code of the translation's language record, the key of languages and language statistics. */
  language: string;
  component: ComponentRef;
  /** Unit count according to the component's translation list (for the progress total). */
  listedTotal: number | null;
}

/** A translation as read in full: where its units and statistics are, and its unit count. */
export interface TranslationDetail extends TranslationRef {
  unitsUrl: string;
  statisticsUrl: string;
  total: number | null;
}

const TRANSLATION_FIELDS = [
  'filename',
  'revision',
  'web_url',
  'share_url',
  'translate_url',
  'url',
  'is_template',
  'is_source',
  'total',
  'total_words',
  'translated',
  'translated_words',
  'translated_percent',
  'fuzzy',
  'fuzzy_words',
  'fuzzy_percent',
  'failing_checks',
  'failing_checks_words',
  'failing_checks_percent',
  'have_suggestion',
  'have_comment',
  'last_change',
  'last_author',
  'repository_url',
  'file_url',
  'statistics_url',
  'changes_list_url',
  'units_list_url',
] as const satisfies ReadonlyArray<keyof WeblateTranslation & keyof TranslationRow>;

/** Transforms one translation record of `component` into its row (pure). */
export function toTranslationRow(
  record: WeblateTranslation,
  raw: RawJson,
  component: ComponentRef,
): TranslationRow {
  return {
    id: record.id,
    component_id: component.id,
    project_slug: component.projectSlug,
    component_slug: component.slug,
    language_code: record.language_code,
    language_id: record.language?.id ?? null,
    ...pickNullable(record, TRANSLATION_FIELDS),
    raw,
  };
}

/** Lists a component's translations (discovery only: each is then read in full). */
export async function listTranslations(
  ctx: SyncContext,
  component: ComponentRef,
): Promise<TranslationRef[]> {
  const refs: TranslationRef[] = [];
  const pages = readPages(ctx, component.translationsUrl, {
    resource: 'translations',
    schema: weblateTranslation,
    pageSize: PAGE_SIZE.standard,
  });
  for await (const { items } of pages) {
    for (const { record } of items) {
      const { id, url, language_code: languageCode } = record;
      const language = record.language?.code ?? languageCode;
      refs.push({ id, url, languageCode, language, component, listedTotal: record.total ?? null });
    }
  }
  return refs;
}

/** Pages one translation slice takes: its detail, its unit list and its statistics. */
export function slicePages(ref: TranslationRef): number {
  return 2 + pagesFor(ref.listedTotal ?? 0, PAGE_SIZE.standard);
}

/** Reads one translation in full and mirrors it (its pages were announced with the slice). */
export async function syncTranslation(
  ctx: SyncContext,
  ref: TranslationRef,
): Promise<TranslationDetail> {
  const { record, raw } = await readObject(ctx, ref.url, {
    resource: 'translations',
    schema: weblateTranslation,
    announcedPages: 1,
  });
  if (record.id !== ref.id || urlKey(record.url) !== urlKey(ref.url)) {
    throw new SyncError(
      `translations: ${ref.url} answered translation ${record.id} (${record.url}), not translation ${ref.id} listed ` +
        `by component ${ref.component.projectSlug}/${ref.component.slug}`,
    );
  }
  ctx.tally.wrote(
    'translations',
    await upsertTranslations(ctx.db, [toTranslationRow(record, raw, ref.component)]),
  );
  return {
    ...ref,
    unitsUrl: record.units_list_url ?? new URL('units/', record.url).href,
    statisticsUrl: record.statistics_url ?? new URL('statistics/', record.url).href,
    total: record.total ?? null,
  };
}
