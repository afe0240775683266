import type { RawJson } from '../../db/database.ts';
import { type LanguageRow, upsertLanguages } from '../../db/queries/records.ts';
import { type WeblateLanguage, weblateLanguage } from '../../weblate/schemas.ts';
import { commitPage, upsertIsolating } from '../commit.ts';
import type { SyncContext } from '../context.ts';
import { PAGE_SIZE, readPages } from '../read.ts';

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
  const spec = {
    resource: 'languages',
    schema: weblateLanguage,
    isDiscovery: true,
    pageSize: PAGE_SIZE.standard,
  } as const;
  for await (const { items, rejected, page } of readPages(ctx, 'languages/', spec)) {
    for (const { record } of items) statisticsUrls.set(record.code, record.statistics_url ?? null);
    const rows = items.map((i) => toLanguageRow(i.record, i.raw));
    await commitPage(ctx, 'languages', rejected, (trx) =>
      upsertIsolating(trx, rows, upsertLanguages, () => ({ resource: 'languages', url: page.url })),
    );
  }
  return statisticsUrls;
}
