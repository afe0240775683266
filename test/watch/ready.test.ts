import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { OptionValues } from '../../src/cli/args.ts';
import { NOT_READY_EXIT, readyCommand } from '../../src/cli/commands/ready.ts';
import type { Database } from '../../src/db/database.ts';
import { ExplainedError, UsageError } from '../../src/errors.ts';
import { READY_FORMAT } from '../../src/watch/ready.ts';
import { type CommandResult, databaseFlags, runCommand } from '../helpers/commands.ts';
import { useTestDatabases } from '../helpers/database.ts';
import { createReportFixture, type ReportFixture } from '../helpers/report-fixture.ts';

/**
 * `ready` over the report fixture (categories, labels, several projects and languages), with
 * two languages of one project set by hand to 90.0 % and 89.99 % translated (89.9 once
 * truncated). Every ready set is compared with plain SQL on the progress functions.
 */

interface ReadyDocument {
  format: string;
  threshold: number;
  basis: string;
  by: string;
  scope: { projects: string[]; category: string | null; label: string | null };
  data_as_of: string;
  ready: string[];
  not_ready: string[];
  languages: { code: string; name: string | null; percent: number; total: number; done: number }[];
  required: string[];
  missing_required: string[];
}

const databases = useTestDatabases();
let fixture: ReportFixture;
let flags: OptionValues;
/** The project whose languages are set to the edge, and those two languages. */
let edgeProject: string;
let atNinety: string;
let belowNinety: string;
let otherProject: string;
let category: string;
let label: string;
let lastSync: string;
/** Percent per language, by `project|basis|by` key (empty project: all), read with plain SQL. */
const expected = new Map<string, Map<string, string>>();

async function percents(
  db: Kysely<Database>,
  project: string | null,
  column: string,
): Promise<Map<string, string>> {
  const { rows } = await sql<{ code: string; percent: string }>`
    select language_code as code, ${sql.ref(column)}::text as percent
    from weblate.progress_by_language(${project === null ? null : [project]}::text[], null, null)`.execute(
    db,
  );
  return new Map(rows.map((r) => [r.code, r.percent]));
}

/** Codes whose percent is >= min, by numeric comparison in SQL. */
async function readySql(
  db: Kysely<Database>,
  project: string | null,
  column: string,
  min: string,
): Promise<string[]> {
  const { rows } = await sql<{ code: string }>`
    select language_code as code
    from weblate.progress_by_language(${project === null ? null : [project]}::text[], null, null)
    where ${sql.ref(column)} >= ${min}::numeric order by language_code`.execute(db);
  return rows.map((r) => r.code);
}

const sqlReady = new Map<string, string[]>();

beforeAll(async () => {
  fixture = await createReportFixture();
  flags = databaseFlags(fixture.database);
  const handle = await fixture.database.open();
  const { db } = handle;
  try {
    const projects = (
      await sql<{ slug: string }>`
        select slug from weblate.projects where deleted_at is null order by slug`.execute(db)
    ).rows.map((r) => r.slug);
    edgeProject = projects[0]!;
    otherProject = projects[1]!;
    const languages = [...(await percents(db, edgeProject, 'translated_percent')).keys()];
    [atNinety, belowNinety] = languages as [string, string];
    // One translation of each carries every string of the language in the project.
    for (const [code, total, translated] of [
      [atNinety, 1000, 900],
      [belowNinety, 10000, 8999],
    ] as const)
      await sql`
        update weblate.translations t
        set total = case when t.id = m.first then ${total}::integer else 0 end,
            translated = case when t.id = m.first then ${translated}::integer else 0 end
        from (select min(t2.id) as first from weblate.translations t2
              join weblate.components c on c.id = t2.component_id
              join weblate.projects p on p.id = c.project_id
              where p.slug = ${edgeProject} and t2.language_code = ${code}) m,
             weblate.components c, weblate.projects p
        where c.id = t.component_id and p.id = c.project_id and p.slug = ${edgeProject}
          and t.language_code = ${code}`.execute(db);
    for (const [key, column] of [
      ['translated|strings', 'translated_percent'],
      ['translated|words', 'translated_words_percent'],
      ['approved|strings', 'approved_percent'],
    ] as const) {
      expected.set(`${edgeProject}|${key}`, await percents(db, edgeProject, column));
      expected.set(`|${key}`, await percents(db, null, column));
    }
    for (const min of ['0', '50', '80', '90', '95', '100'])
      for (const project of [null, edgeProject, otherProject])
        sqlReady.set(
          `${project ?? ''}|${min}`,
          await readySql(db, project, 'translated_percent', min),
        );
    category = (
      await sql<{ name: string }>`
        select k.project_slug || '/' || k.slug as name from weblate.categories k
        join weblate.components c on c.category_id = k.id and c.deleted_at is null
        where k.deleted_at is null and k.parent_id is null order by k.id limit 1`.execute(db)
    ).rows[0]!.name;
    label = (
      await sql<{ name: string }>`
        select l.name from weblate.labels l where l.deleted_at is null order by l.id limit 1`.execute(
        db,
      )
    ).rows[0]!.name;
    lastSync = (
      await sql<{ at: string }>`
        select to_char(max(finished_at) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at
        from weblate.sync_runs where status = 'succeeded'`.execute(db)
    ).rows[0]!.at;
  } finally {
    await handle.close();
  }
});

afterAll(async () => {
  await fixture?.sim.close();
  await fixture?.database.drop();
});

function ready(values: OptionValues): Promise<CommandResult> {
  return runCommand(readyCommand, { ...flags, ...values });
}

async function readyJson(values: OptionValues): Promise<ReadyDocument> {
  const result = await ready({ ...values, format: 'json' });
  expect(result.error).toBeNull();
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as ReadyDocument;
}

describe('ready, the figures', () => {
  it('lists the languages at or above the threshold, as SQL compares progress_by_language', async () => {
    for (const min of ['0', '50', '80', '90', '95', '100'])
      for (const project of [null, edgeProject, otherProject]) {
        const doc = await readyJson({ min, ...(project === null ? {} : { project: [project] }) });
        expect(doc.ready, `${project} ${min}`).toEqual(sqlReady.get(`${project ?? ''}|${min}`));
        expect([...doc.ready, ...doc.not_ready].sort()).toEqual(doc.languages.map((l) => l.code));
      }
    // The thresholds discriminate: the fixture has languages on each side of 90 in the project.
    expect(sqlReady.get(`${edgeProject}|90`)!.length).toBeGreaterThan(0);
    expect(sqlReady.get(`${edgeProject}|90`)!.length).toBeLessThan(
      expected.get(`${edgeProject}|translated|strings`)!.size,
    );
  });

  it('counts a language exactly at the threshold ready, and 89.99 % (89.9) not ready at 90', async () => {
    const percent = expected.get(`${edgeProject}|translated|strings`)!;
    expect(percent.get(atNinety)).toBe('90.0');
    expect(percent.get(belowNinety)).toBe('89.9');
    const at90 = await readyJson({ min: '90', project: [edgeProject] });
    expect(at90.ready).toContain(atNinety);
    expect(at90.not_ready).toContain(belowNinety);
    const at899 = await readyJson({ min: '89.9', project: [edgeProject] });
    expect(at899.ready).toEqual(expect.arrayContaining([atNinety, belowNinety]));
    const at8991 = await readyJson({ min: '89.91', project: [edgeProject] });
    expect(at8991.not_ready).toContain(belowNinety);
    const row = at90.languages.find((l) => l.code === belowNinety)!;
    expect(row).toMatchObject({ percent: 89.9, total: 10000, done: 8999 });
  });

  it('measures words and approved strings with their own metrics', async () => {
    for (const [basis, by] of [
      ['translated', 'words'],
      ['approved', 'strings'],
      ['translated', 'strings'],
    ] as const) {
      const doc = await readyJson({ min: '50', basis, by, project: [edgeProject] });
      const want = expected.get(`${edgeProject}|${basis}|${by}`)!;
      expect(Object.fromEntries(doc.languages.map((l) => [l.code, l.percent]))).toEqual(
        Object.fromEntries([...want].map(([code, p]) => [code, Number(p)])),
      );
      expect(doc).toMatchObject({ basis, by, threshold: 50 });
    }
    const words = await readyJson({ min: '50', by: 'words', project: [edgeProject] });
    const strings = await readyJson({ min: '50', project: [edgeProject] });
    expect(words.languages).not.toEqual(strings.languages);
  });

  it('narrows to a category and to a label, as the report does', async () => {
    const byCategory = await readyJson({ min: '0', category });
    expect(byCategory.scope.category).toBe(category);
    expect(byCategory.scope.projects).toEqual([category.split('/')[0]]);
    expect(byCategory.languages.length).toBeGreaterThan(0);
    const byLabel = await readyJson({ min: '0', label });
    expect(byLabel.scope.label).toContain(label);
    expect(byLabel.languages.length).toBeGreaterThan(0);
    const all = await readyJson({ min: '0' });
    const totalOf = (doc: ReadyDocument) => doc.languages.reduce((s, l) => s + l.total, 0);
    expect(totalOf(byLabel)).toBeLessThan(totalOf(all));
    expect(totalOf(byCategory)).toBeLessThan(totalOf(all));
  });
});

describe('ready, the formats', () => {
  it('prints one code a line by default, sorted', async () => {
    const result = await ready({ min: '90', project: [edgeProject] });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      sqlReady
        .get(`${edgeProject}|90`)!
        .map((c) => `${c}\n`)
        .join(''),
    );
  });

  it('prints a LINGUAS file with a comment and the time of the data', async () => {
    const result = await ready({ min: '90', project: [edgeProject], format: 'linguas' });
    const [head, ...codes] = result.stdout.trimEnd().split('\n');
    expect(head).toBe(`# languages at or above 90 % translated strings, data as of ${lastSync}`);
    expect(codes).toEqual(sqlReady.get(`${edgeProject}|90`));
  });

  it('prints a JSON document with the threshold, the scope and the time of the data', async () => {
    const doc = await readyJson({ min: '90.0', project: [edgeProject] });
    expect(doc).toMatchObject({
      format: READY_FORMAT,
      threshold: 90,
      basis: 'translated',
      by: 'strings',
      scope: { projects: [edgeProject], category: null, label: null },
      data_as_of: lastSync,
      required: [],
      missing_required: [],
    });
  });
});

describe('ready, required languages and exit codes', () => {
  it('exits 0 when every required language is ready', async () => {
    const result = await ready({ min: '90', project: [edgeProject], require: [atNinety] });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
  });

  it('exits 3 naming the required languages below the threshold, with their percents', async () => {
    const result = await ready({
      min: '90',
      project: [edgeProject],
      require: [`${atNinety},${belowNinety}`],
      format: 'json',
    });
    expect(result.code).toBe(NOT_READY_EXIT);
    expect(result.stderr).toContain(`${belowNinety} (89.9 %)`);
    expect(result.stderr).not.toContain(`${atNinety} (`);
    const doc = JSON.parse(result.stdout) as ReadyDocument;
    expect(doc.required).toEqual([atNinety, belowNinety]);
    expect(doc.missing_required).toEqual([belowNinety]);
  });

  it('refuses a required language the mirror does not know, with the nearest code', async () => {
    const result = await ready({ min: '90', require: [`${atNinety}x`] });
    expect(result.error).toBeInstanceOf(UsageError);
    expect(result.error!.message).toContain(`did you mean "${atNinety}"`);
  });

  it.each([
    [{ min: '101' }, '--min'],
    [{ min: 'abc' }, '--min'],
    [{ min: '-5' }, '--min'],
    [{}, '--min'],
    [{ min: '90', basis: 'reviewed' }, '--basis'],
    [{ min: '90', by: 'chars' }, '--by'],
    [{ min: '90', format: 'yaml' }, '--format'],
    [{ min: '90', project: ['no-such-project'] }, 'no-such-project'],
    [{ min: '90', category: 'no/such' }, '--category'],
    [{ min: '90', label: 'no such label' }, '--label'],
  ] as [OptionValues, string][])('refuses %j as bad usage', async (values, named) => {
    const result = await ready(values);
    expect(result.error).toBeInstanceOf(UsageError);
    expect(result.error!.message).toContain(named);
    expect(result.stdout).toBe('');
  });

  it('exits 1 saying what to run when the mirror has no successful sync', async () => {
    const empty = await databases.create();
    await (await empty.migrated()).close();
    const result = await runCommand(readyCommand, { ...databaseFlags(empty), min: '90' });
    expect(result.error).toBeInstanceOf(ExplainedError);
    expect(result.error!.message).toContain('weblate-mirror sync');
  });
});
