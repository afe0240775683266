import type { Kysely, Transaction } from 'kysely';

import type { CopyInto } from '../../db/copy.ts';
import type { Database, RawJson } from '../../db/database.ts';
import { type UnitRow, upsertUnits } from '../../db/queries/records.ts';
import type { WeblateUnit } from '../../weblate/schemas.ts';
import { unitIdFromUrl, urlKey } from '../../weblate/urls.ts';
import { upsertIsolating } from '../commit.ts';
import type { SyncContext } from '../context.ts';
import type { Item } from '../read.ts';
import type { TranslationRef } from '../refs.ts';

/**
 * Transforms one unit of the translation `translationId` into its row (pure). Written out
 * field by field: it runs for every unit of a sync, and a literal is several times faster
 * than copying fields in a loop.
 */
export function toUnitRow(record: WeblateUnit, raw: RawJson, translationId: number): UnitRow {
  return {
    id: record.id,
    translation_id: translationId,
    source: record.source,
    previous_source: record.previous_source ?? null,
    target: record.target,
    id_hash: record.id_hash,
    content_hash: record.content_hash,
    location: record.location ?? null,
    context: record.context ?? null,
    note: record.note ?? null,
    flags: record.flags ?? null,
    explanation: record.explanation ?? null,
    extra_flags: record.extra_flags ?? null,
    labels: record.labels ?? null,
    state: record.state,
    fuzzy: record.fuzzy ?? null,
    translated: record.translated ?? null,
    approved: record.approved ?? null,
    position: record.position ?? null,
    has_suggestion: record.has_suggestion ?? null,
    has_comment: record.has_comment ?? null,
    has_failing_check: record.has_failing_check ?? null,
    num_words: record.num_words ?? null,
    source_unit_id: unitIdFromUrl(record.source_unit),
    priority: record.priority ?? null,
    web_url: record.web_url ?? null,
    url: record.url ?? null,
    pending: record.pending ?? null,
    timestamp: record.timestamp ?? null,
    last_updated: record.last_updated ?? null,
    automatically_translated: record.automatically_translated ?? null,
    deleted_at: null,
    raw,
  };
}

/**
 * Rows for the units of translations this sync knows (pure CPU work, done while the
 * previous page is being written); units of others appeared during the sync and wait for
 * the next one.
 */
export function unitRows(ctx: SyncContext, items: Array<Item<WeblateUnit>>): UnitRow[] {
  const rows: UnitRow[] = [];
  // A page repeats a few translation URLs thousands of times: parse each once.
  const translations = new Map<string, TranslationRef | undefined>();
  for (const { record, raw } of items) {
    let translation = translations.get(record.translation);
    if (!translations.has(record.translation)) {
      translation = ctx.lookup.translationsByUrl.get(urlKey(record.translation));
      translations.set(record.translation, translation);
    }
    if (translation === undefined) {
      ctx.warn(
        'unit of a translation not mirrored: skipped',
        `unit ${record.id} belongs to ${record.translation}, which this sync did not mirror (not listed when it started, or its record was rejected)`,
      );
      continue;
    }
    rows.push(toUnitRow(record, raw, translation.id));
  }
  return rows;
}

/** Upserts unit rows in the page's transaction (by COPY where it has `copy`). */
export function writeUnitRows(
  trx: Transaction<Database>,
  copy: CopyInto | null,
  rows: UnitRow[],
  url: string,
) {
  const upsert = (db: Kysely<Database>, batch: UnitRow[]) => upsertUnits(db, batch, copy);
  return upsertIsolating(trx, rows, upsert, () => ({ resource: 'units', url }));
}
