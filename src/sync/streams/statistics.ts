import type { RawJson } from '../../db/database.ts';
import {
  type LanguageStatisticsRow,
  recordLanguageStatistics,
  recordTranslationStatistics,
  STATISTICS_VALUE_COLUMNS,
  type TranslationStatisticsRow,
} from '../../db/queries/statistics.ts';
import { HttpError } from '../../errors.ts';
import { pickNullable } from '../../lib/pick.ts';
import { type WeblateStatistics, weblateStatistics } from '../../weblate/schemas.ts';
import type { SyncContext } from '../context.ts';
import { readObject } from '../read.ts';
import type { TranslationDetail } from './translations.ts';

interface Capture {
  capturedAt: string;
  runId: number | null;
}

/** Every statistic value, null where the server sent none (older servers send fewer). */
function values(record: WeblateStatistics) {
  return pickNullable(record, STATISTICS_VALUE_COLUMNS);
}

/** Transforms a translation's statistics into a snapshot row (pure). */
export function toTranslationStatisticsRow(
  record: WeblateStatistics,
  raw: RawJson,
  translation: TranslationDetail,
  capture: Capture,
): TranslationStatisticsRow {
  return {
    translation_id: translation.id,
    captured_at: capture.capturedAt,
    last_seen_at: capture.capturedAt,
    run_id: capture.runId,
    project_slug: translation.component.projectSlug,
    component_slug: translation.component.slug,
    language_code: translation.languageCode,
    ...values(record),
    code: record.code ?? null,
    name: record.name ?? null,
    url: record.url ?? null,
    translate_url: record.translate_url ?? null,
    raw,
  };
}

/** Transforms a language's statistics into a snapshot row (pure). */
export function toLanguageStatisticsRow(
  record: WeblateStatistics,
  raw: RawJson,
  languageCode: string,
  capture: Capture,
): LanguageStatisticsRow {
  return {
    language_code: languageCode,
    captured_at: capture.capturedAt,
    last_seen_at: capture.capturedAt,
    run_id: capture.runId,
    ...values(record),
    name: record.name ?? null,
    url: record.url ?? null,
    raw,
  };
}

/** Snapshots one translation's statistics into its history. */
export async function syncTranslationStatistics(
  ctx: SyncContext,
  translation: TranslationDetail,
): Promise<void> {
  const spec = {
    resource: 'translation_statistics',
    schema: weblateStatistics,
    announcedPages: 1,
  } as const;
  const { record, raw } = await readObject(ctx, translation.statisticsUrl, spec);
  const capture = { capturedAt: ctx.now().toISOString(), runId: ctx.runId };
  const result = await recordTranslationStatistics(ctx.db, [
    toTranslationStatisticsRow(record, raw, translation, capture),
  ]);
  ctx.tally.wrote('translation_statistics', result.appended);
}

/**
 * Snapshots the statistics of every language that has translations in scope. A language
 * Weblate no longer knows (404) is skipped with a warning: its translations went away.
 */
export async function syncLanguageStatistics(
  ctx: SyncContext,
  urls: Map<string, string | null>,
): Promise<void> {
  const spec = { resource: 'language_statistics', schema: weblateStatistics } as const;
  const rows: LanguageStatisticsRow[] = [];
  await Promise.all(
    [...urls].map(async ([code, url]) => {
      try {
        const { record, raw } = await readObject(
          ctx,
          url ?? `languages/${encodeURIComponent(code)}/statistics/`,
          spec,
        );
        rows.push(
          toLanguageStatisticsRow(record, raw, code, {
            capturedAt: ctx.now().toISOString(),
            runId: ctx.runId,
          }),
        );
      } catch (err) {
        if (!(err instanceof HttpError && err.status === 404)) throw err;
        ctx.tally.warn(`language_statistics: ${code} is not known to the server any more (404)`);
      }
    }),
  );
  const result = await recordLanguageStatistics(ctx.db, rows);
  ctx.tally.wrote('language_statistics', result.appended);
}
