import type { Kysely, Transaction } from 'kysely';

import type { Database, RawJson } from '../../db/database.ts';
import { retireReplaced } from '../../db/queries/deletions.ts';
import { type TranslationRow, upsertTranslations } from '../../db/queries/records.ts';
import { pending } from '../../db/queries/sync-state.ts';
import { pickNullable } from '../../lib/pick.ts';
import { type WeblateTranslation, weblateTranslation } from '../../weblate/schemas.ts';
import { urlKey } from '../../weblate/urls.ts';
import { commitPage, upsertIsolating } from '../commit.ts';
import type { SyncContext } from '../context.ts';
import { Listing, markUnlisted } from '../listing.ts';
import { type Listed, unlessGone } from '../not-found.ts';
import { type Item, PAGE_SIZE, readPages } from '../read.ts';
import type { ComponentRef, TranslationRef } from '../refs.ts';

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
  return {
    id: record.id,
    url: record.url,
    languageCode: record.language_code,
    language: record.language?.code ?? record.language_code,
    component,
    total: record.total ?? null,
    unitsUrl: record.units_list_url ?? new URL('units/', record.url).href,
    statisticsUrl: record.statistics_url ?? new URL('statistics/', record.url).href,
  };
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
  if (ctx.scope.projects === null) {
    const listing = new Listing();
    const refs = await readTranslations(
      ctx,
      'translations/',
      (item) => ctx.lookup.componentsById.get(item.record.component?.id ?? -1) ?? null,
      listing,
    );
    await markUnlisted(ctx, listing, 'translations', null);
    return refs;
  }
  const found: TranslationRef[] = [];
  for (const component of components) {
    const listed = await unlessGone(ctx, componentListed(component), () =>
      syncComponentTranslations(ctx, component),
    );
    found.push(...(listed ?? []));
  }
  return found;
}

function componentListed(component: ComponentRef): Listed {
  const label = `component ${component.projectSlug}/${component.slug}`;
  return { table: 'components', id: component.id, label };
}

/** One component's translations, from its own list; those it no longer has are marked deleted. */
async function syncComponentTranslations(
  ctx: SyncContext,
  component: ComponentRef,
): Promise<TranslationRef[]> {
  const listing = new Listing();
  const listed = await readTranslations(ctx, component.translationsUrl, () => component, listing);
  const scope = { column: 'component_id', value: String(component.id) };
  await markUnlisted(ctx, listing, 'translations', scope);
  return listed;
}

async function readTranslations(
  ctx: SyncContext,
  url: string,
  componentOf: (item: Item<WeblateTranslation>) => ComponentRef | null,
  listing: Listing,
): Promise<TranslationRef[]> {
  const found: TranslationRef[] = [];
  const spec = {
    resource: 'translations',
    schema: weblateTranslation,
    isDiscovery: true,
    pageSize: PAGE_SIZE.standard,
    listing,
  } as const;
  for await (const { page, items, rejected } of readPages(ctx, url, spec)) {
    const placed = items.flatMap((item) => {
      const component = componentOf(item);
      if (component !== null) return [{ item, component }];
      ctx.warn(
        'translation of a component not stored: skipped',
        `translation ${item.record.url} belongs to a component this sync did not store (it appeared during the sync, or its record was rejected): not mirrored in this run`,
      );
      return [];
    });
    await commitPage(ctx, 'translations', rejected, (trx) =>
      storeTranslations(ctx, trx, placed, page.url),
    );
    for (const { item, component } of placed)
      found.push(remember(ctx, toRef(item.record, component)));
  }
  return found;
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
  placed: Array<{ item: Item<WeblateTranslation>; component: ComponentRef }>,
  url: string,
) {
  const rows = placed.map(({ item, component }) =>
    toTranslationRow(item.record, item.raw, component),
  );
  await retireReplaced(trx, 'translations', rows);
  const moved: number[] = [];
  const upsert = async (db: Kysely<Database>, batch: TranslationRow[]) => {
    const written = await upsertTranslations(db, batch);
    moved.push(...written);
    return written.length;
  };
  const result = await upsertIsolating(trx, rows, upsert, () => ({
    resource: 'translations',
    url,
  }));
  await pending.movedTranslations.note(trx, ctx.mode === 'full' ? rows.map((r) => r.id) : moved);
  return result;
}

function remember(ctx: SyncContext, ref: TranslationRef): TranslationRef {
  ctx.lookup.translationsById.set(ref.id, ref);
  ctx.lookup.translationsByUrl.set(urlKey(ref.url), ref);
  return ref;
}
