import type { Transaction } from 'kysely';

import type { Database, RawJson } from '../../db/database.ts';
import {
  languagesDue,
  languagesRead,
  snapshotsDeferred,
  snapshotsDue,
  snapshotsTaken,
} from '../../db/queries/pending-lifecycle.ts';
import {
  findLaggingLanguages,
  isStaleLanguageAnswer,
  type LanguageStatisticsRow,
  recordLanguageStatistics,
  recordTranslationStatistics,
  STATISTICS_VALUE_COLUMNS,
  type TranslationStatisticsRow,
} from '../../db/queries/statistics.ts';
import { applyTransitions, pending } from '../../db/queries/sync-state.ts';
import { pickNullable } from '../../lib/pick.ts';
import { forEachLimited } from '../../lib/task-group.ts';
import { type WeblateStatistics, weblateStatistics } from '../../weblate/schemas.ts';
import { commitState } from '../commit.ts';
import type { SyncContext } from '../context.ts';
import type { Item } from '../read.ts';
import { listRead, objectRead, PAGE_SIZE } from '../reads.ts';
import type { ComponentRef, TranslationRef } from '../refs.ts';
import { runStream } from '../run-stream.ts';

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
  translation: TranslationRef,
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

/**
 * Snapshots the statistics of every pending translation (one that moved, or all of them
 * in a full sync) and of their languages. Each translation leaves the pending list in the
 * transaction that records its snapshot.
 */
export async function syncStatistics(
  ctx: SyncContext,
  languageUrls: Map<string, string | null>,
  { deferSnapshots = false }: { deferSnapshots?: boolean } = {},
): Promise<void> {
  const moved = (await pending.movedTranslations.list(ctx.db)).map(Number);
  if (deferSnapshots) {
    // Owed to the next sync that reads statistics, with their languages' sums.
    await commitState(ctx, 'translation_statistics', snapshotsDeferred(moved));
    return;
  }
  const owed = (await pending.owedSnapshots.list(ctx.db)).map(Number);
  const due = snapshotsDue(moved, owed, (id) => ctx.lookup.translationsById.get(id));
  // Pending translations this sync did not list are gone or out of scope: nothing to read.
  await applyTransitions(ctx.db, snapshotsTaken(due.gone));
  const known = due.read;
  const languages = new Set(known.map((t) => t.language));
  const languageIds = (await languagesBy(ctx, { codes: [...languages] })).map((l) => l.id);
  if (languageIds.length > 0) {
    await commitState(ctx, 'language_statistics', languagesDue(languageIds));
  }
  await snapshotTranslations(ctx, known, { settlesPending: true });
  const pendingLanguages = (await pending.staleLanguages.list(ctx.db)).map(Number);
  for (const { code } of await languagesBy(ctx, { ids: pendingLanguages })) languages.add(code);
  await syncLanguageStatistics(
    ctx,
    new Map([...languages].map((code) => [code, languageUrls.get(code) ?? null])),
  );
  // A language whose sums lag its translations stays pending, to be read again next run.
  await commitState(ctx, 'language_statistics', async (trx) => {
    const lagging = await findLaggingLanguages(trx, [...languages]);
    if (lagging.length > 0) {
      ctx.log.info({ languages: lagging }, 'language statistics lag their translations');
    }
    return { transitions: languagesRead(pendingLanguages, lagging) };
  });
}

export interface SnapshotOptions {
  /**
   * Whether each snapshot also takes its translation off the pending list. Only a sync may:
   * the pending list also tells its unit stage which translations moved, so a snapshot
   * outside a sync leaves it alone.
   */
  settlesPending: boolean;
}

/**
 * Snapshots the statistics of the given translations: a component's statistics list gives
 * all its translations in one request (up to 10,000); a translation it lacks is read on its
 * own. Components are read side by side, as many as the client has requests in flight,
 * each committing its own snapshots. A snapshot row is appended only where a value changed
 * (see recordSnapshots).
 */
export async function snapshotTranslations(
  ctx: SyncContext,
  translations: readonly TranslationRef[],
  options: SnapshotOptions,
): Promise<void> {
  const byComponent = new Map<ComponentRef, TranslationRef[]>();
  for (const t of translations)
    byComponent.set(t.component, [...(byComponent.get(t.component) ?? []), t]);
  await forEachLimited([...byComponent], ctx.client.concurrency, ([component, ofComponent]) =>
    snapshotComponent(ctx, component, ofComponent, options),
  );
}

/** The mirrored languages whose id, or code, is among `keys`. */
async function languagesBy(
  ctx: SyncContext,
  keys: { ids: readonly number[] } | { codes: readonly string[] },
): Promise<Array<{ id: number; code: string }>> {
  const [column, values] =
    'ids' in keys ? (['id', keys.ids] as const) : (['code', keys.codes] as const);
  if (values.length === 0) return [];
  const rows = await ctx.db
    .selectFrom('weblate.languages')
    .select(['id', 'code'])
    .where(column, 'in', values)
    .execute();
  return rows.map((r) => ({ id: Number(r.id), code: r.code }));
}

async function snapshotComponent(
  ctx: SyncContext,
  component: ComponentRef,
  translations: TranslationRef[],
  options: SnapshotOptions,
): Promise<void> {
  const byLanguage = new Map(translations.map((t) => [t.language, t]));
  const capture = { capturedAt: ctx.now().toISOString(), runId: ctx.runId };
  await runStream(ctx, listRead(component.statisticsUrl, PAGE_SIZE.large), {
    ...translationStatisticsStream(capture, options),
    prepare: ({ items }) =>
      items.flatMap((item) => {
        const translation = byLanguage.get(item.record.code ?? '');
        return translation === undefined ? [] : [{ item, translation }];
      }),
    committed: (matched) => {
      for (const { translation } of matched) byLanguage.delete(translation.language);
    },
    // An older server without component statistics lists: what no list brought is read
    // below, one request per translation.
    notFound: { fallback: () => Promise.resolve(false) },
  });
  for (const translation of byLanguage.values())
    await snapshotTranslation(ctx, translation, { capture, ...options });
}

interface Matched {
  item: Item<WeblateStatistics>;
  translation: TranslationRef;
}

/** Translation statistics, each page appended as snapshots (and settling its pending translations). */
function translationStatisticsStream(capture: Capture, options: SnapshotOptions) {
  return {
    resource: 'translation_statistics',
    schema: weblateStatistics,
    write: async (trx: Transaction<Database>, matched: Matched[]) => {
      const rows = matched.map(({ item, translation }) =>
        toTranslationStatisticsRow(item.record, item.raw, translation, capture),
      );
      const result = await recordTranslationStatistics(trx, rows);
      const read = matched.map((m) => m.translation.id);
      return {
        written: result.appended,
        transitions: options.settlesPending ? snapshotsTaken(read) : [],
      };
    },
  } as const;
}

async function snapshotTranslation(
  ctx: SyncContext,
  translation: TranslationRef,
  options: SnapshotOptions & { capture: Capture },
): Promise<void> {
  const label = translation.url;
  const read = await runStream(ctx, objectRead(translation.statisticsUrl), {
    ...translationStatisticsStream(options.capture, options),
    prepare: ({ items }) => items.map((item) => ({ item, translation })),
    notFound: { gone: { table: 'translations', id: translation.id, label } },
  });
  if (!read && options.settlesPending) {
    await applyTransitions(ctx.db, snapshotsTaken([translation.id]));
  }
}

/**
 * Snapshots the statistics of the given languages (instance-wide sums), side by side as
 * above. A language Weblate no longer knows (404) is skipped with a warning: its
 * translations went away.
 */
export async function syncLanguageStatistics(
  ctx: SyncContext,
  urls: Map<string, string | null>,
): Promise<void> {
  const capture = { capturedAt: ctx.now().toISOString(), runId: ctx.runId };
  await forEachLimited([...urls], ctx.client.concurrency, async ([code, url]) => {
    const source = objectRead(url ?? `languages/${encodeURIComponent(code)}/statistics/`);
    await runStream(ctx, source, {
      resource: 'language_statistics',
      schema: weblateStatistics,
      prepare: ({ items }) => items,
      write: async (trx, items) => {
        const fresh: typeof items = [];
        for (const item of items) {
          if (await isStaleLanguageAnswer(trx, code, item.record.last_change ?? null)) {
            ctx.log.info(
              { language: code, lastChange: item.record.last_change },
              'language statistics older than its translations: not recorded',
            );
          } else fresh.push(item);
        }
        const result = await recordLanguageStatistics(
          trx,
          fresh.map((i) => toLanguageStatisticsRow(i.record, i.raw, code, capture)),
        );
        return { written: result.appended };
      },
      notFound: {
        skip: {
          event: 'language statistics gone: skipped',
          message: `language_statistics: ${code} is not known to the server any more (404)`,
          fields: { language: code },
        },
      },
    });
  });
}
