import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { DbHandle } from '../../src/db/client.ts';
import type { Database } from '../../src/db/database.ts';
import { addDays } from '../../src/report/days.ts';
import type { Report } from '../../src/report/model.ts';
import { type CliResult, databaseEnv, runCli } from '../helpers/cli.ts';
import { runCliInProcess } from '../helpers/commands.ts';
import {
  createReportFixture,
  HOSTILE_NAME,
  type ReportFixture,
} from '../helpers/report-fixture.ts';

/**
 * `weblate-mirror report` over a synced simulator with 40 days of statistics history and
 * recent changes (test/helpers/report-fixture.ts). Every figure is checked against plain
 * SQL on the reporting views or the tables beneath them.
 */

let fixture: ReportFixture;
let handle: DbHandle;
let db: Kysely<Database>;
const runs: Record<string, CliResult> = {};
let report: Report;
let filtered: Report;
let since: Report;
let history: Report;
let today: string;
let first: string;
let project: string;
let language: string;

/** The CLI runs (each opens the database itself, so the test's handle is closed meanwhile). */
const RUNS: Record<string, string[]> = {
  json: ['--format', 'json', '--limit', '1000'],
  csv: ['--format', 'csv', '--limit', '1000'],
  table: [],
  since: ['--format', 'json', '--since', 'SINCE'],
  history: ['--format', 'json', '--since', 'FIRST', '--limit', '1000'],
  filtered: ['--format', 'json', '--project', 'PROJECT', '--language', 'LANGUAGE'],
  unknownProject: ['--project', 'PROJECT,no-such-project'],
  unknownLanguage: ['--language', 'xx_NOPE'],
  future: ['--since', '2999-01-01'],
};

beforeAll(async () => {
  fixture = await createReportFixture();
  const probe = await fixture.database.open();
  ({ today } = (
    await sql<{ today: string }>`select (now() at time zone 'UTC')::date::text as today`.execute(
      probe.db,
    )
  ).rows[0]!);
  const pick = await sql<{ project_slug: string; language_code: string }>`
    select project_slug, language_code from weblate.translation_progress
    where project_slug <> ${fixture.hostileProject}
    order by project_slug, language_code limit 1`.execute(probe.db);
  ({ project_slug: project, language_code: language } = pick.rows[0]!);
  ({ first } = (
    await sql<{ first: string }>`
      select min((timestamp at time zone 'UTC')::date)::text as first from weblate.changes`.execute(
      probe.db,
    )
  ).rows[0]!);
  await probe.close();
  for (const [name, args] of Object.entries(RUNS)) {
    const resolved = args.map((a) =>
      a
        .replace('SINCE', addDays(today, -12))
        .replace('FIRST', first)
        .replace('PROJECT', project)
        .replace('LANGUAGE', language),
    );
    runs[name] = await runCliInProcess(['report', ...resolved], databaseEnv(fixture.database));
  }
  report = JSON.parse(runs.json!.stdout) as Report;
  filtered = JSON.parse(runs.filtered!.stdout) as Report;
  since = JSON.parse(runs.since!.stdout) as Report;
  history = JSON.parse(runs.history!.stdout) as Report;
  handle = await fixture.database.open();
  db = handle.db;
});

afterAll(async () => {
  await fixture?.sim.close();
  await fixture?.database.drop();
});

/** Rows of a view as the report's numbers: bigint and numeric strings become numbers. */
async function viewRows(query: ReturnType<typeof sql>): Promise<Array<Record<string, unknown>>> {
  const result = await (query as ReturnType<typeof sql<Record<string, unknown>>>).execute(db);
  return result.rows.map((row) =>
    Object.fromEntries(
      Object.entries(row).map(([k, v]) => [
        k,
        typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v) && !k.endsWith('_slug') ? Number(v) : v,
      ]),
    ),
  );
}

function pick<T extends object>(rows: T[], keys: string[]): Array<Record<string, unknown>> {
  return rows.map((row) =>
    Object.fromEntries(keys.map((k) => [k, (row as Record<string, unknown>)[k]])),
  );
}

const FIGURES = [
  'translations',
  'total',
  'translated',
  'translated_percent',
  'total_words',
  'translated_words',
  'translated_words_percent',
  'fuzzy',
  'approved',
  'failing',
  'untranslated',
  'untranslated_words',
];

describe('report --format json', () => {
  it('succeeds quietly', () => {
    for (const name of ['json', 'csv', 'table', 'since', 'filtered', 'history']) {
      expect(runs[name]!.stderr, name).toBe('');
      expect(runs[name]!.code, name).toBe(0);
    }
  });

  it('gives the progress of project_progress, language_progress and component_progress', async () => {
    const keys = (first: string[]) => [...first, ...FIGURES];
    expect(pick(report.projects, keys(['project_slug', 'project_name', 'components']))).toEqual(
      await viewRows(sql`
        select project_slug, project_name, components, ${sql.raw(FIGURES.join(', '))}
        from weblate.project_progress order by project_slug`),
    );
    expect(pick(report.languages, keys(['language_code', 'projects', 'components']))).toEqual(
      await viewRows(sql`
        select language_code, projects, components, ${sql.raw(FIGURES.join(', '))}
        from weblate.language_progress order by language_code`),
    );
    expect(pick(report.components, keys(['project_slug', 'component_slug']))).toEqual(
      await viewRows(sql`
        select project_slug, component_slug, ${sql.raw(FIGURES.join(', '))}
        from weblate.component_progress order by project_slug, component_slug`),
    );
    expect(
      report.projects.find((p) => p.project_slug === fixture.hostileProject)?.project_name,
    ).toBe(HOSTILE_NAME);
  });

  it('measures movers over 7 and 30 days from translation_progress_daily', async () => {
    expect(report.movers.map((w) => [w.name, w.from, w.baseline_day, w.to])).toEqual([
      ['7d', addDays(today, -6), addDays(today, -7), today],
      ['30d', addDays(today, -29), addDays(today, -30), today],
    ]);
    for (const window of report.movers) {
      const expected = await viewRows(sql`
        select n.project_slug, n.component_slug, n.language_code, b.day::text as from_day,
               b.origin as from_origin,
               b.translated_percent as translated_percent_then,
               n.translated_percent as translated_percent_now,
               n.translated_percent - b.translated_percent as translated_percent_change,
               b.translated_words as translated_words_before,
               n.translated_words as translated_words_now,
               n.translated_words - b.translated_words as translated_words_change
        from weblate.translation_progress_daily n
        join weblate.translation_progress_daily b
          on b.translation_id = n.translation_id and b.day = ${window.baseline_day}::date
        where n.day = ${today}::date and n.translated <> b.translated
        order by n.project_slug, n.component_slug, n.language_code`);
      expect(expected.length).toBeGreaterThan(2);
      expect(window.matching).toBe(expected.length);
      const key = (r: object) => {
        const {
          project_slug: p,
          component_slug: c,
          language_code: l,
        } = r as Record<string, unknown>;
        return `${String(p)}/${String(c)}/${String(l)}`;
      };
      const sorted = [...window.rows].sort((a, b) => key(a).localeCompare(key(b)));
      expect(sorted).toEqual([...expected].sort((a, b) => key(a).localeCompare(key(b))));
      const changes = window.rows.map((r) => Math.abs(r.translated_percent_change ?? 0));
      expect(changes).toEqual([...changes].sort((a, b) => b - a));
    }
  });

  it('counts each day of activity and each contributor from the changes', async () => {
    const from = report.window.from;
    expect(report.window).toEqual({ from: addDays(today, -29), to: today });
    const activity = await viewRows(sql`
      select (timestamp at time zone 'UTC')::date::text as day, count(*) as changes
      from weblate.changes
      where timestamp >= (${from}::date)::timestamp at time zone 'UTC'
      group by 1 order by 1`);
    expect(report.activity).toHaveLength(30);
    expect(
      report.activity.filter((d) => d.changes > 0).map((d) => ({ day: d.day, changes: d.changes })),
    ).toEqual(activity);
    const words = await viewRows(sql`
      select coalesce(sum(words), 0)::bigint as words from weblate.activity_daily
      where day >= ${from}::date`);
    expect(report.activity.reduce((sum, d) => sum + d.words_translated, 0)).toBe(words[0]!.words);
    // People as Weblate credits them: content changes of a translation, by their author.
    const contributors = await viewRows(sql`
      select ch.author_name, count(*) as credited_changes,
             coalesce(sum(u.num_words), 0) as credited_words,
             (select max((a.timestamp at time zone 'UTC')::date)::text from weblate.changes a
              where a.author_name = ch.author_name
                and a.timestamp >= (${from}::date)::timestamp at time zone 'UTC') as last_day
      from weblate.changes ch left join weblate.units u on u.id = ch.unit_id
      where ch.author_name is not null and ch.translation_id is not null
        and ch.action in (2, 5, 6, 7, 8, 9, 27, 30, 31, 32, 36, 37, 66, 76, 77, 79, 94)
        and ch.timestamp >= (${from}::date)::timestamp at time zone 'UTC'
      group by ch.author_name
      order by credited_changes desc, credited_words desc, ch.author_name`);
    expect(contributors.length).toBeGreaterThan(1);
    expect(report.contributors.matching).toBe(contributors.length);
    expect(
      pick(report.contributors.rows, [
        'author_name',
        'credited_changes',
        'credited_words',
        'last_day',
      ]),
    ).toEqual(contributors);
  });

  it('lists as stalled the translations with strings left and no change in the window', async () => {
    const expected = await viewRows(sql`
      select project_slug, component_slug, language_code, untranslated, days_since_last_change
      from weblate.stalled_translations
      where idle_since < (${report.window.from}::date)::timestamp at time zone 'UTC'
      order by idle_since, untranslated_words desc, translation_id`);
    expect(expected.length).toBeGreaterThan(0);
    expect(report.stalled.matching).toBe(expected.length);
    expect(
      pick(report.stalled.rows, [
        'project_slug',
        'component_slug',
        'language_code',
        'untranslated',
        'days_since_last_change',
      ]),
    ).toEqual(expected);
  });

  it('starts the movers, activity and stalled window at --since', () => {
    const from = addDays(today, -12);
    expect(since.filters.since).toBe(from);
    expect(since.window).toEqual({ from, to: today });
    // The 7-day window fits inside the 13 days since: it is kept; the 30-day one is not.
    expect(since.movers.map((w) => [w.name, w.from, w.baseline_day])).toEqual([
      ['since', from, addDays(from, -1)],
      ['7d', addDays(today, -6), addDays(today, -7)],
    ]);
    expect(since.activity.map((d) => d.day)[0]).toBe(from);
    expect(since.activity).toHaveLength(13);
    expect(since.language_history.every((r) => r.day >= from)).toBe(true);
    // Ten rows at most without --limit.
    expect(since.stalled.rows.length).toBeLessThanOrEqual(10);
  });
});

describe('report sections of new work, contributors, review, method, readiness and quality', () => {
  /** `and ch.timestamp` within the report's window (UTC days, today included). */
  const inWindow = () =>
    sql`ch.timestamp >= (${report.window.from}::date)::timestamp at time zone 'UTC'`;

  it('reads the 30-day window by week', () => {
    expect(report.period).toBe('week');
    for (const row of [...report.new_work, ...report.translation_methods, ...report.quality]) {
      // Weeks start on Monday (UTC) and overlap the window.
      expect(new Date(`${row.period_start}T00:00:00Z`).getUTCDay()).toBe(1);
      expect(row.period_start > addDays(report.window.from, -7)).toBe(true);
      expect(row.period_start <= today).toBe(true);
    }
  });

  it('counts each new source string once per component, by month over a long window', async () => {
    expect(history.period).toBe('month');
    const [expected] = await viewRows(sql`
      select count(distinct (ch.project_slug, ch.component_slug,
                             coalesce(u.id_hash::text, 'change ' || ch.id))) as strings
      from weblate.changes ch left join weblate.units u on u.id = ch.unit_id
      where ch.action in (13, 31, 71, 73, 89, 90)`);
    expect(expected!.strings).toBeGreaterThan(0);
    expect(history.new_work.reduce((sum, r) => sum + r.strings_added, 0)).toBe(expected!.strings);
    for (const row of history.new_work) expect(row.period_start).toMatch(/-01$/);
    // The fixture's 4 strings of 2 days ago, logged in every translation, count once each.
    const [recent] = await viewRows(sql`
      select count(*) as n from weblate.changes ch
      where ch.action in (13, 31, 71, 73, 89, 90) and ${inWindow()}`);
    expect(recent!.n).toBeGreaterThan(4);
    expect(report.new_work.reduce((sum, r) => sum + r.strings_added, 0)).toBe(4);
    expect(report.new_work.every((r) => r.strings_removed === 0)).toBe(true);
  });

  it('ranks people by the words of every change that translated a string, by its author', async () => {
    const expected = await viewRows(sql`
      select ch.author_name as username, count(*) as strings_translated,
             coalesce(sum(u.num_words), 0) as words_translated
      from weblate.changes ch left join weblate.units u on u.id = ch.unit_id
      where ch.action in (2, 5, 7, 9) and ch.author_name is not null and ${inWindow()}
      group by 1 order by words_translated desc, strings_translated desc, username`);
    expect(expected.length).toBeGreaterThan(1);
    const translating = report.contributor_ranking.rows.filter((r) => r.strings_translated > 0);
    expect(pick(translating, ['username', 'strings_translated', 'words_translated'])).toEqual(
      expected,
    );
    // Named as the server shows them (the simulator shows every user's full name).
    const fullNames = new Map(fixture.sim.instance.users.map((u) => [u.username, u.fullName]));
    for (const row of report.contributor_ranking.rows)
      expect([row.username, row.full_name]).toEqual([row.username, fullNames.get(row.username)]);
    const ranks = report.contributor_ranking.rows.map((r) => r.rank);
    expect(ranks[0]).toBe(1);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    const [approvals] = await viewRows(sql`
      select count(*) as n
      from weblate.changes ch
      where ch.action = 36 and ch.author_name is not null and ${inWindow()}`);
    expect(approvals!.n).toBeGreaterThan(0);
    expect(report.contributor_ranking.rows.reduce((sum, r) => sum + r.strings_approved, 0)).toBe(
      approvals!.n,
    );
  });

  it('counts the strings waiting for review and the approvals of the window', async () => {
    const [waiting] = await viewRows(sql`
      select count(*) as n
      from weblate.units u
      join weblate.translations t on t.id = u.translation_id
      join weblate.components c on c.id = t.component_id
      join weblate.projects p on p.id = c.project_id
      where u.state = 20 and p.translation_review and t.is_source is not true
        and u.deleted_at is null`);
    expect(waiting!.n).toBeGreaterThan(0);
    const { waiting: list, approval } = report.review;
    expect(list.rows.reduce((sum, r) => sum + r.strings_waiting, 0)).toBe(waiting!.n);
    const since = list.rows.map((r) => r.waiting_since);
    expect(since).toEqual([...since].sort());
    const [approvals] = await viewRows(sql`
      select count(*) as n from weblate.changes ch where ch.action = 36 and ${inWindow()}`);
    expect(approvals!.n).toBeGreaterThan(0);
    expect(approval.rows.reduce((sum, r) => sum + r.approvals, 0)).toBe(approvals!.n);
    for (const r of approval.rows) {
      expect(r.measured).toBeLessThanOrEqual(r.approvals);
      if (r.median_hours !== null) expect(r.median_hours).toBeLessThanOrEqual(r.max_hours!);
    }
  });

  it('splits the changes that saved a translation by method', async () => {
    const expected = await viewRows(sql`
      select case when ch.action in (2, 5, 7, 8, 94) then 'person'
                  when ch.action = 6 then 'automatic'
                  when ch.action in (9, 72) then 'upload'
                  when ch.action = 59 then 'repository'
                  when ch.action = 77 then 'propagated'
                  else 'replaced' end as method, count(*) as strings
      from weblate.changes ch
      where ch.action in (2, 5, 6, 7, 8, 9, 27, 59, 72, 77, 94) and ${inWindow()}
      group by 1 order by 1`);
    expect(expected.length).toBeGreaterThan(0);
    const byMethod = new Map<string, number>();
    for (const r of report.translation_methods)
      byMethod.set(r.method, (byMethod.get(r.method) ?? 0) + r.strings_saved);
    expect([...byMethod].sort().map(([method, strings]) => ({ method, strings }))).toEqual(
      expected,
    );
  });

  it('tells per project and language whether 80, 90 and 95 % of words are translated', async () => {
    const expected = await viewRows(sql`
      select project_slug, language_code, sum(translated_words) as translated_words,
             sum(total_words) as total_words
      from weblate.translation_progress
      group by 1, 2 order by 1, 2`);
    const lines = report.release_readiness.filter((r) => r.threshold === 80);
    expect(
      pick(lines, ['project_slug', 'language_code', 'translated_words', 'total_words']),
    ).toEqual(expected);
    expect(report.release_readiness).toHaveLength(3 * expected.length);
    for (const r of report.release_readiness) {
      expect(r.is_reached).toBe(r.translated_words * 100 >= r.threshold * r.total_words);
      if (r.is_reached) expect(r.projected_date).toBeNull();
      if (r.projected_date !== null) expect(r.projected_date > today).toBe(true);
    }
  });

  it('gives the failing checks of the last measured day of each week', async () => {
    const [expected] = await viewRows(sql`
      select sum(failing) as failing, sum(total) as total
      from weblate.translation_progress_daily where day = ${today}::date and origin = 'measured'`);
    const last = report.quality.at(-1)!;
    expect(last.day).toBe(today);
    expect({ failing: last.failing, total: last.total }).toEqual(expected);
    expect(last.failing).toBeGreaterThan(0);
    expect(report.quality.every((r) => r.failing <= r.total)).toBe(true);
  });

  it('narrows the new sections to the project and the language', () => {
    expect(filtered.release_readiness.length).toBe(3);
    for (const row of [
      ...filtered.release_readiness,
      ...filtered.review.waiting.rows,
      ...filtered.review.approval.rows,
    ]) {
      expect(row.project_slug).toBe(project);
      expect(row.language_code).toBe(language);
    }
    for (const c of filtered.contributor_ranking.rows) expect(c.languages).toEqual([language]);
    const methods = (r: Report) =>
      r.translation_methods.reduce((sum, m) => sum + m.strings_saved, 0);
    expect(methods(filtered)).toBeLessThan(methods(report));
  });

  it('prints the new sections and writes them to CSV as in JSON', () => {
    const out = runs.table!.stdout;
    for (const title of [
      'New work: source strings added and removed per week',
      'Contributors ranked by words translated',
      'Review: strings waiting for approval',
      'Review: time from translation to approval',
      'Translation method: words saved per week',
      'Release readiness: translated words against 80, 90 and 95 %',
      'Quality: strings with failing checks',
    ])
      expect(out).toContain(title);
    const sections = parseCsvSections(runs.csv!.stdout);
    expect(sections.get('new_work')).toEqual(asText(report.new_work));
    expect(sections.get('contributor_ranking')).toEqual(asText(report.contributor_ranking.rows));
    expect(sections.get('review_waiting')).toEqual(asText(report.review.waiting.rows));
    expect(sections.get('review_approval')).toEqual(asText(report.review.approval.rows));
    expect(sections.get('translation_methods')).toEqual(asText(report.translation_methods));
    expect(sections.get('release_readiness')).toEqual(asText(report.release_readiness));
    expect(sections.get('quality')).toEqual(asText(report.quality));
  });
});

describe('report filters', () => {
  it('narrows every section to the project and the language', () => {
    expect(filtered.filters).toEqual({
      projects: [project],
      language,
      since: null,
      category: null,
      label: null,
    });
    expect(filtered.projects.map((p) => p.project_slug)).toEqual([project]);
    expect(filtered.languages.map((l) => l.language_code)).toEqual([language]);
    const rows = [
      ...filtered.components,
      ...filtered.movers.flatMap((w) => w.rows),
      ...filtered.stalled.rows,
    ];
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.project_slug).toBe(project);
    for (const row of [...filtered.movers.flatMap((w) => w.rows), ...filtered.stalled.rows])
      expect(row.language_code).toBe(language);
    for (const c of filtered.contributors.rows) expect(c.languages).toEqual([language]);
    expect(new Set(filtered.language_history.map((r) => r.language_code))).toEqual(
      new Set([language]),
    );
  });

  it('sums the figures of the translations left, as the views would', async () => {
    const [sums] = await viewRows(sql`
      select count(*) as translations, sum(total) as total, sum(translated) as translated,
             weblate.truncated_percent(sum(translated), sum(total), true) as translated_percent
      from weblate.translation_progress
      where project_slug = ${project} and language_code = ${language}`);
    for (const row of [filtered.projects[0]!, filtered.languages[0]!])
      expect(pick([row], ['translations', 'total', 'translated', 'translated_percent'])).toEqual([
        sums,
      ]);
    const history = await viewRows(sql`
      select day::text as day, weblate.truncated_percent(sum(translated), sum(total), true) as p
      from weblate.translation_progress_daily
      where project_slug = ${project} and language_code = ${language}
        and day >= ${filtered.window.from}::date
      group by day order by day`);
    expect(filtered.language_history.map((r) => ({ day: r.day, p: r.translated_percent }))).toEqual(
      history,
    );
    const changes = await viewRows(sql`
      select count(*) as n from weblate.changes
      where project_slug = ${project} and language_code = ${language}
        and timestamp >= (${filtered.window.from}::date)::timestamp at time zone 'UTC'`);
    expect(filtered.activity.reduce((sum, d) => sum + d.changes, 0)).toBe(changes[0]!.n);
  });
});

describe('report --format csv', () => {
  it('parses back into the sections of the JSON report', () => {
    const sections = parseCsvSections(runs.csv!.stdout);
    expect([...sections.keys()]).toEqual([
      'report',
      'projects',
      'languages',
      'components',
      'categories',
      'labels',
      'movers_7d',
      'movers_30d',
      'contributors',
      'stalled',
      'language_history',
      'activity',
      'new_work',
      'contributor_ranking',
      'review_waiting',
      'review_approval',
      'translation_methods',
      'release_readiness',
      'quality',
      'translator_work',
      'machine_translation',
      'time_in_state',
      'over_target',
    ]);
    expect(sections.get('projects')).toEqual(asText(report.projects));
    expect(sections.get('machine_translation')).toEqual(
      asText(report.effort.machine_translation.rows),
    );
    expect(sections.get('languages')).toEqual(asText(report.languages));
    expect(sections.get('components')).toEqual(asText(report.components));
    expect(sections.get('categories')).toEqual(asText(report.categories));
    expect(sections.get('labels')).toEqual(asText(report.labels));
    expect(sections.get('movers_30d')).toEqual(asText(report.movers[1]!.rows));
    expect(sections.get('contributors')).toEqual(asText(report.contributors.rows));
    expect(sections.get('stalled')).toEqual(asText(report.stalled.rows));
    expect(sections.get('language_history')).toEqual(asText(report.language_history));
    expect(sections.get('activity')).toEqual(asText(report.activity));
    expect(sections.get('report')?.[0]).toMatchObject({ window_from: report.window.from });
    // The name with a quote and a comma came back whole.
    expect(sections.get('projects')!.map((p) => p.project_name)).toContain(HOSTILE_NAME);
  });

  it('ends every line with CRLF', () => {
    expect(runs.csv!.stdout).toMatch(/\r\n$/);
    expect(runs.csv!.stdout.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
  });
});

describe('the instance the report names', () => {
  it('is the database record, in JSON, the CSV report row and the table header', () => {
    const instance = `${fixture.sim.url}api/`;
    expect(report.instance).toBe(instance);
    expect(Object.keys(report).slice(0, 4)).toEqual([
      'format',
      'generated_at',
      'instance',
      'filters',
    ]);
    expect(parseCsvSections(runs.csv!.stdout).get('report')?.[0]).toMatchObject({ instance });
    expect(runs.table!.stdout.split('\n')[0]).toMatch(
      new RegExp(`^Weblate mirror report of ${instance.replace(/[.]/g, '\\.')}, \\d{4}-`),
    );
  });
});

describe('report (table)', () => {
  it('prints every section with its title and the figures', () => {
    const out = runs.table!.stdout;
    for (const title of [
      'Progress by project',
      'Progress by language',
      'Progress by component',
      'Biggest movers, last 7 days',
      'Biggest movers, last 30 days',
      'Contributors as Weblate credits them',
      'Stalled translations',
    ])
      expect(out).toContain(title);
    const first = report.components[0]!;
    expect(out).toMatch(
      new RegExp(
        `^${first.project_slug}\\s+${first.component_slug}\\s+${first.translations}\\s+${first.total}\\s+${first.translated}\\s+${first.translated_percent!.toFixed(1)}\\s`,
        'm',
      ),
    );
    // The hostile name is printed on one line, as text.
    expect(out).toContain('<script>document.title="pwned"</script> & "Friends", Ltd');
  });
});

describe('report usage', () => {
  it('exits 2 with a clear message on a bad flag value', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['--format', 'xml'], /--format must be one of table, json, csv, not "xml"/],
      [['--since', '2026-02-30'], /--since must be a date written YYYY-MM-DD, not "2026-02-30"/],
      [['--since', 'last week'], /--since must be a date written YYYY-MM-DD/],
      [['--limit', '0'], /--limit must be a positive whole number, not "0"/],
      [['--project', 'a b'], /--project takes project slugs/],
      [['--html', ''], /--html needs a file name/],
    ];
    const results = await Promise.all(cases.map(([args]) => runCli(['report', ...args], {})));
    results.forEach((result, i) => {
      expect(result.code, cases[i]![0].join(' ')).toBe(2);
      expect(result.stderr).toMatch(cases[i]![1]);
      expect(result.stdout).toBe('');
    });
  });

  it('exits 2 on a project or language the mirror does not have, and on a future --since', () => {
    expect(runs.unknownProject!.code).toBe(2);
    expect(runs.unknownProject!.stderr).toContain('--project: no live project "no-such-project"');
    expect(runs.unknownLanguage!.code).toBe(2);
    expect(runs.unknownLanguage!.stderr).toContain(
      '--language: the mirror knows no language "xx_NOPE"',
    );
    expect(runs.future!.code).toBe(2);
    expect(runs.future!.stderr).toContain(`--since 2999-01-01 is after today (${today}, UTC)`);
  });
});

/** Rows as CSV gives them back: text, lists space-separated, nulls empty. */
function asText(rows: object[]): Array<Record<string, string>> {
  return rows.map((row) =>
    Object.fromEntries(
      Object.entries(row).map(([k, v]) => [
        k,
        v === null ? '' : Array.isArray(v) ? v.join(' ') : String(v),
      ]),
    ),
  );
}

/** RFC 4180 CSV sections as printed by `report --format csv`: name → rows keyed by header. */
function parseCsvSections(text: string): Map<string, Array<Record<string, string>>> {
  const sections = new Map<string, Array<Record<string, string>>>();
  for (const block of text.split(/\r\n\r\n/)) {
    if (block.trim() === '') continue;
    const newline = block.indexOf('\r\n');
    const name = block.slice(0, newline).replace(/^# /, '');
    const [header, ...rows] = parseCsv(block.slice(newline + 2));
    sections.set(
      name,
      rows.map((row) => Object.fromEntries(header!.map((h, i) => [h, row[i] ?? '']))),
    );
  }
  return sections;
}

function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += 1;
    } else field += ch;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}
