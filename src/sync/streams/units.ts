import type { RawJson } from '../../db/database.ts';
import { type UnitRow, upsertUnits } from '../../db/queries/records.ts';
import { TransformError } from '../../errors.ts';
import { pickNullable } from '../../lib/pick.ts';
import { type WeblateUnit, weblateUnit } from '../../weblate/schemas.ts';
import { unitIdFromUrl, urlKey } from '../../weblate/urls.ts';
import type { SyncContext } from '../context.ts';
import { PAGE_SIZE, pagesFor, readPages } from '../read.ts';
import type { TranslationDetail } from './translations.ts';

const UNIT_FIELDS = [
  'previous_source',
  'location',
  'context',
  'note',
  'flags',
  'explanation',
  'extra_flags',
  'labels',
  'fuzzy',
  'translated',
  'approved',
  'position',
  'has_suggestion',
  'has_comment',
  'has_failing_check',
  'num_words',
  'priority',
  'web_url',
  'url',
  'pending',
  'timestamp',
  'last_updated',
] as const satisfies ReadonlyArray<keyof WeblateUnit & keyof UnitRow>;

/** Transforms one unit of the translation `translationId` into its row (pure). */
export function toUnitRow(record: WeblateUnit, raw: RawJson, translationId: number): UnitRow {
  return {
    id: record.id,
    translation_id: translationId,
    source: record.source,
    target: record.target,
    id_hash: record.id_hash,
    content_hash: record.content_hash,
    state: record.state,
    source_unit_id: unitIdFromUrl(record.source_unit),
    ...pickNullable(record, UNIT_FIELDS),
    raw,
  };
}

/**
 * Mirrors a translation's units page by page. Every unit of the list must belong to the
 * translation (spec rule 2); a list whose count differs from the translation's `total`
 * (rule 4) is reported, since it means the translation changed while it was read.
 */
export async function syncUnits(ctx: SyncContext, translation: TranslationDetail): Promise<number> {
  const ownKey = urlKey(translation.url);
  let seen = 0;
  let count: number | null = null;
  const pages = readPages(ctx, translation.unitsUrl, {
    resource: 'units',
    schema: weblateUnit,
    pageSize: PAGE_SIZE.standard,
    announcedPages: pagesFor(translation.listedTotal ?? 0, PAGE_SIZE.standard),
  });
  for await (const { page, items } of pages) {
    count ??= page.count;
    for (const { record } of items) {
      if (urlKey(record.translation) !== ownKey) {
        throw new TransformError(
          `units: unit ${record.id} in the unit list of ${translation.url} belongs to ${record.translation}`,
        );
      }
    }
    seen += items.length;
    ctx.tally.wrote(
      'units',
      await upsertUnits(
        ctx.db,
        items.map((i) => toUnitRow(i.record, i.raw, translation.id)),
      ),
    );
  }
  if (translation.total !== null && (count !== translation.total || seen !== translation.total)) {
    const message = `units of ${translation.url}: the translation's total is ${translation.total}, its unit list counted ${count ?? 'nothing'} and ${seen} units were read (it changed during the sync; the next sync catches up)`;
    ctx.tally.warn(message);
    ctx.log.warn(
      { translation: translation.url, total: translation.total, count, seen },
      'unit count differs from total',
    );
  }
  return seen;
}
