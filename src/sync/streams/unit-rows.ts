import type { Transaction } from 'kysely';

import type { Database, RawJson } from '../../db/database.ts';
import { type UnitRow, upsertUnits } from '../../db/queries/records.ts';
import { pickNullable } from '../../lib/pick.ts';
import type { WeblateUnit } from '../../weblate/schemas.ts';
import { unitIdFromUrl, urlKey } from '../../weblate/urls.ts';
import { upsertIsolating } from '../commit.ts';
import type { SyncContext } from '../context.ts';
import type { Item } from '../read.ts';

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
    deleted_at: null,
    raw,
  };
}

/** Upserts units of translations this sync knows; others appeared during the sync and wait for the next. */
export async function storeUnits(
  ctx: SyncContext,
  trx: Transaction<Database>,
  items: Array<Item<WeblateUnit>>,
  url: string,
) {
  const rows: UnitRow[] = [];
  for (const { record, raw } of items) {
    const translation = ctx.lookup.translationsByUrl.get(urlKey(record.translation));
    if (translation === undefined) {
      ctx.tally.warn(
        `unit ${record.id} belongs to ${record.translation}, which this sync did not mirror (not listed when it started, or its record was rejected)`,
      );
      continue;
    }
    rows.push(toUnitRow(record, raw, translation.id));
  }
  return upsertIsolating(trx, rows, upsertUnits, () => ({ resource: 'units', url }));
}
