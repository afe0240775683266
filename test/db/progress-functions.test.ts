import { type Kysely, type RawBuilder, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { down, up } from '../../migrations/0005_add_progress_functions.ts';
import {
  down as downEstimates,
  up as upEstimates,
} from '../../migrations/0007_add_estimated_history.ts';
import { down as downAnswers, up as upAnswers } from '../../migrations/0010_add_answer_views.ts';
import {
  down as downScoped,
  up as upScoped,
} from '../../migrations/0012_add_category_label_progress.ts';
import { down as downSpans, up as upSpans } from '../../migrations/0014_progress_spans.ts';
import { down as downHistory, up as upHistory } from '../../migrations/0015_one_history.ts';
import { down as downPeople, up as upPeople } from '../../migrations/0017_people_and_freshness.ts';
import { down as downWork, up as upWork } from '../../migrations/0018_translator_work_and_cost.ts';
import { down as downPostEdits, up as upPostEdits } from '../../migrations/0019_add_post_edits.ts';
import { down as downStates, up as upStates } from '../../migrations/0020_time_in_state.ts';
import { down as downFaster, up as upFaster } from '../../migrations/0021_faster_cost_estimate.ts';
import type { DbHandle } from '../../src/db/client.ts';
import type { Database } from '../../src/db/database.ts';
import { createReportFixture, type ReportFixture } from '../helpers/report-fixture.ts';

/**
 * The progress functions of migration 0005 over a synced simulator with 40 days of
 * statistics history: filtered, they sum exactly the translations in the filter; unfiltered,
 * they are the progress views; rolled back, the views sum by themselves again.
 */

let fixture: ReportFixture;
let handle: DbHandle;
let db: Kysely<Database>;
let projects: string[];
let languages: string[];

const FUNCTIONS = [
  'progress_by_component',
  'progress_by_component_daily',
  'progress_by_language',
  'progress_by_language_daily',
  'progress_by_project',
  'progress_by_project_daily',
  'progress_total',
];

/** The views that read the functions, each with an order for its rows. */
const VIEWS: Array<[view: string, order: string]> = [
  ['component_progress', 'component_id'],
  ['project_progress', 'project_id'],
  ['language_progress', 'language_code'],
  ['component_progress_daily', 'day, component_id'],
  ['project_progress_daily', 'day, project_id'],
  ['language_progress_daily', 'day, language_code'],
];

/** Figures compared, summed independently from the per-translation views `x`. */
const FIGURES = sql.raw(`
  count(x.translation_id) as translations,
  sum(x.total)::bigint as total,
  sum(x.translated)::bigint as translated,
  weblate.truncated_percent(sum(x.translated), sum(x.total), true) as translated_percent,
  weblate.truncated_percent(sum(x.translated_words), sum(x.total_words), true) as translated_words_percent,
  sum(x.approved)::bigint as approved,
  weblate.truncated_percent(sum(x.failing), sum(x.total)) as failing_percent,
  sum(x.untranslated_words)::bigint as untranslated_words`);
const FIGURE_NAMES = sql.raw(
  'translations, total, translated, translated_percent, translated_words_percent, approved, failing_percent, untranslated_words',
);

async function rows(query: RawBuilder<unknown>): Promise<unknown[]> {
  return (await query.execute(db)).rows;
}

function only(list: string[]): RawBuilder<unknown> {
  return sql`array[${sql.join(list.map((v) => sql`${v}`))}]::text[]`;
}

beforeAll(async () => {
  fixture = await createReportFixture();
  handle = await fixture.database.open();
  db = handle.db;
  const scope = await sql<{ projects: string[]; languages: string[] }>`
    select array_agg(distinct project_slug order by project_slug) as projects,
           array_agg(distinct language_code order by language_code) as languages
    from weblate.translation_progress`.execute(db);
  ({ projects, languages } = scope.rows[0]!);
});

afterAll(async () => {
  await fixture?.sim.close();
  await fixture?.database.drop();
});

describe('progress functions', () => {
  it('sum exactly the translations of the projects and the language asked for', async () => {
    expect(projects.length).toBeGreaterThan(1);
    expect(languages.length).toBeGreaterThan(1);
    const [project, other] = projects as [string, string];
    const language = languages[0]!;
    expect(
      await rows(sql`
        select project_slug, ${FIGURE_NAMES}
        from weblate.progress_by_project(${only([project, other])}, ${language})
        order by project_slug`),
    ).toEqual(
      await rows(sql`
        select x.project_slug, ${FIGURES} from weblate.translation_progress x
        where x.project_slug in (${project}, ${other}) and x.language_code = ${language}
        group by x.project_slug order by x.project_slug`),
    );
    expect(
      await rows(sql`
        select component_slug, ${FIGURE_NAMES}
        from weblate.progress_by_component(${only([project])}, ${language})
        order by component_id`),
    ).toEqual(
      await rows(sql`
        select x.component_slug, ${FIGURES} from weblate.translation_progress x
        where x.project_slug = ${project} and x.language_code = ${language}
        group by x.component_id, x.component_slug order by x.component_id`),
    );
    expect(
      await rows(sql`
        select language_code, ${FIGURE_NAMES} from weblate.progress_by_language(${only([other])})
        order by language_code`),
    ).toEqual(
      await rows(sql`
        select x.language_code, ${FIGURES} from weblate.translation_progress x
        where x.project_slug = ${other} group by x.language_code order by x.language_code`),
    );
    expect(
      await rows(sql`
        select ${FIGURE_NAMES} from weblate.progress_total(only_language => ${language})`),
    ).toEqual(
      await rows(sql`
        select ${FIGURES} from weblate.translation_progress x where x.language_code = ${language}`),
    );
  });

  it('sum each day the translations of the filter carried that day', async () => {
    const pair = await sql<{ project: string; language: string }>`
      select project_slug as project, language_code as language from weblate.translation_progress
      order by project_slug desc, language_code desc limit 1`.execute(db);
    const { project, language } = pair.rows[0]!;
    const daily = await rows(sql`
      select day, language_code, ${FIGURE_NAMES}
      from weblate.progress_by_language_daily(${only([project])}, ${language})
      order by day`);
    expect(daily.length).toBeGreaterThan(30);
    expect(daily).toEqual(
      await rows(sql`
        select x.day, x.language_code, ${FIGURES} from weblate.translation_progress_daily x
        where x.project_slug = ${project} and x.language_code = ${language}
        group by x.day, x.language_code order by x.day`),
    );
  });

  it('leave out, with a language, the projects and components without a translation into it', async () => {
    const [project] = projects as [string];
    expect(
      await rows(sql`select * from weblate.progress_by_project(${only([project])}, 'xx_NONE')`),
    ).toEqual([]);
    expect(await rows(sql`select * from weblate.progress_by_component(null, 'xx_NONE')`)).toEqual(
      [],
    );
    // Without a language, every live project asked for is listed.
    expect(
      await rows(sql`select project_slug from weblate.progress_by_project(${only([project])})`),
    ).toEqual([{ project_slug: project }]);
  });

  it('are the progress views, inlined so that a filter on a view reaches the tables', async () => {
    for (const [view] of VIEWS) {
      const definition = await sql<{ text: string }>`
        select pg_get_viewdef(${`weblate.${view}`}::regclass) as text`.execute(db);
      expect(definition.rows[0]!.text, view).toMatch(/FROM weblate\.progress_by_\w+\(\)/);
    }
    const plan = await sql<{ 'QUERY PLAN': string }>`
      explain select * from weblate.language_progress_daily
      where day = (now() at time zone 'UTC')::date`.execute(db);
    const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(text).not.toMatch(/Function Scan on progress_/);
  });

  it('may be executed by weblate_reader', async () => {
    for (const name of FUNCTIONS) {
      const result = await sql<{ ok: boolean }>`
        select has_function_privilege('weblate_reader', ${`weblate.${name}(text[], text, text[])`},
                                      'execute') as ok`.execute(db);
      expect(result.rows[0]!.ok, name).toBe(true);
    }
    const read = await db.transaction().execute(async (trx) => {
      await sql`set local role weblate_reader`.execute(trx);
      return (
        await sql<{ n: string }>`
          select count(*) as n from weblate.progress_by_language(${only(projects)})`.execute(trx)
      ).rows;
    });
    expect(read).toEqual([{ n: String(languages.length) }]);
  });

  it('roll back to views that sum by themselves, with the same rows', async () => {
    const snapshot = async () => {
      const result: Record<string, unknown[]> = {};
      for (const [view, order] of VIEWS)
        result[view] = await rows(sql`
          select * from ${sql.table(`weblate.${view}`)} order by ${sql.raw(order)}`);
      return result;
    };
    // The effort answers of 0021 to 0018, 0017's and 0015's definitions, 0014's spans, 0012's
    // component filter and 0010's functions go first; 0007 changed the daily summaries'
    // columns: back to them as 0005 made them.
    await downFaster(db as Kysely<unknown>);
    await downStates(db as Kysely<unknown>);
    await downPostEdits(db as Kysely<unknown>);
    await downWork(db as Kysely<unknown>);
    await downPeople(db as Kysely<unknown>);
    await downHistory(db as Kysely<unknown>);
    await downSpans(db as Kysely<unknown>);
    await downScoped(db as Kysely<unknown>);
    await downAnswers(db as Kysely<unknown>);
    await downEstimates(db as Kysely<unknown>);
    const before = await snapshot();
    expect(before.component_progress_daily!.length).toBeGreaterThan(30);
    await down(db as Kysely<unknown>);
    const left = await sql<{ name: string }>`
      select p.proname as name from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'weblate' order by 1`.execute(db);
    // The trigger functions of 0011 and 0013 are no progress functions: they stay.
    expect(left.rows).toEqual([
      { name: 'keep_unit_labels' },
      { name: 'note_change_users' },
      { name: 'truncated_percent' },
    ]);
    expect(await snapshot()).toEqual(before);
    await up(db as Kysely<unknown>);
    expect(await snapshot()).toEqual(before);
    await upEstimates(db as Kysely<unknown>);
    await upAnswers(db as Kysely<unknown>);
    await upScoped(db as Kysely<unknown>);
    await upSpans(db as Kysely<unknown>);
    await upHistory(db as Kysely<unknown>);
    await upPeople(db as Kysely<unknown>);
    await upWork(db as Kysely<unknown>);
    await upPostEdits(db as Kysely<unknown>);
    await upStates(db as Kysely<unknown>);
    await upFaster(db as Kysely<unknown>);
  });
});
