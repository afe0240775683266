import type { Kysely } from 'kysely';

import type { Database } from '../db/database.ts';
import { findLiveProjects, hasReportingViews } from '../db/queries/report-scope.ts';
import type { ReadyFilter } from '../db/queries/watch-ready.ts';
import { UsageError } from '../errors.ts';
import { resolveCategory, resolveLabel } from '../report/resolve-scope.ts';
import type { ReadyScopeDescription } from './ready.ts';

// The scope of `ready` (and of any watch that takes --project, --category and --label as
// `report` does): checked against the mirror with the report's own look-ups, so that a name
// means the same strings in both (src/report/resolve-scope.ts).

export interface ScopeFlags {
  projects: string[];
  category: string | null;
  label: string | null;
}

export interface ResolvedScope {
  filter: ReadyFilter;
  description: ReadyScopeDescription;
}

/**
 * Refuses what the mirror cannot report on (no reporting views, an unknown project, category
 * or label) and gives the filter with the category and label looked up.
 */
export async function resolveReadyScope(
  db: Kysely<Database>,
  flags: ScopeFlags,
): Promise<ResolvedScope> {
  if (!(await hasReportingViews(db)))
    throw new Error(
      'this database has no reporting views yet: run `weblate-mirror migrate` (or a sync) first',
    );
  const live = await findLiveProjects(db, flags.projects);
  const unknown = flags.projects.filter((p) => !live.includes(p));
  if (unknown.length > 0)
    throw new UsageError(
      `--project: no live project ${unknown.map((p) => `"${p}"`).join(', ')} in the mirror`,
    );
  const category =
    flags.category === null ? null : await resolveCategory(db, flags.category, flags.projects);
  const projects = category === null ? flags.projects : [category.project];
  const label = flags.label === null ? null : await resolveLabel(db, flags.label, projects);
  return {
    filter: {
      projects,
      components: category?.components ?? null,
      labels: label?.ids ?? null,
    },
    description: {
      projects,
      category: category?.name ?? null,
      label: label === null ? null : label.matched.join(', '),
    },
  };
}

/** `--project a --project b,c` → [a, b, c], without repeats; `flag` names it in errors. */
export function listFlag(value: unknown, flag: string, pattern: RegExp): string[] {
  // Declared `multiple`, so parseArgs gives an array (a single string is accepted too).
  const given = Array.isArray(value) ? value : value === undefined ? [] : [value];
  const items = given.flatMap((v) => String(v).split(',')).map((s) => s.trim());
  const bad = items.find((s) => !pattern.test(s));
  if (bad !== undefined)
    throw new UsageError(`${flag}: "${bad}" is not valid here; got "${given.join(',')}"`);
  return [...new Set(items)];
}
