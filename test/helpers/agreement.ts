import { type Kysely, sql } from 'kysely';

import type { Database } from '../../src/db/database.ts';
import { lastSucceededSyncAt } from '../../src/db/queries/sync-runs.ts';
import { describePace, readinessByLanguage } from '../../src/report/answer-rows.ts';
import type { Progress, Report } from '../../src/report/model.ts';
import { panelRows, panelTitled } from './grafana.ts';
import { disagreements, renderSurfaces } from './surfaces.ts';

// What must hold of one report (test/report/surfaces-agree.test.ts, report-demo.test.ts):
// every figure the same on every surface, and the invariants between its sections. Each
// check returns its problems, one line each; none means it holds.

const SUMMED: readonly (keyof Progress)[] = [
  'translations',
  'total',
  'translated',
  'total_words',
  'translated_words',
  'fuzzy',
  'approved',
  'failing',
  'untranslated',
  'untranslated_words',
];

const sum = <T>(rows: readonly T[], of: (row: T) => number | null) =>
  rows.reduce((total, row) => total + (of(row) ?? 0), 0);

/** Sums equal totals, the one history agrees with itself, people add up to the window. */
export function invariantProblems(r: Report): string[] {
  const out: string[] = [];
  const check = (what: string, got: unknown, want: unknown) => {
    if (got !== want) out.push(`${what}: ${String(got)}, expected ${String(want)}`);
  };
  for (const key of SUMMED) {
    const total = r.totals.progress[key] as number;
    check(
      `languages' ${key}`,
      sum(r.languages, (l) => l[key] as number),
      total,
    );
    check(
      `projects' ${key}`,
      sum(r.projects, (p) => p[key] as number),
      total,
    );
    check(
      `components' ${key}`,
      sum(r.components, (c) => c[key] as number),
      total,
    );
  }
  const { activity } = r.totals;
  check(
    'activity changes',
    sum(r.activity, (d) => d.changes),
    activity.changes,
  );
  check(
    'activity words',
    sum(r.activity, (d) => d.words_translated),
    activity.words_translated,
  );
  check('ranking is whole', r.contributor_ranking.rows.length, r.contributor_ranking.matching);
  check(
    "people's words translated and words without an author",
    sum(r.contributor_ranking.rows, (p) => p.words_translated) +
      activity.words_translated_without_author,
    activity.words_translated,
  );
  check('contributors are whole', r.contributors.rows.length, r.contributors.matching);
  for (const person of r.contributors.rows)
    if (person.credited_changes <= 0) out.push(`${person.author_name} credited with nothing`);
  out.push(...paceProblems(r), ...historyProblems(r));
  return out;
}

/**
 * Release readiness reads the pace from the history the movers read: over the last 30 days,
 * a project and language's net words are its 30-day movers' words changes (those compared
 * with the window's baseline, whose history reaches back), and a stalled translation did not
 * move in that window.
 */
function paceProblems(r: Report): string[] {
  const out: string[] = [];
  const window = r.movers.find((w) => w.name === '30d');
  if (window === undefined) return ['no 30-day movers'];
  if (window.rows.length !== window.matching) return ['30-day movers cut by --limit'];
  const moved = new Map<string, number>();
  for (const m of window.rows)
    if (m.from_day === window.baseline_day) {
      const key = `${m.project_slug}/${m.language_code}`;
      moved.set(key, (moved.get(key) ?? 0) + (m.translated_words_change ?? 0));
    }
  for (const line of readinessByLanguage(r.release_readiness)) {
    const key = `${line.project_slug}/${line.language_code}`;
    const net = line.thresholds[0]!.words_translated_30d;
    if (net !== null && net !== (moved.get(key) ?? 0))
      out.push(`readiness ${key}: ${net} net words in 30 days, movers ${moved.get(key) ?? 0}`);
    if (net === null && moved.has(key))
      out.push(`readiness ${key}: pace unknown, but movers compare with the baseline`);
    if (
      describePace(line) === 'unknown' &&
      line.thresholds.some((t) => !t.status.startsWith('pace unknown') && t.status !== 'reached')
    )
      out.push(`readiness ${key}: a status without a pace`);
  }
  if (r.window.from === window.from) {
    const moving = new Set(
      window.rows
        .filter((m) => (m.translated_words_change ?? 0) !== 0)
        .map((m) => `${m.project_slug}/${m.component_slug}/${m.language_code}`),
    );
    for (const s of r.stalled.rows) {
      const key = `${s.project_slug}/${s.component_slug}/${s.language_code}`;
      if (moving.has(key)) out.push(`stalled ${key} is among the movers of the same window`);
    }
  }
  return out;
}

/** The language chart's today is the languages table's now. */
function historyProblems(r: Report): string[] {
  const today = r.window.to;
  const out: string[] = [];
  for (const language of r.languages) {
    const day = r.language_history.find(
      (d) => d.day === today && d.language_code === language.language_code,
    );
    if (day === undefined) {
      out.push(`no history today for ${language.language_code}`);
      continue;
    }
    for (const key of ['total', 'translated', 'translated_percent'] as const)
      if (day[key] !== language[key])
        out.push(`${language.language_code} ${key}: chart ${day[key]}, table ${language[key]}`);
  }
  return out;
}

/** Every surface of the report says the same, and its sections hold together. */
export function reportProblems(r: Report): string[] {
  return [...disagreements(renderSurfaces(r)), ...invariantProblems(r)];
}

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/**
 * The Grafana panels that show a figure of the report show the report's figure: run as the
 * read-only role, with the report's window as the dashboard's time range where it has one.
 */
export async function grafanaProblems(db: Kysely<Database>, r: Report): Promise<string[]> {
  const out: string[] = [];
  const rows = (title: string, windowed = false) => {
    const range = windowed
      ? { from: `${r.window.from}T00:00:00Z`, to: `${r.window.to}T23:59:59Z` }
      : undefined;
    return panelRows(db, panelTitled(title).targets[0]!.rawSql, range);
  };
  const same = (what: string, got: unknown, want: unknown) => {
    if (got !== want) out.push(`grafana ${what}: ${String(got)}, report ${String(want)}`);
  };
  const [translated] = await rows('Translated (all projects)');
  same('translated %', num(translated!['translated %']), r.totals.progress.translated_percent);
  const [left] = await rows('Words still to translate');
  same('words left', num(left!['words left']), r.totals.progress.untranslated_words);
  for (const row of await rows('Progress by component')) {
    const c = r.components.find(
      (x) => x.project_slug === row.project && x.component_slug === row.component,
    );
    const at = `component ${String(row.project)}/${String(row.component)}`;
    if (c === undefined) {
      out.push(`grafana ${at}: not in the report`);
      continue;
    }
    same(`${at} translated %`, num(row['translated %']), c.translated_percent);
    same(`${at} words left`, num(row['words left']), c.untranslated_words);
    same(`${at} translations`, num(row.translations), c.translations);
    same(`${at} failing`, num(row.failing), c.failing);
  }
  const slugOf = new Map(r.projects.map((p) => [p.project_name, p.project_slug]));
  for (const row of await rows('Progress by category')) {
    const project = slugOf.get(String(row.project));
    const c = r.categories.find((x) => x.project_slug === project && x.path === row.path);
    const at = `category ${String(row.project)}/${String(row.path)}`;
    if (c === undefined) {
      out.push(`grafana ${at}: not in the report`);
      continue;
    }
    same(`${at} translated %`, num(row['translated %']), c.translated_percent);
    same(`${at} words left`, num(row['words left']), c.untranslated_words);
    same(`${at} components`, num(row.components), c.components);
  }
  for (const row of await rows('Labels: strings per label and language')) {
    const project = slugOf.get(String(row.project));
    const l = r.labels.find(
      (x) =>
        x.project_slug === project &&
        x.label_name === row.label &&
        x.language_code === row.language,
    );
    const at = `label ${String(row.project)}/${String(row.label)}/${String(row.language)}`;
    if (l === undefined) {
      out.push(`grafana ${at}: not in the report`);
      continue;
    }
    same(`${at} strings`, num(row.strings), l.total);
    same(`${at} translated %`, num(row['translated %']), l.translated_percent);
    same(`${at} approved %`, num(row['approved %']), l.approved_percent);
  }
  for (const row of await rows('Release readiness: languages against 80, 90 and 95 % of words')) {
    const line = readinessByLanguage(r.release_readiness).find(
      (x) => x.project_slug === row.project && x.language_code === row.language,
    );
    const at = `readiness ${String(row.project)}/${String(row.language)}`;
    if (line === undefined) {
      out.push(`grafana ${at}: not in the report`);
      continue;
    }
    same(`${at} words %`, num(row['words %']), line.translated_words_percent);
    for (const t of line.thresholds)
      same(`${at} ${t.threshold} %`, row[`${t.threshold} %`], t.status);
  }
  const changes = new Map(
    (await rows('Changes per day', true)).map((x) => [dayOf(x.time), num(x.changes)]),
  );
  for (const day of r.activity)
    same(`changes on ${day.day}`, changes.get(day.day) ?? 0, day.changes);
  const inWindow = (period: string) => period >= r.window.from;
  for (const row of await rows('Words saved per week, by method', true)) {
    const period = dayOf(row.time);
    if (!inWindow(period)) continue;
    const m = r.translation_methods.find(
      (x) => x.period_start === period && x.method === row.metric,
    );
    same(`words saved ${period} ${String(row.metric)}`, num(row.value), m?.words_saved ?? 0);
  }
  for (const row of await rows('New work: source words added per week', true)) {
    const period = dayOf(row.time);
    if (!inWindow(period)) continue;
    const w = r.new_work.find((x) => x.period_start === period);
    same(`words added ${period}`, num(row['words added']), w?.words_added ?? 0);
  }
  for (const row of await rows('Translated % per language, day by day', true)) {
    const language = String(row.metric).replace(/ \(estimated\)$/, '');
    const day = r.language_history.find(
      (x) => x.day === dayOf(row.time) && x.language_code === language,
    );
    same(`${language} on ${dayOf(row.time)}`, num(row.value), day?.translated_percent);
  }
  out.push(
    ...(await freshnessProblems(
      db,
      panelTitled('Data freshness (since the last successful sync)').targets[0]!.rawSql,
    )),
  );
  return out;
}

const dayOf = (time: unknown) =>
  (time instanceof Date ? time.toISOString() : String(time).replace(' ', 'T')).slice(0, 10);

/**
 * The freshness `sql` gives equals the health check's, read at one instant (one transaction,
 * where now() stands still).
 */
export async function freshnessProblems(
  db: Kysely<Database>,
  freshnessSql: string,
): Promise<string[]> {
  const last = await lastSucceededSyncAt(db);
  const [panel, health] = await db.transaction().execute(async (trx) => {
    await sql`set local role weblate_reader`.execute(trx);
    const shown = (await sql.raw<Record<string, unknown>>(freshnessSql).execute(trx)).rows[0]!;
    const { rows } = await sql<{ age: string | null }>`
      select extract(epoch from now() - ${last}::timestamptz)::text as age`.execute(trx);
    return [num(Object.values(shown)[0]), num(rows[0]!.age)];
  });
  return panel === health ? [] : [`grafana freshness: ${panel} s, health check ${health} s`];
}
