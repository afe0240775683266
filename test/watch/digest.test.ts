import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { digestCommand } from '../../src/cli/commands/digest.ts';
import type { DbHandle } from '../../src/db/client.ts';
import type { Database } from '../../src/db/database.ts';
import { listCategoryPaths } from '../../src/db/queries/report-categories.ts';
import { READINESS_THRESHOLDS } from '../../src/db/queries/report-readiness.ts';
import { NoMirrorError, UsageError } from '../../src/errors.ts';
import { buildReport, type ReportOptions } from '../../src/report/build-report.ts';
import { addDays } from '../../src/report/days.ts';
import type { Report } from '../../src/report/model.ts';
import { withNumbers } from '../../src/report/numbers.ts';
import { resolveCategory } from '../../src/report/resolve-scope.ts';
import { escapeHtml } from '../../src/report/svg-chart.ts';
import { buildDigest, type DigestScope } from '../../src/watch/digest/build.ts';
import type { Digest } from '../../src/watch/digest/model.ts';
import { digestPeriod } from '../../src/watch/digest/period.ts';
import { renderDigest } from '../../src/watch/digest/render.ts';
import { resolveDigestScope } from '../../src/watch/digest/scope.ts';
import type { RenderedDigest } from '../../src/watch/model.ts';
import { type CommandResult, databaseFlags, runCommand } from '../helpers/commands.ts';
import {
  createReportFixture,
  HOSTILE_NAME,
  type ReportFixture,
} from '../helpers/report-fixture.ts';

/**
 * Digests over the report fixture (test/helpers/report-fixture.ts): each figure is the
 * report's for the same window and scope, field by field, and every form renders it.
 */

let fixture: ReportFixture;
let handle: DbHandle;
let db: Kysely<Database>;
let today: string;
let projects: string[];
const cli: Record<string, CommandResult> = {};

/** The window compared with the report: it reaches today, where the report's window ends. */
const WINDOW_DAYS = 26;
const ALL: DigestScope = { projects: [], language: null, components: null, category: null };

function reportOptions(scope: DigestScope, since: string): ReportOptions {
  return { projects: scope.projects, language: scope.language, since, limit: 1000 };
}

beforeAll(async () => {
  fixture = await createReportFixture();
  const probe = await fixture.database.open();
  today = (
    await sql<{ today: string }>`select (now() at time zone 'UTC')::date::text as today`.execute(
      probe.db,
    )
  ).rows[0]!.today;
  await probe.close();
  // Each command opens the database itself: the test's handle opens after them.
  const flags = databaseFlags(fixture.database);
  const runs: Record<string, Record<string, string | string[]>> = {
    text: {},
    html: { format: 'html' },
    slack: { format: 'slack', every: 'week' },
    week: { format: 'json', every: 'week', at: addDays(today, -3) },
    unknownProject: { project: ['no-such-project'] },
    future: { at: addDays(today, 1) },
  };
  for (const [name, values] of Object.entries(runs))
    cli[name] = await runCommand(digestCommand, { ...flags, ...values });
  handle = await fixture.database.open();
  db = handle.db;
  projects = (
    await sql<{ slug: string }>`
      select slug from weblate.projects where deleted_at is null order by slug`.execute(db)
  ).rows.map((r) => r.slug);
}, 240_000);

afterAll(async () => {
  await handle?.close();
  await fixture?.sim.close();
  await fixture?.database.drop();
});

/** The digest's rows as the report's model holds them (numbers), without the links. */
function asReport<Row extends { project_name: string; url: string | null }>(
  rows: Row[],
  numeric: string[],
): unknown[] {
  return rows.map(({ project_name: _n, url: _u, ...row }) =>
    withNumbers(row, numeric as (keyof typeof row)[]),
  );
}

/** Asserts that every figure of the digest is the report's for the same window and scope. */
function expectReportFigures(digest: Digest, report: Report): void {
  const movers = report.movers.find((w) => w.name === 'since')!;
  expect(digest.movers.baseline_day).toBe(movers.baseline_day);
  expect(Number(digest.movers.matching)).toBe(movers.matching);
  expect(
    asReport(digest.movers.rows, [
      'translated_percent_then',
      'translated_percent_now',
      'translated_percent_change',
    ]),
  ).toEqual(movers.rows);
  expect(Number(digest.stalled.matching)).toBe(report.stalled.matching);
  expect(asReport(digest.stalled.rows, ['translated_percent'])).toEqual(report.stalled.rows);
  expect(Number(digest.review.matching)).toBe(report.review.waiting.matching);
  expect(asReport(digest.review.rows, ['strings_waiting', 'words_waiting', 'over_7_days'])).toEqual(
    report.review.waiting.rows,
  );
  expect(
    digest.new_work.map((w) =>
      withNumbers(w, ['strings_added', 'words_added', 'strings_removed', 'words_removed']),
    ),
  ).toEqual(report.new_work);
  expect(
    withNumbers(digest.activity, [
      'changes',
      'words_translated',
      'words_translated_without_author',
    ]),
  ).toEqual(report.totals.activity);
}

/** The crossings the report's language history of one project shows from `baseline` to today. */
function crossingsOf(report: Report, project: string, baseline: string) {
  const at = (day: string, code: string) =>
    report.language_history.find((d) => d.day === day && d.language_code === code)
      ?.translated_words_percent ?? null;
  const codes = [...new Set(report.language_history.map((d) => d.language_code))];
  return codes.flatMap((code) => {
    const then = at(baseline, code);
    const now = at(today, code);
    if (then === null || now === null) return [];
    const levels = READINESS_THRESHOLDS.filter((t) => then < t && now >= t);
    return levels.length === 0 ? [] : [{ project, code, levels, then, now }];
  });
}

describe('digest figures', () => {
  it("are the report's for the same window, over everything and per project", async () => {
    const from = addDays(today, 1 - WINDOW_DAYS);
    const period = { from, to: today };
    const digest = await buildDigest(db, { every: 'week', period, scope: ALL, limit: 1000 });
    const report = await buildReport(db, reportOptions(ALL, from));
    expectReportFigures(digest, report);
    // The window holds movement, so that the comparison compares something.
    expect(digest.movers.rows.length).toBeGreaterThan(0);
    expect(Number(digest.activity.changes)).toBeGreaterThan(0);
    expect(digest.new_work.some((w) => w.strings_added !== '0')).toBe(true);
    // A window that starts on the day the most recently stalled translation went idle: it
    // is not stalled there, so the stalled list must follow the window.
    const idle = digest.stalled.rows.map((r) => r.idle_since.slice(0, 10)).sort();
    expect(idle.length).toBeGreaterThan(1);
    const long = { from: idle.at(-1)!, to: today };
    const longDigest = await buildDigest(db, {
      every: 'week',
      period: long,
      scope: ALL,
      limit: 1000,
    });
    expectReportFigures(longDigest, await buildReport(db, reportOptions(ALL, long.from)));
    expect(Number(longDigest.stalled.matching)).toBeLessThan(Number(digest.stalled.matching));

    const crossings = [];
    for (const project of projects) {
      const scope = { ...ALL, projects: [project] };
      const own = await buildDigest(db, { every: 'week', period, scope, limit: 1000 });
      // Its language history starts on the day before the window: the baseline of the levels.
      const history = await buildReport(db, reportOptions(scope, addDays(from, -1)));
      expectReportFigures(own, await buildReport(db, reportOptions(scope, from)));
      const expected = crossingsOf(history, project, addDays(from, -1));
      expect(
        own.ready.map((r) => ({
          project: r.project_slug,
          code: r.language_code,
          levels: r.levels,
          then: Number(r.translated_words_percent_then),
          now: Number(r.translated_words_percent_now),
        })),
      ).toEqual(expected);
      expect(digest.ready.filter((r) => r.project_slug === project)).toEqual(own.ready);
      crossings.push(...expected);
    }
    expect(crossings.length).toBeGreaterThan(0);
  }, 120_000);
});

describe('a digest of a category and a language', () => {
  it("has the report's figures for that scope", async () => {
    const [category] = await listCategoryPaths(db, []);
    const name = `${category!.project_slug}/${category!.path}`;
    const language = (
      await sql<{ code: string }>`
        select min(language_code) as code from weblate.translation_progress
        where project_slug = ${category!.project_slug}`.execute(db)
    ).rows[0]!.code;
    const scope = await resolveDigestScope(db, { categories: [name], languages: [language] });
    const resolved = await resolveCategory(db, name, []);
    expect(scope).toEqual({
      projects: [resolved.project],
      language,
      components: resolved.components,
      category: name,
    });
    const from = addDays(today, 1 - WINDOW_DAYS);
    const digest = await buildDigest(db, { every: 'week', period: { from, to: today }, scope });
    const report = await buildReport(db, {
      ...reportOptions(ALL, from),
      language,
      limit: 10,
      category: resolved,
    });
    expectReportFigures(digest, report);
    expect(renderDigest(digest).text.split('\n')[1]).toBe(
      `Scope: project ${resolved.project}, category ${name}, language ${language}.`,
    );
  });
});

describe('a digest rendered', () => {
  let digest: Digest;
  let rendered: RenderedDigest;

  beforeAll(async () => {
    const period = { from: addDays(today, 1 - WINDOW_DAYS), to: today };
    digest = await buildDigest(db, { every: 'week', period, scope: ALL });
    rendered = renderDigest(digest);
  });

  it('names the hostile project escaped in HTML, with inline styles only', () => {
    const names = [...digest.movers.rows, ...digest.stalled.rows, ...digest.review.rows].map(
      (r) => r.project_name,
    );
    expect(names).toContain(HOSTILE_NAME);
    expect(rendered.html).not.toContain(HOSTILE_NAME);
    expect(rendered.html).not.toContain('<script');
    expect(rendered.html).toContain(escapeHtml(HOSTILE_NAME));
    expect(rendered.html).not.toMatch(/<style|<link|<img|src=/);
    expect(rendered.html).toContain(`Data as of ${digest.data_as_of}`);
  });

  it('keeps to Slack’s limits and escapes &, < and >', () => {
    const blocks = rendered.blocks as Array<{ type: string; text?: { text: string } }>;
    expect(blocks.length).toBeLessThanOrEqual(50);
    expect(blocks[0]).toEqual({
      type: 'header',
      text: { type: 'plain_text', text: rendered.subject },
    });
    const texts = blocks.flatMap((b) =>
      b.type === 'context'
        ? (b as unknown as { elements: { text: string }[] }).elements.map((e) => e.text)
        : b.type === 'section'
          ? [b.text!.text]
          : [],
    );
    for (const text of texts) expect(text.length).toBeLessThanOrEqual(3000);
    const all = texts.join('\n');
    expect(all).not.toContain('<script');
    expect(all).toContain('&lt;script&gt;document.title="pwned"&lt;/script&gt; &amp; "Friends"');
    expect(all).toContain(`Data as of ${digest.data_as_of}`);
  });

  it('says the subject, scope, freshness and each section in text, with links', () => {
    const lines = rendered.text.split('\n');
    expect(lines[0]).toBe(rendered.subject);
    expect(rendered.subject).toMatch(
      /^weblate-mirror weekly digest \d{4}-\d\d-\d\d – \d{4}-\d\d-\d\d: .*\d+ moved/,
    );
    expect(lines[1]).toBe('Scope: all projects, all languages.');
    expect(lines[2]).toBe(`Data as of ${digest.data_as_of} (the last succeeded sync).`);
    expect(digest.data_as_of).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    for (const title of ['Activity:', 'New source work:', 'Review queue:'])
      expect(lines).toContain(title);
    expect(lines.some((l) => l.startsWith('Moved since '))).toBe(true);
    expect(rendered.text).toContain(`${digest.activity.changes} changes`);
    const first = digest.movers.rows[0]!;
    expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(rendered.text).toContain(first.url!);
  });

  it('gives the document with the exact figures and the key', () => {
    expect(rendered.key).toBe(`digest/week/${digest.from}`);
    expect(rendered.document).toMatchObject({
      format: 'weblate-mirror.digest/1',
      subject: rendered.subject,
      key: rendered.key,
      activity: digest.activity,
    });
    expect(typeof (rendered.document.activity as { changes: unknown }).changes).toBe('string');
  });
});

describe('an empty period', () => {
  it('says nothing moved in one line instead of empty sections', async () => {
    const digest = await buildDigest(db, {
      every: 'week',
      period: { from: '2000-01-03', to: '2000-01-09' },
      scope: ALL,
    });
    expect(digest.activity.changes).toBe('0');
    expect(digest.movers.rows).toEqual([]);
    expect(digest.ready).toEqual([]);
    expect(digest.stalled.rows).toEqual([]);
    const rendered = renderDigest(digest);
    expect(rendered.subject).toBe(
      'weblate-mirror weekly digest 2000-01-03 – 2000-01-09: nothing moved',
    );
    const lines = rendered.text.split('\n');
    expect(lines).toContain(
      'Nothing moved: no changes, no new source strings, no translation moved.',
    );
    for (const title of ['Activity:', 'New source work:', 'Became ready:', 'Stalled'])
      expect(lines.some((l) => l.startsWith(title))).toBe(false);
    expect(rendered.html).toContain('Nothing moved');
  });
});

describe('weblate-mirror digest', () => {
  it('prints the last complete day as text by default', () => {
    const { code, stdout } = cli.text!;
    const yesterday = addDays(today, -1);
    expect(code).toBe(0);
    expect(stdout.split('\n')[0]).toMatch(
      new RegExp(`^weblate-mirror daily digest ${yesterday}: `),
    );
  });

  it('prints HTML and the Slack payload', () => {
    expect(cli.html!.code).toBe(0);
    expect(cli.html!.stdout).toMatch(/^<!DOCTYPE html>/);
    expect(cli.slack!.code).toBe(0);
    const payload = JSON.parse(cli.slack!.stdout) as { text: string; blocks: unknown[] };
    const last = digestPeriod('week', today);
    expect(payload.text).toMatch(
      new RegExp(`^weblate-mirror weekly digest ${last.from} – ${last.to}: `),
    );
    expect(payload.blocks.length).toBeGreaterThan(1);
  });

  it('covers the ISO week that holds --at, with the figures of buildDigest', async () => {
    const { code, stdout } = cli.week!;
    expect(code).toBe(0);
    const document = JSON.parse(stdout) as Digest & { format: string };
    const period = digestPeriod('week', today, addDays(today, -3));
    expect(document).toMatchObject({ key: period.key, from: period.from, to: period.to });
    const direct = await buildDigest(db, { every: 'week', period, scope: ALL });
    expect(document).toMatchObject({ ...direct, generated_at: expect.any(String) as string });
  });

  it('refuses an unknown project and a day after today', () => {
    expect(cli.unknownProject!.error).toBeInstanceOf(UsageError);
    expect(cli.unknownProject!.error!.message).toContain('no-such-project');
    expect(cli.future!.error).toBeInstanceOf(UsageError);
    expect(cli.future!.error!.message).toMatch(/^--at \S+ is after today/);
  });

  it('says to sync first where there is no mirror', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'digest-no-mirror-'));
    try {
      const result = await runCommand(
        digestCommand,
        databaseFlags({ databaseUrl: null, dataDir: empty }),
      );
      expect(result.error).toBeInstanceOf(NoMirrorError);
      expect(result.error!.message).toMatch(/sync/);
      expect(result.error!.message.split('\n')).toHaveLength(1);
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});
