import { type Kysely, sql } from 'kysely';

import type { Database } from './database.ts';

// The embedded database has no autovacuum, and PostgreSQL's comes round a minute or more after
// a first sync: without ANALYZE the planner knows no table's size and joins thousands of rows
// by nested loops (docs/performance.md, "Planner statistics on the embedded database"). So
// each run ends by analyzing what it grew, by autovacuum's rule; a quiet run analyzes nothing.

/** A table of schema weblate as pg_class saw it at its last ANALYZE, and its size now. */
export interface TableExtent {
  table: string;
  /** Rows at the last ANALYZE; negative when it was never analyzed. */
  analyzedRows: number;
  /** Pages at the last ANALYZE. */
  analyzedPages: number;
  /** Pages now. */
  pages: number;
}

/** autovacuum_analyze_threshold and autovacuum_analyze_scale_factor's defaults. */
const ANALYZE_THRESHOLD = 50;
const ANALYZE_SCALE = 0.1;

/**
 * The tables to analyze: those never analyzed that hold something, those grown by a tenth
 * since, and those a run wrote more rows into than autovacuum would let pass.
 */
export function tablesToAnalyze(
  tables: readonly TableExtent[],
  written: ReadonlyMap<string, number>,
): string[] {
  return tables
    .filter((t) => {
      const rows = written.get(t.table) ?? 0;
      if (t.analyzedRows < 0) return t.pages > 0 || rows > 0;
      return (
        t.pages > t.analyzedPages * (1 + ANALYZE_SCALE) + 8 ||
        rows > ANALYZE_THRESHOLD + ANALYZE_SCALE * t.analyzedRows
      );
    })
    .map((t) => t.table)
    .sort();
}

/** Analyzes the tables of schema weblate that `tablesToAnalyze` picks; returns their names. */
export async function refreshPlannerStatistics(
  db: Kysely<Database>,
  written: ReadonlyMap<string, number> = new Map(),
): Promise<string[]> {
  const { rows } = await sql<TableExtent>`
    select c.relname as "table", c.reltuples::float8 as "analyzedRows",
           c.relpages as "analyzedPages",
           (pg_relation_size(c.oid) / current_setting('block_size')::integer)::integer as pages
    from pg_class c
    where c.relnamespace = 'weblate'::regnamespace and c.relkind = 'r'`.execute(db);
  const tables = tablesToAnalyze(rows, written);
  if (tables.length > 0)
    await sql`analyze ${sql.join(tables.map((t) => sql.table(`weblate.${t}`)))}`.execute(db);
  return tables;
}
