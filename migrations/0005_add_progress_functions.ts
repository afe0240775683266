import { type Kysely, sql } from 'kysely';

// Progress sums, once: functions that sum the rows of translation_progress(_daily) per
// project, component or language (now and per day), or over everything, for the projects
// and the language asked for. The six summing views of 0003 become `select * from` these
// functions with no filter, so a view and a filtered report cannot disagree. The functions
// are plain SQL (not strict, not security definer), so PostgreSQL inlines them into the
// query and a filter on the view still reaches the tables. docs/schema.md documents them.
// Frozen once merged; add a new migration.

export interface Figure {
  name: string;
  type: 'bigint' | 'numeric' | 'timestamptz' | 'text';
  /** Over rows of translation_progress(_daily) named `x`. */
  sum: string;
  /** translation_progress_daily has no failing_words and no last_change. */
  isCurrentOnly?: boolean;
}

/** Summed figures, in the column order of the 0003 views; percentages Weblate's. */
const FIGURES: readonly Figure[] = [
  { name: 'translations', type: 'bigint', sum: 'count(x.translation_id)' },
  { name: 'total', type: 'bigint', sum: 'coalesce(sum(x.total), 0)::bigint' },
  { name: 'total_words', type: 'bigint', sum: 'coalesce(sum(x.total_words), 0)::bigint' },
  { name: 'translated', type: 'bigint', sum: 'coalesce(sum(x.translated), 0)::bigint' },
  {
    name: 'translated_words',
    type: 'bigint',
    sum: 'coalesce(sum(x.translated_words), 0)::bigint',
  },
  {
    name: 'translated_percent',
    type: 'numeric',
    sum: 'weblate.truncated_percent(coalesce(sum(x.translated), 0), coalesce(sum(x.total), 0), true)',
  },
  {
    name: 'translated_words_percent',
    type: 'numeric',
    sum: 'weblate.truncated_percent(coalesce(sum(x.translated_words), 0), coalesce(sum(x.total_words), 0), true)',
  },
  { name: 'fuzzy', type: 'bigint', sum: 'coalesce(sum(x.fuzzy), 0)::bigint' },
  { name: 'fuzzy_words', type: 'bigint', sum: 'coalesce(sum(x.fuzzy_words), 0)::bigint' },
  {
    name: 'fuzzy_percent',
    type: 'numeric',
    sum: 'weblate.truncated_percent(coalesce(sum(x.fuzzy), 0), coalesce(sum(x.total), 0))',
  },
  { name: 'approved', type: 'bigint', sum: 'coalesce(sum(x.approved), 0)::bigint' },
  { name: 'approved_words', type: 'bigint', sum: 'coalesce(sum(x.approved_words), 0)::bigint' },
  {
    name: 'approved_percent',
    type: 'numeric',
    sum: 'weblate.truncated_percent(coalesce(sum(x.approved), 0), coalesce(sum(x.total), 0))',
  },
  { name: 'failing', type: 'bigint', sum: 'coalesce(sum(x.failing), 0)::bigint' },
  {
    name: 'failing_words',
    type: 'bigint',
    sum: 'coalesce(sum(x.failing_words), 0)::bigint',
    isCurrentOnly: true,
  },
  {
    name: 'failing_percent',
    type: 'numeric',
    sum: 'weblate.truncated_percent(coalesce(sum(x.failing), 0), coalesce(sum(x.total), 0))',
  },
  { name: 'untranslated', type: 'bigint', sum: 'coalesce(sum(x.untranslated), 0)::bigint' },
  {
    name: 'untranslated_words',
    type: 'bigint',
    sum: 'coalesce(sum(x.untranslated_words), 0)::bigint',
  },
  { name: 'last_change', type: 'timestamptz', sum: 'max(x.last_change)', isCurrentOnly: true },
];

/** A key column: its name and type, and the expression that gives it. */
type Key = readonly [name: string, type: string, expression: string];

export interface Summary {
  /** weblate.<function>; also the view it replaces, if any. */
  fn: string;
  view: string | null;
  source: 'current' | 'daily';
  keys: readonly Key[];
  /** from … where … (without the filters) for the unfiltered view. */
  from: string;
  groupBy: string | null;
  /** Where the project filter applies (the slug column). */
  projectColumn: string;
  /** Whether groups with no translation in the language asked for are left out. */
  needsTranslations: boolean;
}

const DAY: Key = ['day', 'date', 'x.day'];
const DAILY_FROM = 'weblate.translation_progress_daily x';

/** The summaries, in the order of creation (views in 0003's order, then the total). */
export const SUMMARIES: readonly Summary[] = [
  {
    fn: 'progress_by_component',
    view: 'component_progress',
    source: 'current',
    keys: [
      ['component_id', 'integer', 'c.id'],
      ['component_slug', 'text', 'c.slug'],
      ['component_name', 'text', 'c.name'],
      ['project_id', 'integer', 'p.id'],
      ['project_slug', 'text', 'p.slug'],
    ],
    from: `weblate.components c
      join weblate.projects p on p.id = c.project_id
      left join weblate.translation_progress x on x.component_id = c.id {language}
      where c.deleted_at is null and p.deleted_at is null`,
    groupBy: 'c.id, p.id',
    projectColumn: 'p.slug',
    needsTranslations: true,
  },
  {
    fn: 'progress_by_project',
    view: 'project_progress',
    source: 'current',
    keys: [
      ['project_id', 'integer', 'p.id'],
      ['project_slug', 'text', 'p.slug'],
      ['project_name', 'text', 'p.name'],
      [
        'components',
        'bigint',
        `(select count(*) from weblate.components c
          where c.project_id = p.id and c.deleted_at is null)`,
      ],
    ],
    from: `weblate.projects p
      left join weblate.translation_progress x on x.project_id = p.id {language}
      where p.deleted_at is null`,
    groupBy: 'p.id',
    projectColumn: 'p.slug',
    needsTranslations: true,
  },
  {
    fn: 'progress_by_language',
    view: 'language_progress',
    source: 'current',
    keys: [
      ['language_code', 'text', 'x.language_code'],
      ['language_name', 'text', 'min(x.language_name)'],
      ['projects', 'bigint', 'count(distinct x.project_id)'],
      ['components', 'bigint', 'count(distinct x.component_id)'],
    ],
    from: `weblate.translation_progress x where true {language}`,
    groupBy: 'x.language_code',
    projectColumn: 'x.project_slug',
    needsTranslations: false,
  },
  {
    fn: 'progress_by_component_daily',
    view: 'component_progress_daily',
    source: 'daily',
    keys: [
      DAY,
      ['component_id', 'integer', 'x.component_id'],
      ['component_slug', 'text', 'x.component_slug'],
      ['project_id', 'integer', 'x.project_id'],
      ['project_slug', 'text', 'x.project_slug'],
    ],
    from: `${DAILY_FROM} where true {language}`,
    groupBy: 'x.day, x.component_id, x.component_slug, x.project_id, x.project_slug',
    projectColumn: 'x.project_slug',
    needsTranslations: false,
  },
  {
    fn: 'progress_by_project_daily',
    view: 'project_progress_daily',
    source: 'daily',
    keys: [
      DAY,
      ['project_id', 'integer', 'x.project_id'],
      ['project_slug', 'text', 'x.project_slug'],
      ['components', 'bigint', 'count(distinct x.component_id)'],
    ],
    from: `${DAILY_FROM} where true {language}`,
    groupBy: 'x.day, x.project_id, x.project_slug',
    projectColumn: 'x.project_slug',
    needsTranslations: false,
  },
  {
    fn: 'progress_by_language_daily',
    view: 'language_progress_daily',
    source: 'daily',
    keys: [
      DAY,
      ['language_code', 'text', 'x.language_code'],
      ['components', 'bigint', 'count(distinct x.component_id)'],
    ],
    from: `${DAILY_FROM} where true {language}`,
    groupBy: 'x.day, x.language_code',
    projectColumn: 'x.project_slug',
    needsTranslations: false,
  },
  {
    fn: 'progress_total',
    view: null,
    source: 'current',
    keys: [],
    from: `weblate.translation_progress x where true {language}`,
    groupBy: null,
    projectColumn: 'x.project_slug',
    needsTranslations: false,
  },
];

/** The filter arguments of every function: null means every project, every language. */
const ARGUMENTS = 'only_projects text[] default null, only_language text default null';
export const ARGUMENT_TYPES = '(text[], text)';

/**
 * A summary's figures: those of its source, where `extra` (from later migrations) may give
 * one of the same name another sum, then the rest of `extra`.
 */
export function figuresOf(summary: Summary, extra: readonly Figure[]): Figure[] {
  const own = FIGURES.filter((f) => summary.source === 'current' || f.isCurrentOnly !== true);
  const names = new Set(own.map((f) => f.name));
  return [
    ...own.map((f) => extra.find((e) => e.name === f.name) ?? f),
    ...extra.filter((e) => !names.has(e.name)),
  ];
}

/**
 * The select of a summary: filtered by the functions' arguments, or with no filter at all
 * (the 0003 view as it was, which `down` restores).
 */
export function summaryQuery(
  summary: Summary,
  isFiltered: boolean,
  extra: readonly Figure[] = [],
): string {
  const columns = [
    ...summary.keys.map(([name, , expression]) => `${expression} as ${name}`),
    ...figuresOf(summary, extra).map((f) => `${f.sum} as ${f.name}`),
  ];
  const language = isFiltered
    ? 'and (only_language is null or x.language_code = only_language)'
    : '';
  const projects = isFiltered
    ? `and (only_projects is null or ${summary.projectColumn} = any(only_projects))`
    : '';
  const having =
    isFiltered && summary.needsTranslations
      ? 'having only_language is null or count(x.translation_id) > 0'
      : '';
  return `
    select ${columns.join(',\n           ')}
    from ${summary.from.replace('{language}', language)}
      ${projects}
    ${summary.groupBy === null ? '' : `group by ${summary.groupBy}`}
    ${having}`;
}

export async function createFunction(
  db: Kysely<unknown>,
  summary: Summary,
  extra: readonly Figure[] = [],
): Promise<void> {
  const returns = [
    ...summary.keys.map(([name, type]) => `${name} ${type}`),
    ...figuresOf(summary, extra).map((f) => `${f.name} ${f.type}`),
  ].join(', ');
  await sql`
    create function ${sql.raw(`weblate.${summary.fn}(${ARGUMENTS})`)}
    returns table (${sql.raw(returns)})
    language sql stable parallel safe as $fn$${sql.raw(summaryQuery(summary, true, extra))}$fn$`.execute(
    db,
  );
}

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const summary of SUMMARIES) await createFunction(db, summary);
  // Same columns, names and types as before, so dependants and grants stay.
  for (const { fn, view } of SUMMARIES) {
    if (view === null) continue;
    await sql`create or replace view ${sql.table(`weblate.${view}`)} as
      select * from ${sql.raw(`weblate.${fn}()`)}`.execute(db);
  }
  await grantReader(db);
}

/**
 * Executing a function needs no grant (PostgreSQL gives EXECUTE to PUBLIC), but the role
 * gets it explicitly so that revoking PUBLIC's does not lock dashboards out. When the role
 * does not exist (0003 could not create it), an administrator grants later (docs/schema.md).
 */
export async function grantReader(db: Kysely<unknown>): Promise<void> {
  await grantExecuteToReader(
    db,
    SUMMARIES.map(({ fn }) => `weblate.${fn}${ARGUMENT_TYPES}`),
  );
}

/** `grant execute` on `functions` (weblate.name(types)) to weblate_reader, where it exists. */
export async function grantExecuteToReader(
  db: Kysely<unknown>,
  functions: readonly string[],
): Promise<void> {
  await sql`
    do $$
    begin
      if exists (select from pg_roles where rolname = 'weblate_reader') then
        grant execute on function ${sql.raw(functions.join(', '))} to weblate_reader;
      end if;
    exception
      when undefined_object then
        null; -- dropped meanwhile by another database's rollback: nothing to grant to
    end
    $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const summary of SUMMARIES) {
    if (summary.view === null) continue;
    await sql`create or replace view ${sql.table(`weblate.${summary.view}`)} as
      ${sql.raw(summaryQuery(summary, false))}`.execute(db);
  }
  // Dropping a function drops its grants too.
  for (const { fn } of [...SUMMARIES].reverse()) {
    await sql`drop function if exists ${sql.raw(`weblate.${fn}${ARGUMENT_TYPES}`)}`.execute(db);
  }
}
