import type pg from 'pg';

/** One reporting relation or query, timed. */
export interface Timing {
  /** `view`, `function`, `dashboard` (a filtered or summed read of a view) or `report`. */
  kind: 'view' | 'function' | 'dashboard' | 'report';
  name: string;
  /** What ran: the statement, or the command line. */
  statement: string;
  /** Rows it returned; null where unknown (a timed-out statement, a command). */
  rows: number | null;
  /** The best of its runs, in ms (EXPLAIN ANALYZE's execution time for statements). */
  ms: number | null;
  /** Every run's time, in ms. */
  runs: number[];
  /** Shared buffers hit and read by the best run (8 kB pages). */
  buffers: { hit: number; read: number } | null;
  /** Functions JIT compiled for the best run (EXPLAIN with TIMING OFF gives no JIT time). */
  jitFunctions?: number;
  /** Why it has no time: timed out, or could not run (e.g. a parameter without a default). */
  note: string | null;
}

/** The reporting surface: every view, and every table function of schema weblate. */
export interface Relation {
  kind: 'view' | 'function';
  name: string;
  /** The statement that reads all of it; null for a function that needs arguments. */
  statement: string | null;
}

/**
 * Lists the surface from the catalog, so that a view or function added by a later
 * migration is timed without a change here: every view (and materialized view) in schema
 * weblate, and every function there that returns a set (`returns table`, `returns setof`),
 * called with its defaults; one with a parameter that has no default is listed unrun.
 */
export async function listReportingSurface(client: pg.Client): Promise<Relation[]> {
  const views = await client.query<{ name: string }>(`
    select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'weblate' and c.relkind in ('v', 'm') order by c.relname`);
  const functions = await client.query<{ name: string; signature: string; required: number }>(`
    select p.proname as name, p.oid::regprocedure::text as signature,
           p.pronargs - p.pronargdefaults as required
    from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = 'weblate' and p.proretset and p.prokind = 'f'
    order by p.proname, p.oid::regprocedure::text`);
  const overloaded = new Set(
    functions.rows.map((f) => f.name).filter((name, i, all) => all.indexOf(name) !== i),
  );
  return [
    ...views.rows.map((v): Relation => ({
      kind: 'view',
      name: v.name,
      statement: `select * from weblate.${quoteIdent(v.name)}`,
    })),
    ...functions.rows.map((f): Relation => ({
      kind: 'function',
      name: overloaded.has(f.name) ? f.signature.replace(/^weblate\./, '') : `${f.name}()`,
      statement: f.required === 0 ? `select * from weblate.${quoteIdent(f.name)}()` : null,
    })),
  ];
}

function quoteIdent(name: string): string {
  return /^[a-z_][a-z0-9_]*$/.test(name) ? name : `"${name.replaceAll('"', '""')}"`;
}

interface ExplainRoot {
  Plan: {
    'Actual Rows': number;
    'Actual Loops': number;
    'Shared Hit Blocks'?: number;
    'Shared Read Blocks'?: number;
  };
  'Execution Time': number;
  JIT?: { Functions?: number };
}

/**
 * Times a statement by EXPLAIN (ANALYZE, TIMING OFF, BUFFERS): it runs to the end and computes
 * every output column, but ships no rows, so what is timed is PostgreSQL's work alone. Runs it
 * twice when the first run takes under `repeatUnderMs` (the first may read from disk) and keeps
 * the faster; a run past `timeoutMs` is cancelled by statement_timeout and noted.
 */
export async function timeStatement(
  client: pg.Client,
  entry: Pick<Timing, 'kind' | 'name' | 'statement'>,
  { timeoutMs, repeatUnderMs }: { timeoutMs: number; repeatUnderMs: number },
): Promise<Timing> {
  const timing: Timing = { ...entry, rows: null, ms: null, runs: [], buffers: null, note: null };
  await client.query(`set statement_timeout = ${Math.round(timeoutMs)}`);
  try {
    for (let run = 0; run < 2; run += 1) {
      if (run === 1 && (timing.ms === null || timing.ms >= repeatUnderMs)) break;
      const result = await client.query<{ 'QUERY PLAN': ExplainRoot[] }>(
        `explain (analyze, timing off, buffers, format json) ${entry.statement}`,
      );
      const root = result.rows[0]!['QUERY PLAN'][0]!;
      const ms = root['Execution Time'];
      timing.runs.push(Math.round(ms * 10) / 10);
      if (timing.ms === null || ms < timing.ms) {
        timing.ms = Math.round(ms * 10) / 10;
        timing.rows = root.Plan['Actual Rows'] * root.Plan['Actual Loops'];
        timing.buffers = {
          hit: root.Plan['Shared Hit Blocks'] ?? 0,
          read: root.Plan['Shared Read Blocks'] ?? 0,
        };
        timing.jitFunctions = root.JIT?.Functions ?? 0;
      }
    }
  } catch (err) {
    const code = (err as { code?: string }).code;
    timing.note =
      code === '57014'
        ? `over ${timeoutMs / 1000} s (cancelled)`
        : `failed: ${(err as Error).message}`;
  } finally {
    await client.query('reset statement_timeout');
  }
  return timing;
}

/**
 * The effort answers (migrations 0018–0020) filtered by a project and by a language, as the
 * report and dashboards read them (issue 45's bound: 2 s each at the large shape). The
 * windowed ones read the last 90 days, the report's longest weekly window.
 */
function effortForms(
  project: string,
  language: string,
  names: ReadonlySet<string>,
): { name: string; statement: string }[] {
  const window = `since => now() - interval '90 days', until => now()`;
  const calls: Array<[string, string]> = [
    ['translator_work', window],
    ['translator_work_by_person', window],
    ['cost_estimate', ''],
    ['machine_translation_outcomes', `${window}, period_unit => null`],
    ['post_edits', window],
    ['state_spans', window],
    ['time_in_state', `${window}, period_unit => null`],
    ['strings_over_target', ''],
  ];
  return calls
    .filter(([fn]) => names.has(fn))
    .flatMap(([fn, extra]) =>
      (
        [
          ['a project', `only_projects => array[${project}]`],
          ['a language', `only_language => ${language}`],
        ] as const
      ).map(([what, filter]) => ({
        name: `${fn}: ${what}`,
        statement: `select * from weblate.${fn}(${[filter, extra].filter((a) => a !== '').join(', ')})`,
      })),
    );
}

/**
 * The reads a dashboard makes of the views that are millions of rows by nature (every day
 * × every translation, and their sums by day): one translation's or component's history, a
 * project's or language's last 30 days, and today's figures. The report's own filtered
 * reads are timed by bench/report-queries.ts. A form whose view is missing is left out.
 */
export async function dashboardForms(
  client: pg.Client,
  scope: { project: string; language: string },
): Promise<{ name: string; statement: string }[]> {
  const picked = await client.query<{ translation: number; component: number }>(
    `select t.id as translation, t.component_id as component from weblate.translations t
     where t.project_slug = $1 and t.language_code = $2 and t.deleted_at is null
     order by t.id limit 1`,
    [scope.project, scope.language],
  );
  const { translation, component } = picked.rows[0]!;
  const project = `'${scope.project.replaceAll("'", "''")}'`;
  const language = `'${scope.language.replaceAll("'", "''")}'`;
  const last30 = `day >= current_date - 29`;
  const forms = [
    ['translation_progress_daily', `translation_id = ${translation}`, 'one translation, every day'],
    ['translation_progress_daily', `project_slug = ${project} and ${last30}`, 'a project, 30 days'],
    ['translation_progress_daily', `day = current_date`, 'today, every translation'],
    ['component_progress_daily', `component_id = ${component}`, 'one component, every day'],
    ['project_progress_daily', `project_slug = ${project}`, 'one project, every day'],
    ['project_progress_daily', last30, 'every project, 30 days'],
    ['language_progress_daily', `language_code = ${language}`, 'one language, every day'],
    ['language_progress_daily', last30, 'every language, 30 days'],
    ['activity_daily', last30, 'every group, 30 days'],
    ['activity_daily', `project_slug = ${project}`, 'one project, every day'],
  ] as const;
  const present = await client.query<{ name: string }>(
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'weblate'
     union select p.proname from pg_proc p join pg_namespace n on n.oid = p.pronamespace
     where n.nspname = 'weblate'`,
  );
  const names = new Set(present.rows.map((r) => r.name));
  const summed = [
    {
      name: 'progress_by_project_daily(one project), 30 days',
      statement: `select * from weblate.progress_by_project_daily(array[${project}]) where ${last30}`,
    },
    {
      name: 'progress_by_language_daily(every project, one language), 30 days',
      statement: `select * from weblate.progress_by_language_daily(null, ${language}) where ${last30}`,
    },
  ];
  return [
    ...effortForms(project, language, names),
    ...forms
      .filter(([view]) => names.has(view))
      .map(([view, where, what]) => ({
        name: `${view}: ${what}`,
        statement: `select * from weblate.${view} where ${where}`,
      })),
    ...summed,
  ];
}

/** A `weblate-mirror export` run: its wall time and its own peak RSS. */
export interface ExportTiming {
  name: string;
  ms: number | null;
  peakRssMb: number | null;
  filesWritten: number | null;
  rows: number | null;
  note: string | null;
}
