import { markUnitsMissingInRange } from '../../db/queries/deletions.ts';
import { unitsRead } from '../../db/queries/pending-lifecycle.ts';
import { HttpError } from '../../errors.ts';
import { type WeblateUnit, weblateUnit } from '../../weblate/schemas.ts';
import { urlKey } from '../../weblate/urls.ts';
import type { SyncContext } from '../context.ts';
import { Listing, warnUnproven } from '../listing.ts';
import { idWindowRead, listRead, PAGE_SIZE } from '../reads.ts';
import type { TranslationRef } from '../refs.ts';
import { type ReadPage, runStream } from '../run-stream.ts';
import { unitRows, writeUnitRows } from './unit-rows.ts';

/**
 * Reads every unit of one translation and marks the ones it lacks as deleted. Walked by id
 * (`q=id:>K` on the translation's own list), so every page covers an id range and units
 * missing from it are gone; a server without `q` (`byPages` when that is known, else
 * learned from its 400) is walked page by page and the missing units are marked once the
 * list is complete. Every unit must belong to the translation whose list holds it.
 */
export async function sweepTranslation(
  ctx: SyncContext,
  ref: TranslationRef,
  options: { byPages?: boolean } = {},
): Promise<void> {
  if (options.byPages === true) return sweepByPages(ctx, ref);
  try {
    await sweepByKeyset(ctx, ref);
  } catch (err) {
    if (!(err instanceof HttpError && err.status === 400)) throw err;
    await sweepByPages(ctx, ref);
  }
}

async function sweepByKeyset(ctx: SyncContext, ref: TranslationRef): Promise<void> {
  const source = idWindowRead(ref.unitsUrl, { q: null, after: null, pageSize: PAGE_SIZE.standard });
  await runStream(ctx, source, {
    ...ownUnits(ctx, ref),
    // Pages cover disjoint id ranges and no cursor is written, so their commits may overlap.
    overlap: true,
    write: async (trx, rows, { page: { url, at }, copy }) => {
      const result = await writeUnitRows(trx, copy, rows, url);
      await markUnitsMissingInRange(trx, { translationId: ref.id }, at, at.ids);
      return { ...result, transitions: unitsRead(at.ids, { coversAll: false }) };
    },
  });
}

async function sweepByPages(ctx: SyncContext, ref: TranslationRef): Promise<void> {
  // Every unit the list shows, rejected ones too: a unit it lists is not deleted.
  const listing = new Listing();
  await runStream(ctx, listRead(ref.unitsUrl, PAGE_SIZE.standard), {
    ...ownUnits(ctx, ref),
    listing,
    write: async (trx, rows, { page: { url, at }, copy }) => {
      const result = await writeUnitRows(trx, copy, rows, url);
      if (at.isLast && listing.unproven === null) {
        const all = { after: null, through: null };
        await markUnitsMissingInRange(trx, { translationId: ref.id }, all, [...listing.ids]);
      }
      return result;
    },
  });
  warnUnproven(ctx, listing, 'units');
}

/**
 * The units of one translation's list: a unit that belongs to another translation is
 * rejected; a list that answers 404 is a translation deleted meanwhile (marked so).
 */
function ownUnits(ctx: SyncContext, ref: TranslationRef) {
  return {
    resource: 'units',
    schema: weblateUnit,
    notFound: { gone: { table: 'translations', id: ref.id, label: ref.url } },
    foreign: (unit: WeblateUnit) =>
      urlKey(unit.translation) === urlKey(ref.url)
        ? null
        : `unit ${unit.id} is in the unit list of ${ref.url} but belongs to ${unit.translation}`,
    prepare: ({ items }: ReadPage<WeblateUnit, unknown>) => unitRows(ctx, items),
  } as const;
}
