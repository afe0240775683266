import { type Kysely, sql } from 'kysely';

import {
  ARGUMENT_TYPES,
  createFunction,
  type Figure,
  figuresOf,
  grantExecuteToReader,
  grantReader as grant0005,
  SUMMARIES,
  type Summary,
  summaryQuery,
} from './0005_add_progress_functions.ts';
import { ORIGIN_FIGURES } from './0007_add_estimated_history.ts';
import { type AnswerFunction, FUNCTIONS as ANSWERS } from './0010_add_answer_views.ts';
import { LABEL_IDS } from './0011_mirror_categories_labels.ts';

// Progress per category (nested categories roll up into their ancestors) and per label ×
// language, now and per day, and a component filter on every progress function so that a
// report scoped to a category sums only its components. Label history is recorded from
// this release on: weblate.label_statistics keeps a row per label and translation each
// time its counts move (the translations whose units a run wrote are noted by the units
// triggers; record_label_statistics, called as a run ends, sums only those).
// docs/schema.md documents each. Frozen once merged; add a new migration.

/** The progress functions' arguments from here on: 0005's and the component slugs. */
export const ARGUMENTS =
  'only_projects text[] default null, only_language text default null, only_components text[] default null';
const SCOPED_ARGUMENT_TYPES = '(text[], text, text[])';

const LANGUAGE_FILTER = 'and (only_language is null or x.language_code = only_language)';
const COMPONENT_FILTER = 'and (only_components is null or x.component_slug = any(only_components))';

/**
 * A summary's filtered select with the component filter beside the language one; groups
 * that no translation in scope reaches are left out under either filter.
 */
export function scopedQuery(summary: Summary, extra: readonly Figure[]): string {
  return summaryQuery(summary, true, extra)
    .replace(LANGUAGE_FILTER, `${LANGUAGE_FILTER} ${COMPONENT_FILTER}`)
    .replace(
      'having only_language is null or',
      'having (only_language is null and only_components is null) or',
    )
    .replace(
      'where c.project_id = p.id and c.deleted_at is null)',
      'where c.project_id = p.id and c.deleted_at is null and (only_components is null or c.slug = any(only_components)))',
    );
}

/** Every category with each of its ancestors and itself (depth 0), live ones only. */
const CATEGORY_TREE = `
  with recursive tree as (
    select k.id as ancestor_id, k.id as category_id, 0 as depth
    from weblate.categories k where k.deleted_at is null
    union all
    select k.parent_id, t.category_id, t.depth + 1
    from tree t
    join weblate.categories k on k.id = t.ancestor_id
    join weblate.categories a on a.id = k.parent_id and a.deleted_at is null
    where t.depth < 100
  )
  select * from tree`;

/** A category's slugs from its root down, joined by '/': how Weblate writes its path. */
const CATEGORY_PATH = `(select string_agg(a.slug, '/' order by t.depth desc)
  from weblate.category_tree t join weblate.categories a on a.id = t.ancestor_id
  where t.category_id = k.id)`;

export const CATEGORY_SUMMARIES: readonly Summary[] = [
  {
    fn: 'progress_by_category',
    view: 'category_progress',
    source: 'current',
    keys: [
      ['category_id', 'integer', 'k.id'],
      ['category_slug', 'text', 'k.slug'],
      ['category_name', 'text', 'k.name'],
      ['parent_id', 'integer', 'k.parent_id'],
      ['path', 'text', CATEGORY_PATH],
      ['project_id', 'integer', 'k.project_id'],
      ['project_slug', 'text', 'k.project_slug'],
      ['components', 'bigint', 'count(distinct c.id)'],
    ],
    from: `weblate.categories k
      join weblate.projects p on p.id = k.project_id
      left join weblate.category_tree tr on tr.ancestor_id = k.id
      left join weblate.components c on c.category_id = tr.category_id and c.deleted_at is null
        and (only_components is null or c.slug = any(only_components))
      left join weblate.translation_progress x on x.component_id = c.id {language}
      where k.deleted_at is null and p.deleted_at is null`,
    groupBy: 'k.id',
    projectColumn: 'k.project_slug',
    needsTranslations: true,
  },
  {
    fn: 'progress_by_category_daily',
    view: 'category_progress_daily',
    source: 'daily',
    keys: [
      ['day', 'date', 'x.day'],
      ['category_id', 'integer', 'k.id'],
      ['category_slug', 'text', 'k.slug'],
      ['project_id', 'integer', 'k.project_id'],
      ['project_slug', 'text', 'k.project_slug'],
      ['components', 'bigint', 'count(distinct x.component_id)'],
    ],
    from: `weblate.translation_progress_daily x
      join weblate.components c on c.id = x.component_id
      join weblate.category_tree tr on tr.category_id = c.category_id
      join weblate.categories k on k.id = tr.ancestor_id
      where true {language}`,
    groupBy: 'x.day, k.id',
    projectColumn: 'x.project_slug',
    needsTranslations: false,
  },
];

/** The 0005 summaries, with 0007's origin figures on the daily ones. */
const PROGRESS: readonly (readonly [Summary, readonly Figure[]])[] = SUMMARIES.map((s) => [
  s,
  s.source === 'daily' ? ORIGIN_FIGURES : [],
]);

async function createScopedFunction(
  db: Kysely<unknown>,
  summary: Summary,
  extra: readonly Figure[],
): Promise<void> {
  const returns = [
    ...summary.keys.map(([name, type]) => `${name} ${type}`),
    ...figuresOf(summary, extra).map((f) => `${f.name} ${f.type}`),
  ].join(', ');
  await sql`
    create function ${sql.raw(`weblate.${summary.fn}(${ARGUMENTS})`)}
    returns table (${sql.raw(returns)})
    language sql stable parallel safe as $fn$${sql.raw(scopedQuery(summary, extra))}$fn$`.execute(
    db,
  );
}

async function createSummaryView(db: Kysely<unknown>, summary: Summary): Promise<void> {
  if (summary.view === null) return;
  await sql`create view ${sql.table(`weblate.${summary.view}`)} as
    select * from ${sql.raw(`weblate.${summary.fn}()`)}`.execute(db);
}

async function dropSummary(db: Kysely<unknown>, summary: Summary, types: string): Promise<void> {
  if (summary.view !== null)
    await sql`drop view ${sql.table(`weblate.${summary.view}`)}`.execute(db);
  await sql`drop function ${sql.raw(`weblate.${summary.fn}${types}`)}`.execute(db);
}

/** Live units that carry a live label, on the unit itself or on its source string. */
const LABELLED_UNITS = `
  select ul.label_id, u.id as unit_id, u.translation_id
  from weblate.unit_labels ul
  join weblate.labels lb on lb.id = ul.label_id and lb.deleted_at is null
  join weblate.units u on u.id = ul.unit_id
  where ul.deleted_at is null and u.deleted_at is null
  union
  select ul.label_id, u.id, u.translation_id
  from weblate.unit_labels ul
  join weblate.labels lb on lb.id = ul.label_id and lb.deleted_at is null
  join weblate.units u on u.source_unit_id = ul.unit_id
  where ul.deleted_at is null and u.deleted_at is null`;

/**
 * Counts of labelled units `u`, as Weblate counts a translation's strings by state: needing
 * editing, rewriting or checking (10–12) are fuzzy; translated includes approved and read-only.
 */
const LABEL_COUNTS = `count(*)::integer as total,
  coalesce(sum(u.num_words), 0)::integer as total_words,
  count(*) filter (where u.state >= 20)::integer as translated,
  coalesce(sum(u.num_words) filter (where u.state >= 20), 0)::integer as translated_words,
  count(*) filter (where u.state between 10 and 19)::integer as fuzzy,
  coalesce(sum(u.num_words) filter (where u.state between 10 and 19), 0)::integer as fuzzy_words,
  count(*) filter (where u.state = 30)::integer as approved,
  coalesce(sum(u.num_words) filter (where u.state = 30), 0)::integer as approved_words,
  count(*) filter (where u.has_failing_check)::integer as failing`;

export const COUNT_COLUMNS = [
  'total',
  'total_words',
  'translated',
  'translated_words',
  'fuzzy',
  'fuzzy_words',
  'approved',
  'approved_words',
  'failing',
] as const;

/** Percentages and the untranslated rest of summed counts `s`, as the progress views give them. */
const LABEL_FIGURES = `
  weblate.truncated_percent(s.translated, s.total, true) as translated_percent,
  weblate.truncated_percent(s.translated_words, s.total_words, true) as translated_words_percent,
  weblate.truncated_percent(s.fuzzy, s.total) as fuzzy_percent,
  weblate.truncated_percent(s.approved, s.total) as approved_percent,
  weblate.truncated_percent(s.failing, s.total) as failing_percent,
  s.total - s.translated as untranslated,
  s.total_words - s.translated_words as untranslated_words`;

export const LABEL_RETURNS = `translations bigint, total bigint, total_words bigint, translated bigint,
  translated_words bigint, fuzzy bigint, fuzzy_words bigint, approved bigint,
  approved_words bigint, failing bigint, translated_percent numeric,
  translated_words_percent numeric, fuzzy_percent numeric, approved_percent numeric,
  failing_percent numeric, untranslated bigint, untranslated_words bigint`;

/** Sums over rows `x` of label counts, one per translation. */
const SUMMED = COUNT_COLUMNS.map((c) => `coalesce(sum(x.${c}), 0)::bigint as ${c}`).join(', ');

const SCOPE_OF_X = `(only_projects is null or x.project_slug = any(only_projects))
  and (only_language is null or x.language_code = only_language)
  and (only_components is null or x.component_slug = any(only_components))`;

/**
 * A label's progress in each translation now: the rows progress_by_label sums, over rows `u`
 * (label_id, translation_id, state, num_words, has_failing_check) of the labelled units.
 */
export function labelTranslations(units: string): string {
  return `
  select u.label_id, t.id as translation_id, p.id as project_id, p.slug as project_slug,
         c.id as component_id, c.slug as component_slug, t.language_code, ${LABEL_COUNTS}
  from ${units}
  join weblate.translations t on t.id = u.translation_id
  join weblate.components c on c.id = t.component_id
  join weblate.projects p on p.id = c.project_id
  where t.deleted_at is null and c.deleted_at is null and p.deleted_at is null
    and t.is_source is not true
  group by u.label_id, t.id, p.id, c.id`;
}

const LABEL_TRANSLATIONS = labelTranslations(`(
    select lu.label_id, lu.translation_id, u.state, u.num_words, u.has_failing_check
    from weblate.labelled_units lu
    join weblate.units u on u.id = lu.unit_id
  ) u`);

/** progress_by_label's select over a label's rows per translation (labelTranslations). */
export function progressByLabel(translations: string): string {
  return `
      select s.label_id, lb.name as label_name, lb.project_id, lb.project_slug, s.language_code,
             s.translations, ${COUNT_COLUMNS.map((c) => `s.${c}`).join(', ')}, ${LABEL_FIGURES}
      from (
        select x.label_id, x.language_code, count(*) as translations, ${SUMMED}
        from (${translations}) x
        where ${SCOPE_OF_X}
        group by x.label_id, x.language_code
      ) s
      join weblate.labels lb on lb.id = s.label_id`;
}

/**
 * Each day from a label's first recorded counts in a translation on: the last counts of the
 * day, holding until the next, up to today or the day before the translation or the label
 * was deleted.
 */
const LABEL_DAILY = `
  with last_of_day as (
    select distinct on (s.label_id, s.translation_id, (s.captured_at at time zone 'UTC')::date)
           s.*, (s.captured_at at time zone 'UTC')::date as captured_day
    from weblate.label_statistics s
    order by s.label_id, s.translation_id, (s.captured_at at time zone 'UTC')::date,
             s.captured_at desc
  ), spans as (
    select d.*, lead(d.captured_day) over (
             partition by d.label_id, d.translation_id order by d.captured_day) as next_day
    from last_of_day d
  )
  select g.day::date as day, s.label_id, lb.name as label_name, s.translation_id,
         p.id as project_id, p.slug as project_slug, c.id as component_id,
         c.slug as component_slug, t.language_code,
         ${COUNT_COLUMNS.map((c) => `s.${c}`).join(', ')}, ${LABEL_FIGURES}
  from spans s
  join weblate.labels lb on lb.id = s.label_id
  join weblate.translations t on t.id = s.translation_id
  join weblate.components c on c.id = t.component_id
  join weblate.projects p on p.id = c.project_id
  cross join lateral generate_series(
    s.captured_day::timestamp,
    least(s.next_day - 1, (now() at time zone 'UTC')::date,
          (t.deleted_at at time zone 'UTC')::date - 1,
          (lb.deleted_at at time zone 'UTC')::date - 1)::timestamp,
    interval '1 day'
  ) as g(day)
  where t.is_source is not true`;

export interface LabelFunction {
  name: string;
  keys: string;
  /** The select, over rows `x` of one label and translation each. */
  body: string;
}

export const LABEL_FUNCTIONS: readonly LabelFunction[] = [
  {
    name: 'progress_by_label',
    keys: 'label_id integer, label_name text, project_id integer, project_slug text, language_code text',
    body: progressByLabel(LABEL_TRANSLATIONS),
  },
  {
    name: 'progress_by_label_daily',
    keys: 'day date, label_id integer, label_name text, project_id integer, project_slug text, language_code text',
    body: `
      select s.day, s.label_id, lb.name as label_name, lb.project_id, lb.project_slug,
             s.language_code, s.translations, ${COUNT_COLUMNS.map((c) => `s.${c}`).join(', ')},
             ${LABEL_FIGURES}
      from (
        select x.day, x.label_id, x.language_code, count(*) as translations, ${SUMMED}
        from weblate.label_progress_daily x
        where ${SCOPE_OF_X}
        group by x.day, x.label_id, x.language_code
      ) s
      join weblate.labels lb on lb.id = s.label_id`,
  },
];

/**
 * 0011's trigger function; with `notesDue`, it also notes the translations the statement
 * wrote (a source translation stands for every translation of its component, whose strings
 * carry its labels too: record_label_statistics widens it).
 */
async function keepUnitLabels(db: Kysely<unknown>, notesDue: boolean): Promise<void> {
  const due = notesDue
    ? sql`insert into weblate.label_statistics_due (translation_id)
      select distinct translation_id from new_units;`
    : sql``;
  await sql`
    create or replace function weblate.keep_unit_labels() returns trigger language plpgsql as $$
    begin
      update weblate.unit_labels ul set deleted_at = now()
      from new_units n
      where ul.unit_id = n.id and ul.deleted_at is null
        and not exists (select from (${LABEL_IDS}) l
          where l.unit_id = ul.unit_id and l.label_id = ul.label_id);
      insert into weblate.unit_labels (unit_id, label_id)
      select distinct unit_id, label_id from (${LABEL_IDS}) l
      on conflict (unit_id, label_id) do update set deleted_at = null
        where weblate.unit_labels.deleted_at is not null;
      ${due}
      return null;
    end
    $$`.execute(db);
}

async function addLabelHistory(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table weblate.label_statistics (
      label_id integer not null,
      translation_id integer not null,
      captured_at timestamptz not null default now(),
      run_id integer references weblate.sync_runs (id),
      ${sql.raw(COUNT_COLUMNS.map((c) => `${c} integer not null`).join(', '))},
      primary key (label_id, translation_id, captured_at)
    )`.execute(db);
  await sql`create index label_statistics_translation_idx on weblate.label_statistics (translation_id)`.execute(
    db,
  );
  await sql`comment on table weblate.label_statistics is
    'A label''s counts in a translation each time they moved (all zero once no unit of the translation carries it), recorded by weblate.record_label_statistics from this release on: label history starts when the mirror first recorded it.'`.execute(
    db,
  );
  // No key: page commits run side by side, and a unique key would make each wait for the
  // others that noted the same translation. record_label_statistics takes duplicates once.
  await sql`create table weblate.label_statistics_due (translation_id integer not null)`.execute(
    db,
  );
  await keepUnitLabels(db, true);
  await sql`
    create function weblate.record_label_statistics(run integer default null)
    returns integer language plpgsql as $$
    declare
      recorded integer;
    begin
      with due as (
        delete from weblate.label_statistics_due returning translation_id
      ), scope as (
        select t.id from due d
        join weblate.translations t on t.id = d.translation_id and t.is_source is not true
        union
        select t2.id from due d
        join weblate.translations t on t.id = d.translation_id and t.is_source
        join weblate.translations t2 on t2.component_id = t.component_id
          and t2.is_source is not true
      ), counted as (
        select lu.label_id, lu.translation_id, ${sql.raw(LABEL_COUNTS)}
        from weblate.labelled_units lu
        join weblate.units u on u.id = lu.unit_id
        where lu.translation_id in (select id from scope)
        group by lu.label_id, lu.translation_id
      ), latest as (
        select distinct on (s.label_id, s.translation_id) s.*
        from weblate.label_statistics s
        where s.translation_id in (select id from scope)
        order by s.label_id, s.translation_id, s.captured_at desc
      )
      insert into weblate.label_statistics (label_id, translation_id, run_id, ${sql.raw(COUNT_COLUMNS.join(', '))})
      select coalesce(n.label_id, l.label_id), coalesce(n.translation_id, l.translation_id), run,
             ${sql.raw(COUNT_COLUMNS.map((c) => `coalesce(n.${c}, 0)`).join(', '))}
      from counted n
      full join latest l on l.label_id = n.label_id and l.translation_id = n.translation_id
      where (${sql.raw(COUNT_COLUMNS.map((c) => `coalesce(n.${c}, 0)`).join(', '))})
        is distinct from (${sql.raw(COUNT_COLUMNS.map((c) => `l.${c}`).join(', '))});
      get diagnostics recorded = row_count;
      return recorded;
    end
    $$`.execute(db);
  // Everything labelled now is due, so the first run records where history starts.
  await sql`
    insert into weblate.label_statistics_due (translation_id)
    select distinct u.translation_id from weblate.unit_labels ul
    join weblate.units u on u.id = ul.unit_id`.execute(db);
}

/** Indexes the reporting reads at the large shape asked for (docs/performance.md, Reporting). */
const INDEXES = [
  // activity_daily and the answer functions group and filter changes by UTC day.
  `create index changes_day_idx on weblate.changes (((timestamp at time zone 'UTC')::date))`,
  // Words of the strings changes name, without reading the units' rows.
  `create index units_num_words_idx on weblate.units (id) include (num_words)`,
  // The last target-saving change of a string before a time.
  `create index changes_unit_id_timestamp_idx on weblate.changes (unit_id, timestamp) include (action)`,
];

/**
 * strings_awaiting_review with its lateral subquery kept apart (offset 0): pulled up, its
 * latest-change lookup ran twice per string.
 */
function reviewFunction(keptApart: boolean): AnswerFunction {
  const fn = ANSWERS.find((f) => f.name === 'strings_awaiting_review')!;
  if (!keptApart) return fn;
  const body = fn.body.replace(') as waiting_since\n', ') as waiting_since\n        offset 0\n');
  if (body === fn.body) throw new Error('strings_awaiting_review: the subquery was not found');
  return { ...fn, body };
}

export async function replaceAnswer(db: Kysely<unknown>, fn: AnswerFunction): Promise<void> {
  await sql`
    create or replace function ${sql.raw(`weblate.${fn.name}(${fn.args.join(', ')})`)}
    returns table (${sql.raw(fn.returns)})
    language sql stable parallel safe as $fn$${sql.raw(fn.body)}$fn$`.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const index of INDEXES) await sql.raw(index).execute(db);
  await replaceAnswer(db, reviewFunction(true));
  for (const [summary] of PROGRESS) await dropSummary(db, summary, ARGUMENT_TYPES);
  for (const [summary, extra] of PROGRESS) {
    await createScopedFunction(db, summary, extra);
    await createSummaryView(db, summary);
  }
  await sql`create index components_category_id_idx on weblate.components (category_id)`.execute(
    db,
  );
  await sql`create index units_source_unit_id_idx on weblate.units (source_unit_id)`.execute(db);
  await sql`create view weblate.category_tree as ${sql.raw(CATEGORY_TREE)}`.execute(db);
  for (const summary of CATEGORY_SUMMARIES) {
    await createScopedFunction(db, summary, summary.source === 'daily' ? ORIGIN_FIGURES : []);
    await createSummaryView(db, summary);
  }
  await sql`create view weblate.labelled_units as ${sql.raw(LABELLED_UNITS)}`.execute(db);
  await addLabelHistory(db);
  await sql`create view weblate.label_progress_daily as ${sql.raw(LABEL_DAILY)}`.execute(db);
  for (const fn of LABEL_FUNCTIONS) {
    await sql`
      create function ${sql.raw(`weblate.${fn.name}(${ARGUMENTS})`)}
      returns table (${sql.raw(`${fn.keys}, ${LABEL_RETURNS}`)})
      language sql stable parallel safe as $fn$${sql.raw(fn.body)}$fn$`.execute(db);
  }
  await sql`create view weblate.label_progress as select * from weblate.progress_by_label()`.execute(
    db,
  );
  await grantReader(db);
}

/** As 0005 does: PUBLIC may execute already; the role gets it by name too. */
async function grantReader(db: Kysely<unknown>): Promise<void> {
  const functions = [
    ...[...PROGRESS.map(([s]) => s), ...CATEGORY_SUMMARIES].map((s) => s.fn),
    ...LABEL_FUNCTIONS.map((f) => f.name),
  ].map((fn) => `weblate.${fn}${SCOPED_ARGUMENT_TYPES}`);
  await grantExecuteToReader(db, functions);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await replaceAnswer(db, reviewFunction(false));
  for (const name of ['changes_day_idx', 'units_num_words_idx', 'changes_unit_id_timestamp_idx'])
    await sql`drop index ${sql.raw(`weblate.${name}`)}`.execute(db);
  await sql`drop view weblate.label_progress`.execute(db);
  for (const fn of [...LABEL_FUNCTIONS].reverse())
    await sql`drop function ${sql.raw(`weblate.${fn.name}${SCOPED_ARGUMENT_TYPES}`)}`.execute(db);
  await sql`drop view weblate.label_progress_daily`.execute(db);
  await sql`drop function weblate.record_label_statistics(integer)`.execute(db);
  await keepUnitLabels(db, false);
  await sql`drop table weblate.label_statistics_due`.execute(db);
  await sql`drop table weblate.label_statistics`.execute(db);
  await sql`drop view weblate.labelled_units`.execute(db);
  for (const summary of [...CATEGORY_SUMMARIES].reverse())
    await dropSummary(db, summary, SCOPED_ARGUMENT_TYPES);
  await sql`drop view weblate.category_tree`.execute(db);
  await sql`drop index weblate.units_source_unit_id_idx`.execute(db);
  await sql`drop index weblate.components_category_id_idx`.execute(db);
  for (const [summary] of PROGRESS) await dropSummary(db, summary, SCOPED_ARGUMENT_TYPES);
  for (const [summary, extra] of PROGRESS) {
    await createFunction(db, summary, extra);
    await createSummaryView(db, summary);
  }
  await grant0005(db);
}
