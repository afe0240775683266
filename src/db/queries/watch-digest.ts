import type { Kysely } from 'kysely';

import type { Database } from '../database.ts';
import type { ReportFilter } from './report-scope.ts';

// Where a digest links into Weblate: the URLs the API gave for the projects and
// translations in scope, as the mirror keeps them.

export interface DigestProjectLink {
  project_slug: string;
  project_name: string;
  web_url: string | null;
}

export interface DigestTranslationLink {
  project_slug: string;
  component_slug: string;
  language_code: string;
  web_url: string | null;
  translate_url: string | null;
}

/** Names and web URLs of the live projects in the filter (every live project without one). */
export async function listDigestProjectLinks(
  db: Kysely<Database>,
  filter: ReportFilter,
): Promise<DigestProjectLink[]> {
  let query = db
    .selectFrom('weblate.projects')
    .select(['slug as project_slug', 'name as project_name', 'web_url'])
    .where('deleted_at', 'is', null);
  const projects = filter.projects ?? [];
  if (projects.length > 0) query = query.where('slug', 'in', [...projects]);
  return query.orderBy('slug').execute();
}

/** Web and translate URLs of the live translations in the filter that the API gave them. */
export async function listDigestTranslationLinks(
  db: Kysely<Database>,
  filter: ReportFilter,
): Promise<DigestTranslationLink[]> {
  let query = db
    .selectFrom('weblate.translations')
    .select(['project_slug', 'component_slug', 'language_code', 'web_url', 'translate_url'])
    .where('deleted_at', 'is', null)
    .where((eb) => eb.or([eb('web_url', 'is not', null), eb('translate_url', 'is not', null)]));
  const projects = filter.projects ?? [];
  if (projects.length > 0) query = query.where('project_slug', 'in', [...projects]);
  if (filter.language != null) query = query.where('language_code', '=', filter.language);
  if (filter.components != null) {
    if (filter.components.length === 0) return [];
    query = query.where('component_slug', 'in', [...filter.components]);
  }
  return query.execute();
}
