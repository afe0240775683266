import type { RawJson } from '../../db/database.ts';
import { type LanguageRow, upsertLanguages } from '../../db/queries/records.ts';
import { type WeblateLanguage, weblateLanguage } from '../../weblate/schemas.ts';
import { upsertIsolating } from '../commit.ts';
import type { SyncContext } from '../context.ts';
import { listRead, PAGE_SIZE } from '../reads.ts';
import { runStream } from '../run-stream.ts';

/** Transforms one language record into its row (pure). */
export function toLanguageRow(record: WeblateLanguage, raw: RawJson): LanguageRow {
  return {
    code: record.code,
    id: record.id,
    name: record.name,
    direction: record.direction ?? null,
    population: record.population ?? null,
    aliases: record.aliases ?? null,
    plural_id: record.plural?.id ?? null,
    plural_source: record.plural?.source ?? null,
    plural_number: record.plural?.number ?? null,
    plural_formula: record.plural?.formula ?? null,
    plural_type: record.plural?.type ?? null,
    web_url: record.web_url ?? null,
    url: record.url ?? null,
    statistics_url: record.statistics_url ?? null,
    raw,
  };
}

/** Mirrors /api/languages/ (one or two requests); returns each language's statistics URL by code. */
export async function syncLanguages(ctx: SyncContext): Promise<Map<string, string | null>> {
  const statisticsUrls = new Map<string, string | null>();
  await runStream(ctx, listRead('languages/', PAGE_SIZE.standard, { sideBySide: true }), {
    resource: 'languages',
    schema: weblateLanguage,
    isDiscovery: true,
    prepare: ({ items }) => items,
    write: (trx, items, { page }) =>
      upsertIsolating(
        trx,
        items.map((i) => toLanguageRow(i.record, i.raw)),
        upsertLanguages,
        () => ({
          resource: 'languages',
          url: page.url,
        }),
      ),
    committed: (items) => {
      for (const { record } of items)
        statisticsUrls.set(record.code, record.statistics_url ?? null);
    },
  });
  return statisticsUrls;
}
