import { markUnitsMissingInRange } from '../../db/queries/deletions.ts';
import { pending } from '../../db/queries/sync-state.ts';
import { HttpError } from '../../errors.ts';
import { pipelined } from '../../lib/pipelined.ts';
import { type KeysetPage, walkKeyset } from '../../weblate/keyset.ts';
import { walkList } from '../../weblate/pagination.ts';
import { weblateUnit } from '../../weblate/schemas.ts';
import { urlKey } from '../../weblate/urls.ts';
import { commitPage } from '../commit.ts';
import type { SyncContext } from '../context.ts';
import { unlessGone } from '../not-found.ts';
import { checkPage, PAGE_SIZE } from '../read.ts';
import type { TranslationRef } from '../refs.ts';
import { storeUnits, unitRows, writeUnitRows } from './unit-rows.ts';

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
  await unlessGone(ctx, { table: 'translations', id: ref.id, label: ref.url }, async () => {
    if (options.byPages === true) return sweepByPages(ctx, ref);
    try {
      await sweepByKeyset(ctx, ref);
    } catch (err) {
      if (!(err instanceof HttpError && err.status === 400)) throw err;
      await sweepByPages(ctx, ref);
    }
  });
}

async function sweepByKeyset(ctx: SyncContext, ref: TranslationRef): Promise<void> {
  const pages = walkKeyset(ctx.client, ref.unitsUrl, {
    resource: 'units',
    pageSize: PAGE_SIZE.standard,
    q: null,
    after: null,
    signal: ctx.signal,
  });
  ctx.tally.expectPages(1);
  const prepare = (page: KeysetPage) => {
    if (page.through !== null) ctx.tally.expectPages(1);
    const checked = checkOwnUnits(ctx, ref, page.results, page.resultTexts, page.url);
    return { page, rejected: checked.rejected, rows: unitRows(ctx, checked.items) };
  };
  // Pages cover disjoint id ranges and no cursor is written, so their commits may overlap.
  await pipelined(
    pages,
    prepare,
    ({ page, rejected, rows }) =>
      commitPage(ctx, 'units', rejected, async (trx) => {
        const result = await writeUnitRows(trx, rows, page.url);
        await markUnitsMissingInRange(trx, { translationId: ref.id }, page, page.ids);
        await pending.namedUnits.settle(trx, page.ids);
        return result;
      }),
    ctx.overlapCommits,
  );
}

async function sweepByPages(ctx: SyncContext, ref: TranslationRef): Promise<void> {
  const seen: string[] = [];
  const pages = walkList(ctx.client, ref.unitsUrl, {
    resource: 'units',
    pageSize: PAGE_SIZE.standard,
    signal: ctx.signal,
  });
  for await (const page of pages) {
    const checked = checkOwnUnits(ctx, ref, page.results, page.resultTexts, page.url);
    seen.push(...checked.items.map((i) => i.record.id));
    await commitPage(ctx, 'units', checked.rejected, async (trx) => {
      const result = await storeUnits(ctx, trx, checked.items, page.url);
      if (page.isLast)
        await markUnitsMissingInRange(
          trx,
          { translationId: ref.id },
          { after: null, through: null },
          seen,
        );
      return result;
    });
  }
}

/** Validates a page of a translation's unit list; a unit of another translation is rejected. */
function checkOwnUnits(
  ctx: SyncContext,
  ref: TranslationRef,
  results: unknown[],
  texts: string[],
  url: string,
) {
  const checked = checkPage(ctx, { resource: 'units', schema: weblateUnit }, results, texts, url);
  const own = checked.items.filter((item) => urlKey(item.record.translation) === urlKey(ref.url));
  const foreign = checked.items
    .filter((item) => !own.includes(item))
    .map((item) => ({
      resource: 'units',
      url,
      reason: `unit ${item.record.id} is in the unit list of ${ref.url} but belongs to ${item.record.translation}`,
      raw: item.raw,
    }));
  return { items: own, rejected: [...checked.rejected, ...foreign] };
}
