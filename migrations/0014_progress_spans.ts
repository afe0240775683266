import { type Kysely, sql } from 'kysely';

import {
  figuresOf,
  grantExecuteToReader,
  SUMMARIES,
  type Summary,
} from './0005_add_progress_functions.ts';
import { dailyWithEstimates, ORIGIN_FIGURES } from './0007_add_estimated_history.ts';
import {
  type AnswerFunction,
  FAILING_SUMS,
  FUNCTIONS as ANSWERS,
} from './0010_add_answer_views.ts';
import {
  ARGUMENTS,
  CATEGORY_SUMMARIES,
  COUNT_COLUMNS,
  LABEL_FUNCTIONS,
  LABEL_RETURNS,
  type LabelFunction,
  labelTranslations,
  progressByLabel,
  replaceAnswer,
  scopedQuery,
} from './0012_add_category_label_progress.ts';

// Daily progress without a row per translation and day being built. Each translation's
// history becomes spans of days holding the same figures (translation_progress_spans);
// translation_progress_daily joins them with a calendar, so a filter on `day` narrows the
// calendar first, and the daily summaries (categories' too) and failing_checks read the
// spans; progress_by_label reads the units once, and JIT is off for the database. Same rows and columns
// as before (test/db/progress-spans.test.ts); why and how much, docs/performance.md,
// "Reporting at the large shape". Frozen once merged; add a new migration.

const TODAY = `(now() at time zone 'UTC')::date`;

/** The figures a span carries, as the daily view names them: the label counts but failing. */
const COUNTS = COUNT_COLUMNS.filter((c) => c !== 'failing');

const SPANS = `
  with scope as (
    select t.id as translation_id, c.project_id, p.slug as project_slug, c.id as component_id,
           c.slug as component_slug, t.language_code,
           (t.deleted_at at time zone 'UTC')::date as deleted_day
    from weblate.translations t
    join weblate.components c on c.id = t.component_id
    join weblate.projects p on p.id = c.project_id
    where t.is_source is not true
      and (only_language is null or t.language_code = only_language)
      and (only_projects is null or p.slug = any(only_projects))
      and (only_components is null or c.slug = any(only_components))
  ), last_of_day as (
    select distinct on (s.translation_id, (s.captured_at at time zone 'UTC')::date)
           s.translation_id, (s.captured_at at time zone 'UTC')::date as captured_day,
           ${COUNTS.map((c) => `s.${c}`).join(', ')}, s.failing, s.captured_at
    from weblate.translation_statistics s
    where (only_projects is null and only_language is null and only_components is null)
       or s.translation_id in (select translation_id from scope)
    order by s.translation_id, (s.captured_at at time zone 'UTC')::date, s.captured_at desc
  ), measured as (
    select d.*, lead(d.captured_day) over (partition by d.translation_id order by d.captured_day)
             as next_day
    from last_of_day d
  ), estimated as (
    select e.*, lead(e.day) over (partition by e.translation_id order by e.day) as next_day,
           f.measured_from
    from weblate.translation_progress_estimated e
    left join (
      select s.translation_id, (min(s.captured_at) at time zone 'UTC')::date as measured_from
      from weblate.translation_statistics s group by s.translation_id
    ) f using (translation_id)
    where (only_projects is null and only_language is null and only_components is null)
       or e.translation_id in (select translation_id from scope)
  ), spans as (
    -- least() ignores nulls: the last snapshot of a live translation holds until today.
    select m.translation_id, m.captured_day as first_day,
           least(m.next_day - 1, ${TODAY}, sc.deleted_day - 1) as last_day,
           ${COUNTS.map((c) => `m.${c}`).join(', ')}, m.failing, m.captured_at,
           'measured'::text as origin
    from measured m join scope sc using (translation_id)
    union all
    -- An estimate holds until the next one, and stops the day before the first snapshot.
    select e.translation_id, e.day, least(e.next_day, e.measured_from) - 1,
           ${COUNTS.map((c) => `e.${c}`).join(', ')}, null::integer, null::timestamptz,
           'estimated'::text
    from estimated e
  )
  select s.translation_id, sc.project_id, sc.project_slug, sc.component_id, sc.component_slug,
         sc.language_code, s.first_day, s.last_day,
         ${COUNTS.map((c) => `s.${c}`).join(', ')}, s.failing, s.captured_at, s.origin
  from spans s join scope sc using (translation_id)
  where s.last_day >= s.first_day`;

const SPAN_COLUMNS = `translation_id integer, project_id integer, project_slug text,
  component_id integer, component_slug text, language_code text, first_day date, last_day date,
  ${COUNTS.map((c) => `${c} integer`).join(', ')}, failing integer, captured_at timestamptz,
  origin text`;

/** translation_progress_daily's columns, in their order, over spans named `s`. */
const DAILY = `
  select d.day, s.translation_id, s.project_id, s.project_slug, s.component_id, s.component_slug,
         s.language_code, s.total, s.total_words, s.translated, s.translated_words,
         weblate.truncated_percent(s.translated, s.total, true) as translated_percent,
         weblate.truncated_percent(s.translated_words, s.total_words, true) as translated_words_percent,
         s.fuzzy, s.fuzzy_words, weblate.truncated_percent(s.fuzzy, s.total) as fuzzy_percent,
         s.approved, s.approved_words,
         weblate.truncated_percent(s.approved, s.total) as approved_percent,
         s.failing, weblate.truncated_percent(s.failing, s.total) as failing_percent,
         s.total - s.translated as untranslated,
         s.total_words - s.translated_words as untranslated_words,
         s.captured_at, s.origin
  from (
    -- Every day from the first estimate or snapshot to today.
    select g.day::date as day
    from generate_series(
      least((select min(e.day) from weblate.translation_progress_estimated e),
            (select (min(s.captured_at) at time zone 'UTC')::date from weblate.translation_statistics s)
      )::timestamp,
      ${TODAY}::timestamp, interval '1 day') as g(day)
  ) d
  join weblate.translation_progress_spans() s on d.day between s.first_day and s.last_day`;

/** A daily summary's figures (0005's, with 0007's origin figures), over running sums `r`. */
const FIGURE_OF: Readonly<Record<string, string>> = {
  translations: 'r.translations',
  ...Object.fromEntries(
    [...COUNTS, 'untranslated', 'untranslated_words'].map((c) => [c, `r.${c}`]),
  ),
  translated_percent: 'weblate.truncated_percent(r.translated, r.total, true)',
  translated_words_percent: 'weblate.truncated_percent(r.translated_words, r.total_words, true)',
  fuzzy_percent: 'weblate.truncated_percent(r.fuzzy, r.total)',
  approved_percent: 'weblate.truncated_percent(r.approved, r.total)',
  failing: 'case when r.failing_known = r.translations then r.failing end',
  failing_percent:
    'case when r.failing_known = r.translations then weblate.truncated_percent(r.failing, r.total) end',
  estimated_translations: 'r.estimated',
  origin: `case when r.estimated > 0 then 'estimated' else 'measured' end`,
};

/** What each span adds on its first day and takes away the day after its last. */
const EVENT_FIGURES: readonly (readonly [name: string, expression: string])[] = [
  ['translations', '1'],
  ['estimated', `(s.origin = 'estimated')::integer`],
  ['failing_known', '(s.failing is not null)::integer'],
  ...COUNTS.map((c) => [c, `coalesce(s.${c}, 0)`] as const),
  ['failing', 'coalesce(s.failing, 0)'],
  ['untranslated', 'coalesce(s.total - s.translated, 0)'],
  ['untranslated_words', 'coalesce(s.total_words - s.translated_words, 0)'],
];

/** Where a daily summary's spans `s` come from, and its group keys where not `s.<key>`. */
interface EventSource {
  from: string;
  keys: Readonly<Record<string, string>>;
}

const SPANS_SOURCE: EventSource = {
  from: 'weblate.translation_progress_spans(only_projects, only_language, only_components) s',
  keys: {},
};

/** A category's spans: those of its components and of the components of its subcategories. */
const CATEGORY_SOURCE: EventSource = {
  from: `${SPANS_SOURCE.from}
      join weblate.components c on c.id = s.component_id
      join weblate.category_tree tr on tr.category_id = c.category_id
      join weblate.categories k on k.id = tr.ancestor_id`,
  keys: {
    category_id: 'k.id',
    category_slug: 'k.slug',
    project_id: 'k.project_id',
    project_slug: 'k.project_slug',
  },
};

/**
 * A daily summary's body: each span adds its figures on its first day and takes them away
 * the day after its last; running sums per group give the group's figures from one event
 * to the next. A count of components, when the summary has one, moves when a component's
 * first translation enters the group or its last one leaves.
 */
function eventQuery(summary: Summary, source: EventSource = SPANS_SOURCE): string {
  const keys = summary.keys.map(([name]) => name).filter((k) => k !== 'day');
  const countsComponents = keys.includes('components');
  const group = keys.filter((k) => k !== 'components');
  const g = group.join(', ');
  const groupColumns = group.map((k) => `${source.keys[k] ?? `s.${k}`} as ${k}`).join(', ');
  const names = EVENT_FIGURES.map(([name]) => name);
  const sums = (over: string) => names.map((n) => `sum(${n})${over}::bigint as ${n}`).join(', ');
  const columns = [
    ...summary.keys.map(([name]) =>
      name === 'day' ? 'g.day::date' : name === 'components' ? 'r.components' : `r.${name}`,
    ),
    ...figuresOf(summary, ORIGIN_FIGURES).map((f) => {
      const expression = FIGURE_OF[f.name];
      if (expression === undefined) throw new Error(`${summary.fn}: no span sum for ${f.name}`);
      return expression;
    }),
  ];
  const components = countsComponents
    ? `, by_component as (
        select ${g}, span_component, day, sum(translations) as n
        from events group by ${g}, span_component, day
      ), component_runs as (
        select ${g}, span_component, day,
               sum(n) over (partition by ${g}, span_component order by day) as n
        from by_component
      ), component_events as (
        select ${g}, day,
               (n > 0)::integer
                 - (coalesce(lag(n) over (partition by ${g}, span_component order by day), 0) > 0)::integer
                 as components
        from component_runs
      )`
    : '';
  const eventRows = countsComponents
    ? `select ${g}, day, ${names.join(', ')}, 0 as components from events
       union all
       select ${g}, day, ${names.map(() => '0').join(', ')}, components from component_events`
    : `select ${g}, day, ${names.join(', ')} from events`;
  const withComponents = (s: string) => (countsComponents ? `${s}, ` : '');
  return `
    with events as (
      select ${groupColumns}, s.component_id as span_component,
             ev.day, ${EVENT_FIGURES.map(([n, e]) => `ev.sign * ${e}::bigint as ${n}`).join(', ')}
      from ${source.from}
      cross join lateral (values (s.first_day, 1), (s.last_day + 1, -1)) as ev(day, sign)
    )${components}, by_day as (
      select ${g}, day, ${withComponents('sum(components) as components')}${sums('')}
      from (${eventRows}) e
      group by ${g}, day
    ), runs as (
      select ${g}, day, lead(day) over w as next_day,
             ${withComponents('sum(components) over w::bigint as components')}${sums(' over w')}
      from by_day
      window w as (partition by ${g} order by day)
    )
    select ${columns.join(', ')}
    from runs r
    cross join lateral generate_series(r.day::timestamp, (r.next_day - 1)::timestamp,
                                       interval '1 day') as g(day)
    where r.translations > 0`;
}

const FAILING_CHECKS_0010 = ANSWERS.find((f) => f.name === 'failing_checks')!;

/**
 * failing_checks over the measured spans: each translation's value on its last measured day
 * of each period and the window, found per span and period instead of per day. Periods of
 * a day, week, month, quarter or year step from one start to the next; any other unit of
 * date_trunc goes day by day, as before.
 */
const FAILING_CHECKS: AnswerFunction = {
  ...FAILING_CHECKS_0010,
  body: `
    with clipped as (
      select s.translation_id, s.project_slug, s.component_slug, s.language_code, s.failing,
             s.total, greatest(s.first_day, (since at time zone 'UTC')::date) as f,
             least(s.last_day, (until at time zone 'UTC')::date - 1) as l
      from weblate.translation_progress_spans(only_projects, only_language, only_components) s
      where s.origin = 'measured' and per in ('translation', 'language')
    ), step as (
      select case lower(period_unit)
               when 'day' then interval '1 day' when 'week' then interval '1 week'
               when 'month' then interval '1 month' when 'quarter' then interval '3 months'
               when 'year' then interval '1 year'
             end as step
    ), ends as (
      select c.*, p.start::date as period_start, least(c.l, (p.start + st.step)::date - 1) as day
      from clipped c cross join step st
      cross join lateral generate_series(date_trunc(period_unit, c.f::timestamp),
                                         date_trunc(period_unit, c.l::timestamp), st.step) as p(start)
      where c.l >= c.f and st.step is not null
      union all
      select c.*, null::date, c.l from clipped c where c.l >= c.f and period_unit is null
      union all
      select c.*, date_trunc(period_unit, g.day)::date, g.day::date
      from clipped c cross join step st
      cross join lateral generate_series(c.f::timestamp, c.l::timestamp, interval '1 day') as g(day)
      where c.l >= c.f and st.step is null and period_unit is not null
    ), last_day as (
      select distinct on (e.translation_id, e.period_start) e.*
      from ends e
      order by e.translation_id, e.period_start, e.day desc
    )${FAILING_SUMS}`,
};

const PROGRESS_BY_LABEL_0012 = LABEL_FUNCTIONS.find((f) => f.name === 'progress_by_label')!;

/**
 * progress_by_label reading each labelled unit's state and words with the label, once: the
 * view labelled_units gave ids only, and joining units again read the table a second time.
 */
const PROGRESS_BY_LABEL: LabelFunction = {
  ...PROGRESS_BY_LABEL_0012,
  body: progressByLabel(
    labelTranslations(`(
      select ul.label_id, u.id as unit_id, u.translation_id, u.state, u.num_words,
             u.has_failing_check
      from weblate.unit_labels ul
      join weblate.labels lb on lb.id = ul.label_id and lb.deleted_at is null
      join weblate.units u on u.id = ul.unit_id
      where ul.deleted_at is null and u.deleted_at is null
      union
      select ul.label_id, u.id, u.translation_id, u.state, u.num_words, u.has_failing_check
      from weblate.unit_labels ul
      join weblate.labels lb on lb.id = ul.label_id and lb.deleted_at is null
      join weblate.units u on u.source_unit_id = ul.unit_id
      where ul.deleted_at is null and u.deleted_at is null
    ) u`),
  ),
};

async function replaceLabelFunction(db: Kysely<unknown>, fn: LabelFunction): Promise<void> {
  await sql`
    create or replace function ${sql.raw(`weblate.${fn.name}(${ARGUMENTS})`)}
    returns table (${sql.raw(`${fn.keys}, ${LABEL_RETURNS}`)})
    language sql stable parallel safe as $fn$${sql.raw(fn.body)}$fn$`.execute(db);
}

/** The daily summaries whose bodies this migration replaces (their views follow). */
const DAILY_SUMMARIES: readonly Summary[] = SUMMARIES.filter((s) => s.source === 'daily');
const CATEGORY_DAILY: Summary = CATEGORY_SUMMARIES.find((s) => s.source === 'daily')!;

async function replaceSummary(db: Kysely<unknown>, summary: Summary, body: string): Promise<void> {
  const returns = [
    ...summary.keys.map(([name, type]) => `${name} ${type}`),
    ...figuresOf(summary, ORIGIN_FIGURES).map((f) => `${f.name} ${f.type}`),
  ].join(', ');
  await sql`
    create or replace function ${sql.raw(`weblate.${summary.fn}(${ARGUMENTS})`)}
    returns table (${sql.raw(returns)})
    language sql stable parallel safe as $fn$${sql.raw(body)}$fn$`.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function ${sql.raw(`weblate.translation_progress_spans(${ARGUMENTS})`)}
    returns table (${sql.raw(SPAN_COLUMNS)})
    language sql stable parallel safe as $fn$${sql.raw(SPANS)}$fn$`.execute(db);
  await sql`create or replace view weblate.translation_progress_daily as ${sql.raw(DAILY)}`.execute(
    db,
  );
  for (const summary of DAILY_SUMMARIES) await replaceSummary(db, summary, eventQuery(summary));
  await replaceSummary(db, CATEGORY_DAILY, eventQuery(CATEGORY_DAILY, CATEGORY_SOURCE));
  await replaceAnswer(db, FAILING_CHECKS);
  await replaceLabelFunction(db, PROGRESS_BY_LABEL);
  await grantExecuteToReader(db, ['weblate.translation_progress_spans(text[], text, text[])']);
  await setJit(db, 'set jit = off');
}

/**
 * JIT off for every session of the mirror's database, dashboards' logins included: the
 * planner's row estimates of table functions make it compile reads that it only slows
 * (docs/performance.md). A login that may not alter the database keeps the server's setting.
 */
async function setJit(db: Kysely<unknown>, setting: 'set jit = off' | 'reset jit'): Promise<void> {
  await sql`
    do $$
    begin
      execute format('alter database %I ${sql.raw(setting)}', current_database());
    exception
      when insufficient_privilege then
        raise notice 'the database keeps its jit setting: %', sqlerrm;
    end
    $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const summary of [...DAILY_SUMMARIES, CATEGORY_DAILY])
    await replaceSummary(db, summary, scopedQuery(summary, ORIGIN_FIGURES));
  await replaceAnswer(db, FAILING_CHECKS_0010);
  await replaceLabelFunction(db, PROGRESS_BY_LABEL_0012);
  await sql`create or replace view weblate.translation_progress_daily as ${dailyWithEstimates()}`.execute(
    db,
  );
  await sql`drop function weblate.translation_progress_spans(text[], text, text[])`.execute(db);
  await setJit(db, 'reset jit');
}
