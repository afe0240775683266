import type { Kysely, Transaction } from 'kysely';

import type { CopyInto } from '../../db/copy.ts';
import type { Database, RawJson } from '../../db/database.ts';
import { retireReplaced } from '../../db/queries/deletions.ts';
import { translationsStored } from '../../db/queries/pending-lifecycle.ts';
import { type TranslationRow, upsertTranslations } from '../../db/queries/records.ts';
import { pickNullable } from '../../lib/pick.ts';
import { type WeblateTranslation, weblateTranslation } from '../../weblate/schemas.ts';
import { upsertIsolating } from '../commit.ts';
import type { SyncContext } from '../context.ts';
import { Listing, markUnlisted } from '../listing.ts';
import { learnTranslation } from '../mirrored.ts';
import type { Item } from '../read.ts';
import { listRead, PAGE_SIZE } from '../reads.ts';
import { type ComponentRef, type TranslationRef, translationRef } from '../refs.ts';
import { runStream, type Stream } from '../run-stream.ts';

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
    deleted_at: null,
    raw,
  };
}

function toRef(record: WeblateTranslation, component: ComponentRef): TranslationRef {
  return translationRef({
    id: record.id,
    url: record.url,
    languageCode: record.language_code,
    language: record.language?.code ?? record.language_code,
    component,
    total: record.total ?? null,
    unitsUrl: record.units_list_url ?? new URL('units/', record.url).href,
    statisticsUrl: record.statistics_url ?? new URL('statistics/', record.url).href,
  });
}

/**
 * Mirrors the translations in scope from their lists (the global /api/translations/ when
 * every project is in scope, else each component's list): no request per translation. A
 * translation whose record moved (or every one, in a full sync) is noted as pending. A
 * complete listing marks the translations it lacks as deleted; a component whose list
 * answers 404 was deleted meanwhile (marked so, with its translations).
 */
export async function syncTranslations(
  ctx: SyncContext,
  components: ComponentRef[],
): Promise<TranslationRef[]> {
  const found: TranslationRef[] = [];
  if (ctx.scope.projects === null) {
    const listing = new Listing();
    const componentOf = (record: WeblateTranslation) =>
      ctx.lookup.componentsById.get(record.component?.id ?? -1) ?? null;
    const stream = translationStream(ctx, componentOf, found, listing);
    await runStream(
      ctx,
      listRead('translations/', PAGE_SIZE.standard, { sideBySide: true }),
      stream,
    );
    await markUnlisted(ctx, listing, 'translations', null);
    return found;
  }
  for (const component of components) await syncComponentTranslations(ctx, component, found);
  return found;
}

/**
 * Mirrors one component's translation list; once it is complete, the component's
 * translations it lacks are marked deleted. A component whose list answers 404 was deleted
 * meanwhile (marked so, with its translations).
 */
export async function syncComponentTranslations(
  ctx: SyncContext,
  component: ComponentRef,
  found: TranslationRef[] = [],
): Promise<TranslationRef[]> {
  const listing = new Listing();
  const label = `component ${component.projectSlug}/${component.slug}`;
  const complete = await runStream(ctx, listRead(component.translationsUrl, PAGE_SIZE.standard), {
    ...translationStream(ctx, () => component, found, listing),
    notFound: { gone: { table: 'components', id: component.id, label } },
  });
  const scope = { column: 'component_id', value: String(component.id) };
  if (complete) await markUnlisted(ctx, listing, 'translations', scope);
  return found;
}

interface Placed {
  item: Item<WeblateTranslation>;
  component: ComponentRef;
}

/**
 * The translations stream: each record is placed in its component (one this sync stored,
 * else it waits for the next sync), and the lookup learns it once its page is committed.
 */
function translationStream(
  ctx: SyncContext,
  componentOf: (record: WeblateTranslation) => ComponentRef | null,
  found: TranslationRef[],
  listing: Listing,
) {
  return {
    resource: 'translations',
    schema: weblateTranslation,
    isDiscovery: true,
    listing,
    prepare: ({ items }) =>
      items.flatMap((item) => {
        const component = componentOf(item.record);
        if (component !== null) return [{ item, component }];
        ctx.warn(
          'translation of a component not stored: skipped',
          `translation ${item.record.url} belongs to a component this sync did not store (it appeared during the sync, or its record was rejected): not mirrored in this run`,
        );
        return [];
      }),
    write: (trx, placed, { page, copy }) => storeTranslations(ctx, trx, placed, page.url, copy),
    committed: (placed) => {
      for (const { item, component } of placed)
        found.push(learnTranslation(ctx.lookup, toRef(item.record, component)));
    },
  } satisfies Stream<WeblateTranslation, unknown, Placed[]>;
}

/**
 * Upserts a page of translations. The upsert skips rows whose every value is unchanged, so
 * the rows it writes are exactly the translations whose list record moved (last_change,
 * total, revision, counts, comments, suggestions…): those, or all in a full sync, are
 * noted as pending in the same transaction so their units and statistics are read even if
 * the run stops before that. A live row the page's translations replace is marked deleted
 * first (see retireReplaced).
 */
async function storeTranslations(
  ctx: SyncContext,
  trx: Transaction<Database>,
  placed: Placed[],
  url: string,
  copy: CopyInto | null,
) {
  const rows = placed.map(({ item, component }) =>
    toTranslationRow(item.record, item.raw, component),
  );
  await retireReplaced(trx, 'translations', rows);
  const moved: number[] = [];
  const upsert = async (db: Kysely<Database>, batch: TranslationRow[]) => {
    // The global list nests each translation's component, a component's own list does not:
    // with every project in scope, raw gets it as the global list would give it.
    const shape = ctx.scope.projects === null ? ({ nestComponent: true } as const) : null;
    const written = await upsertTranslations(db, batch, shape, copy);
    moved.push(...written);
    return written.length;
  };
  const result = await upsertIsolating(trx, rows, upsert, () => ({
    resource: 'translations',
    url,
  }));
  const listed = rows.map((r) => r.id);
  const everyOne = ctx.reading.recheckEveryTranslation;
  return { ...result, transitions: translationsStored(listed, moved, { everyOne }) };
}
