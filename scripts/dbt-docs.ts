import { readFileSync } from 'node:fs';

import { stringify } from 'yaml';

import { DIMENSIONS, type Metric, METRICS } from '../src/metrics/lookup.ts';

// The YAML of the dbt package's models (dbt/models/**/*.yml), written from what defines them
// once: the columns and keys of schema/tables, the columns of the answer functions
// (schema/functions), the metric catalogue (src/metrics/catalogue.ts) and docs/schema.md.
// test/dbt/docs.test.ts checks that the committed files are what this gives.

export const DBT_DOCS_COMMAND = 'npm run dbt:docs';

const ROOT = new URL('../', import.meta.url);

/** The tables the staging models cover, and whether the mirror marks their rows deleted. */
export const STAGED_TABLES: ReadonlyArray<readonly [table: string, hasSoftDeletes: boolean]> = [
  ['projects', true],
  ['components', true],
  ['categories', true],
  ['labels', true],
  ['languages', false],
  ['translations', true],
  ['units', true],
  ['unit_labels', true],
  ['changes', false],
  ['change_actions', false],
  ['unit_states', false],
  ['users', false],
  ['translation_statistics', false],
  ['language_statistics', false],
  ['label_statistics', false],
  ['translation_progress_estimated', false],
  ['sync_runs', false],
  ['notification_subscriptions', true],
];

/** Weblate's string states (weblate/utils/state.py), as weblate.unit_states lists them. */
export const UNIT_STATES = [0, 10, 11, 12, 20, 30, 100] as const;

/** A mart and the answer function it equals row for row. */
export interface MartSpec {
  model: string;
  /** The function in schema/functions whose columns and rows the model has. */
  fn: string;
  /** How the tests call it for the same rows (the package's default vars). */
  call: string;
  /** The section of docs/schema.md that describes those rows. */
  docs: string;
  /** Columns no two rows share all of. */
  grain: readonly string[];
  /** Grain columns that are never null. */
  notNull: readonly string[];
}

export const MARTS: readonly MartSpec[] = [
  {
    model: 'weblate__progress_by_language_daily',
    fn: 'progress_by_language_daily',
    call: 'weblate.progress_by_language_daily()',
    docs: 'language_progress_daily',
    grain: ['day', 'language_code'],
    notNull: ['day', 'language_code'],
  },
  {
    model: 'weblate__progress_by_component_daily',
    fn: 'progress_by_component_daily',
    call: 'weblate.progress_by_component_daily()',
    docs: 'component_progress_daily',
    grain: ['day', 'component_id'],
    notNull: ['day', 'component_id', 'project_id'],
  },
  {
    model: 'weblate__contributions',
    fn: 'contributions',
    call: "weblate.contributions('week')",
    docs: 'contributions',
    grain: ['period_start', 'scope', 'project_slug', 'language_code', 'username'],
    notNull: ['period_start', 'scope', 'username'],
  },
  {
    model: 'weblate__source_string_changes',
    fn: 'source_string_changes',
    call: "weblate.source_string_changes('week')",
    docs: 'source_string_changes',
    grain: ['period_start', 'project_slug', 'component_slug'],
    notNull: ['period_start'],
  },
  {
    model: 'weblate__strings_awaiting_review',
    fn: 'strings_awaiting_review',
    call: 'weblate.strings_awaiting_review()',
    docs: 'strings_awaiting_review',
    grain: ['unit_id'],
    notNull: ['unit_id', 'translation_id', 'waiting_since', 'days_waiting'],
  },
  {
    model: 'weblate__release_readiness',
    fn: 'release_readiness',
    call: "weblate.release_readiness('component', array[80, 90, 95])",
    docs: 'release_readiness',
    grain: ['project_slug', 'component_slug', 'language_code', 'threshold'],
    notNull: ['project_slug', 'language_code', 'threshold'],
  },
];

/** The steps the marts share, each equal to a function of the mirror too. */
export const INTERMEDIATE: readonly MartSpec[] = [
  {
    model: 'int_weblate__translation_progress_spans',
    fn: 'translation_progress_spans',
    call: 'weblate.translation_progress_spans()',
    docs: 'translation_progress_spans',
    grain: ['translation_id', 'first_day'],
    notNull: ['translation_id', 'first_day', 'last_day', 'origin'],
  },
  {
    model: 'int_weblate__translation_pace',
    fn: 'translation_pace',
    call: 'weblate.translation_pace(30)',
    docs: 'translation_pace',
    grain: ['translation_id'],
    notNull: ['translation_id', 'from_day'],
  },
];

export interface Column {
  name: string;
  type: string;
}

function read(path: string): string {
  return readFileSync(new URL(path, ROOT), 'utf8');
}

/** The columns, primary key and foreign keys of a table, from its schema/tables file. */
export function tableShape(table: string): {
  columns: Column[];
  primaryKey: string[];
  foreignKeys: Array<{ column: string; table: string; field: string }>;
} {
  const text = read(`schema/tables/${table}.sql`);
  const body = /create table weblate\.\w+ \(\n([\s\S]*?)\n\);/.exec(text)?.[1] ?? '';
  const columns = body.split('\n').map((line) => {
    const match = /^\s*"?(\w+)"?\s+(.+?),?$/.exec(line);
    if (match === null) throw new Error(`schema/tables/${table}.sql: cannot read "${line}"`);
    return { name: match[1]!, type: match[2]! };
  });
  const pk = /PRIMARY KEY \(([^)]+)\)/.exec(text)?.[1] ?? '';
  const foreignKeys = [
    ...text.matchAll(/FOREIGN KEY \((\w+)\) REFERENCES weblate\.(\w+)\((\w+)\)/g),
  ].map((m) => ({ column: m[1]!, table: m[2]!, field: m[3]! }));
  return { columns, primaryKey: pk.split(', ').filter(Boolean), foreignKeys };
}

/** The columns a function returns (RETURNS TABLE in its schema/functions file). */
export function functionColumns(fn: string): Column[] {
  const text = read(`schema/functions/${fn}.sql`);
  const list = /RETURNS TABLE\((.*)\)\n/.exec(text)?.[1];
  if (list === undefined) throw new Error(`schema/functions/${fn}.sql returns no table`);
  return list.split(', ').map((part) => {
    const [name, ...type] = part.split(' ');
    return { name: name!, type: type.join(' ') };
  });
}

interface DocSection {
  description: string;
  columns: Map<string, string>;
}

/** The sections of docs/schema.md: each one's first paragraph and its column table. */
export function schemaDocSections(text = read('docs/schema.md')): Map<string, DocSection> {
  const sections = new Map<string, DocSection>();
  let current: DocSection | null = null;
  let header: string[] | null = null;
  for (const line of text.split('\n')) {
    const heading = /^#{2,3} (\w+)$/.exec(line);
    if (heading !== null) {
      current = { description: '', columns: new Map() };
      sections.set(heading[1]!, current);
      header = null;
      continue;
    }
    if (current === null) continue;
    if (line.startsWith('|')) {
      const cells = line
        .split(/(?<!\\)\|/)
        .slice(1, -1)
        .map((c) => c.trim());
      if (header === null) header = cells;
      else if (!/^-+$/.test(cells[0] ?? '') && header[0] === 'column') {
        const meaning = cells[cells.length - 1] ?? '';
        for (const name of (cells[0] ?? '').split(', ')) current.columns.set(name, meaning);
      }
      continue;
    }
    header = null;
    if (current.description === '' && line.trim() !== '' && !/^[`-]/.test(line))
      current.description = line.trim();
  }
  return sections;
}

function mentions(source: string, fn: string): boolean {
  return new RegExp(`\\b${fn}\\b(?!_)`).test(source);
}

/**
 * A mart column's description: the catalogue's metric for it (named in the source, e.g.
 * `weblate.contributions (content_changes)`, or of the column's name, the function's first),
 * else the function's column table in docs/schema.md, else the catalogue's dimension.
 */
export function martColumnDescription(
  fn: string,
  column: string,
  docs: DocSection | undefined,
): string | null {
  const named =
    METRICS.find((m) => m.source.includes(`${fn} (${column})`)) ??
    METRICS.find((m) => m.name === column && mentions(m.source, fn)) ??
    METRICS.find((m) => m.name === column);
  if (named !== undefined) return metricText(named, column);
  const documented = docs?.columns.get(column);
  if (documented !== undefined) return documented;
  return DIMENSIONS.find((d) => d.name === column)?.meaning ?? null;
}

function metricText(m: Metric, column: string): string {
  const name = m.name === column ? '' : `metric ${m.name}; `;
  return `${m.definition} (${name}${m.unit}; docs/metrics.md#${m.name})`;
}

type Test = string | Record<string, unknown>;

function relationship(to: string, field: string): Test {
  return { relationships: { arguments: { to: `ref('${to}')`, field } } };
}

function stagingModel(table: string, hasSoftDeletes: boolean, docs: Map<string, DocSection>) {
  const { columns, primaryKey, foreignKeys } = tableShape(table);
  const staged = new Set(STAGED_TABLES.map(([t]) => t));
  const section = docs.get(table);
  const rows = hasSoftDeletes
    ? 'Live rows only (deleted_at is null), every row with var weblate_mirror_include_deleted: true.'
    : 'Every row: the mirror marks none of them deleted.';
  const tests = new Map<string, Test[]>();
  const add = (column: string, test: Test) =>
    tests.set(column, [...(tests.get(column) ?? []), test]);
  for (const column of primaryKey) add(column, 'not_null');
  if (primaryKey.length === 1) add(primaryKey[0]!, 'unique');
  for (const fk of foreignKeys)
    if (staged.has(fk.table)) add(fk.column, relationship(`stg_weblate__${fk.table}`, fk.field));
  if (table === 'units') {
    add('state', { accepted_values: { arguments: { values: [...UNIT_STATES] } } });
    add('state', relationship('stg_weblate__unit_states', 'state'));
  }
  if (table === 'changes') add('action', relationship('stg_weblate__change_actions', 'action'));
  return {
    name: `stg_weblate__${table}`,
    ...describe(`weblate.${table}. ${rows} ${section?.description ?? ''}`.trim()),
    ...(primaryKey.length > 1
      ? { data_tests: [{ unique_combination: { arguments: { columns: primaryKey } } }] }
      : {}),
    columns: columns.map((c) => ({
      name: c.name,
      ...describe(section?.columns.get(c.name)),
      ...(tests.has(c.name) ? { data_tests: tests.get(c.name) } : {}),
    })),
  };
}

/** A description, its links into docs/schema.md made to work outside it. */
function describe(text: string | null | undefined): { description?: string } {
  if (text === null || text === undefined || text === '') return {};
  return { description: text.replace(/\]\(#/g, '](docs/schema.md#') };
}

function martModel(spec: MartSpec, docs: Map<string, DocSection>) {
  const section = docs.get(spec.docs);
  const columns = functionColumns(spec.fn);
  return {
    name: spec.model,
    ...describe(
      `Equals ${spec.call} row for row (same columns, rows and values), on PostgreSQL and on DuckDB over the export. ${section?.description ?? ''}`.trim(),
    ),
    data_tests: [{ unique_combination: { arguments: { columns: [...spec.grain] } } }],
    columns: columns.map((c) => {
      const tests: Test[] = spec.notNull.includes(c.name) ? ['not_null'] : [];
      if (c.name === 'origin' || c.name === 'pace_origin')
        tests.push({ accepted_values: { arguments: { values: ['measured', 'estimated'] } } });
      return {
        name: c.name,
        data_type: c.type,
        ...describe(martColumnDescription(spec.fn, c.name, section)),
        ...(tests.length > 0 ? { data_tests: tests } : {}),
      };
    }),
  };
}

const HEADER = `# Written by \`${DBT_DOCS_COMMAND}\` (scripts/write-dbt-docs.ts) from schema/, docs/schema.md and\n# the metric catalogue (src/metrics/catalogue.ts); do not edit.\n`;

function yamlFile(models: unknown[]): string {
  return HEADER + stringify({ version: 2, models }, { lineWidth: 0 });
}

/** The files `npm run dbt:docs` writes, by path from the repository's root (unformatted). */
export function dbtDocFiles(): Record<string, string> {
  const docs = schemaDocSections();
  const days = {
    name: 'int_weblate__days',
    description:
      'Every UTC day from the first to the last day of the progress history: the calendar the daily marts spread their spans over.',
    columns: [{ name: 'day', data_tests: ['unique', 'not_null'] }],
  };
  return {
    'dbt/models/staging/staging.yml': yamlFile(
      STAGED_TABLES.map(([table, soft]) => stagingModel(table, soft, docs)),
    ),
    'dbt/models/marts/marts.yml': yamlFile(MARTS.map((spec) => martModel(spec, docs))),
    'dbt/models/marts/intermediate/intermediate.yml': yamlFile([
      ...INTERMEDIATE.map((spec) => martModel(spec, docs)),
      days,
    ]),
  };
}
