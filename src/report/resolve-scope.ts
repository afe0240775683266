import type { Kysely } from 'kysely';

import type { Database } from '../db/database.ts';
import { listCategoryComponents, listCategoryPaths } from '../db/queries/report-categories.ts';
import { listLabelNames } from '../db/queries/report-labels.ts';
import { UsageError } from '../errors.ts';
import { closestMatch } from '../lib/closest.ts';

// What --category and --label name, looked up in the mirror: a category becomes its
// project and the component slugs of its subtree; a label, the ids of the labels of that
// name. A name the mirror does not have, or one that names several categories, is a
// UsageError (exit code 2) that says what there is.

/** A category as --category resolved it. */
export interface CategoryScope {
  /** `project/path`, as the report shows it. */
  name: string;
  project: string;
  /** Its slugs from the project's top category down, joined by '/'. */
  path: string;
  /** Slugs of the live components in the category and the categories inside it. */
  components: string[];
}

/** The labels --label matched. */
export interface LabelScope {
  /** As given. */
  name: string;
  ids: number[];
  /** `project/name` of each. */
  matched: string[];
}

/** `in project a` / `in projects a, b` / `in the mirror`. */
function where(projects: readonly string[]): string {
  if (projects.length === 0) return 'in the mirror';
  return `in project${projects.length === 1 ? '' : 's'} ${projects.join(', ')}`;
}

/** ` (did you mean "x"?)` when one candidate is near, else the list when short. */
function suggestion(word: string, candidates: readonly string[]): string {
  const near = closestMatch(
    word.toLowerCase(),
    candidates.map((c) => c.toLowerCase()),
  );
  if (near !== null) {
    const original = candidates.find((c) => c.toLowerCase() === near) ?? near;
    return `; did you mean "${original}"?`;
  }
  if (candidates.length === 0) return '';
  const shown = candidates.slice(0, 8).map((c) => `"${c}"`);
  const more = candidates.length > shown.length ? `, … (${candidates.length} in all)` : '';
  return `; there are ${shown.join(', ')}${more}`;
}

/**
 * The category that `value` names among the live ones of `projects` (every project when
 * empty): `project/path` or, when only one project has it, the bare `path`.
 */
export async function resolveCategory(
  db: Kysely<Database>,
  value: string,
  projects: readonly string[],
): Promise<CategoryScope> {
  const wanted = value.replace(/^\/+|\/+$/g, '');
  const categories = await listCategoryPaths(db, projects);
  if (categories.length === 0)
    throw new UsageError(`--category: there are no categories ${where(projects)}`);
  const matches = categories.filter(
    (c) => c.path === wanted || `${c.project_slug}/${c.path}` === wanted,
  );
  const full = (c: { project_slug: string; path: string }) => `${c.project_slug}/${c.path}`;
  if (matches.length === 0)
    throw new UsageError(
      `--category: no category "${value}" ${where(projects)}${suggestion(wanted, categories.map(full))}`,
    );
  if (matches.length > 1)
    throw new UsageError(
      `--category: "${value}" names ${matches.length} categories, ${matches.map(full).join(', ')}: give one as project/category`,
    );
  const category = matches[0]!;
  return {
    name: full(category),
    project: category.project_slug,
    path: category.path,
    components: await listCategoryComponents(db, category.category_id),
  };
}

/**
 * The live labels of `projects` (every project when empty) that `value` names, case
 * aside, as Weblate's `label:` search matches them: `name` in every project that has it,
 * or `project/name` in one.
 */
export async function resolveLabel(
  db: Kysely<Database>,
  value: string,
  projects: readonly string[],
): Promise<LabelScope> {
  const labels = await listLabelNames(db, projects);
  if (labels.length === 0) throw new UsageError(`--label: there are no labels ${where(projects)}`);
  const lower = value.toLowerCase();
  const byName = labels.filter((l) => l.label_name.toLowerCase() === lower);
  const byProject = labels.filter(
    (l) => `${l.project_slug}/${l.label_name}`.toLowerCase() === lower,
  );
  const matches = byName.length > 0 ? byName : byProject;
  if (matches.length === 0) {
    const names = [...new Set(labels.map((l) => l.label_name))];
    throw new UsageError(
      `--label: no label "${value}" ${where(projects)}${suggestion(value, names)}`,
    );
  }
  return {
    name: value,
    ids: matches.map((l) => l.label_id),
    matched: matches.map((l) => `${l.project_slug}/${l.label_name}`),
  };
}
