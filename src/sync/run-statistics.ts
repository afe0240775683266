import { listLiveTranslations, type LiveTranslation } from '../db/queries/translation-state.ts';
import type { SyncContext, SyncDeps } from './context.ts';
import type { ComponentRef, TranslationRef } from './refs.ts';
import { recordRun, type RunOptions, type RunResult } from './run-record.ts';
import { snapshotTranslations, syncLanguageStatistics } from './streams/statistics.ts';

/**
 * A statistics snapshot of every live translation in scope and of their languages, whether
 * or not anything moved, recorded in weblate.sync_runs with kind `statistics`. The history
 * gains a row only where a value changed; otherwise the latest row's `last_seen_at` moves,
 * which shows the value still held at that time. The translations are those the mirror holds:
 * the snapshot lists nothing and marks nothing deleted by listing (a translation whose
 * statistics answer 404 is marked deleted, as in a sync), and it leaves the pending work of
 * syncs alone. Never throws for a failed snapshot: the result says what happened.
 */
export function runStatisticsSnapshot(
  deps: SyncDeps,
  options: RunOptions = {},
): Promise<RunResult> {
  // Stages read `mode` only to decide what a listing marks deleted, and a snapshot lists nothing.
  return recordRun(deps, { kind: 'statistics', mode: 'incremental' }, options, snapshotEverything);
}

async function snapshotEverything(ctx: SyncContext): Promise<void> {
  const live = await listLiveTranslations(ctx.db, ctx.scope.projects);
  const translations = toTranslationRefs(live);
  await snapshotTranslations(ctx, translations, { settlesPending: false });
  const languageUrls = new Map<string, string | null>();
  for (const [i, row] of live.entries()) {
    const code = translations[i]!.language;
    if (!languageUrls.has(code) || row.language_statistics_url !== null)
      languageUrls.set(code, row.language_statistics_url);
  }
  await syncLanguageStatistics(ctx, languageUrls);
}

/**
 * References as discovery would have built them, from the mirrored rows; one ComponentRef
 * object per component (snapshots group by it). Paths relative to /api/ stand in for URLs
 * an older server did not send.
 */
export function toTranslationRefs(rows: readonly LiveTranslation[]): TranslationRef[] {
  const components = new Map<number, ComponentRef>();
  return rows.map((row) => {
    const path = `${encodeURIComponent(row.project_slug)}/${encodeURIComponent(row.component_slug)}/`;
    let component = components.get(row.component_id);
    if (component === undefined) {
      component = {
        id: row.component_id,
        slug: row.component_slug,
        projectId: row.project_id,
        projectSlug: row.project_slug,
        url: row.component_url,
        translationsUrl: row.component_translations_url ?? `components/${path}translations/`,
        statisticsUrl: row.component_statistics_url ?? `components/${path}statistics/`,
      };
      components.set(row.component_id, component);
    }
    const url = row.url ?? `translations/${path}${encodeURIComponent(row.language_code)}/`;
    return {
      id: row.id,
      url,
      languageCode: row.language_code,
      language: row.language ?? row.language_code,
      component,
      total: row.total,
      unitsUrl: row.units_list_url ?? `${url}units/`,
      statisticsUrl: row.statistics_url ?? `${url}statistics/`,
    };
  });
}
