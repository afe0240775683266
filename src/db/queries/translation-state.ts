import { type Kysely, sql } from 'kysely';

import type { Database } from '../database.ts';
import { projectScope } from './live-objects.ts';

export interface UnitCountMismatch {
  id: number;
  total: number;
  live: number;
}

/** Live translations in scope whose live mirrored unit count differs from their total. */
export async function findUnitCountMismatches(
  db: Kysely<Database>,
  projectSlugs: readonly string[] | null,
): Promise<UnitCountMismatch[]> {
  const scope = projectScope('t', projectSlugs);
  const result = await sql<UnitCountMismatch>`
    select t.id, t.total, coalesce(u.live, 0)::int as live
    from weblate.translations t
    left join (select translation_id, count(*) as live from weblate.units where deleted_at is null group by translation_id) u
      on u.translation_id = t.id
    where t.deleted_at is null and t.total is not null and ${scope} and coalesce(u.live, 0) <> t.total
    order by t.id`.execute(db);
  return result.rows;
}

/**
 * Live units of translations in scope with an id up to `through`: what a unit walk that
 * stopped there has already stored, to tell how much is left when it resumes.
 */
export async function countLiveUnitsThrough(
  db: Kysely<Database>,
  projectSlugs: readonly string[] | null,
  through: string,
): Promise<number> {
  const scope = projectScope('t', projectSlugs);
  const result = await sql<{ n: string }>`
    select count(*) as n
    from weblate.units u join weblate.translations t on t.id = u.translation_id
    where u.deleted_at is null and u.id <= ${through}::bigint and ${scope}`.execute(db);
  return Number(result.rows[0]!.n);
}

/** A live translation with what a statistics snapshot needs of it, its component and language. */
export interface LiveTranslation {
  id: number;
  url: string | null;
  language_code: string;
  /** Code of the translation's language record, when it is mirrored. */
  language: string | null;
  total: number | null;
  units_list_url: string | null;
  statistics_url: string | null;
  language_statistics_url: string | null;
  component_id: number;
  component_slug: string;
  component_url: string | null;
  component_translations_url: string | null;
  component_statistics_url: string | null;
  project_id: number;
  project_slug: string;
}

/** Live translations of live components in scope (every project when `projectSlugs` is null), by id. */
export async function listLiveTranslations(
  db: Kysely<Database>,
  projectSlugs: readonly string[] | null,
): Promise<LiveTranslation[]> {
  const scope = projectScope('t', projectSlugs);
  const result = await sql<LiveTranslation>`
    select t.id, t.url, t.language_code, l.code as language, t.total, t.units_list_url,
      t.statistics_url, l.statistics_url as language_statistics_url,
      c.id as component_id, c.slug as component_slug, c.url as component_url,
      c.translations_url as component_translations_url,
      c.statistics_url as component_statistics_url, c.project_id, c.project_slug
    from weblate.translations t
    join weblate.components c on c.id = t.component_id and c.deleted_at is null
    left join weblate.languages l on l.id = t.language_id
    where t.deleted_at is null and ${scope}
    order by t.id`.execute(db);
  return result.rows;
}

/** What the live translations in a database hold: what `sync --dry-run` estimates from. */
export interface TranslationTotals {
  translations: number;
  /** The sum of their `total`: the units Weblate counts in them. */
  units: number;
  /** Components with a live translation: one statistics list each. */
  components: number;
  /** Languages with a live translation: one statistics object each. */
  languages: number;
}

export async function sumLiveTranslations(db: Kysely<Database>): Promise<TranslationTotals> {
  const result = await sql<{ [K in keyof TranslationTotals]: string }>`
    select count(*) as translations, coalesce(sum(total), 0) as units,
           count(distinct component_id) as components, count(distinct language_code) as languages
    from weblate.translations where deleted_at is null`.execute(db);
  const row = result.rows[0]!;
  return {
    translations: Number(row.translations),
    units: Number(row.units),
    components: Number(row.components),
    languages: Number(row.languages),
  };
}
