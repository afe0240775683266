import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

import type { Kysely } from 'kysely';

import type { Database } from '../db/database.ts';
import { buildReport, type ReportOptions } from './build-report.ts';
import type { Report } from './model.ts';
import { renderHtml } from './render-html.ts';

/** Writes `html` to `file` (creating its folder) through a temporary file, so a reader never sees half a page. */
export function writeHtmlFile(file: string, html: string): string {
  const path = resolve(file);
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, html);
  renameSync(temporary, path);
  return path;
}

/** Builds the report and writes it as an HTML page; returns the absolute path and the report. */
export async function writeHtmlReport(
  db: Kysely<Database>,
  file: string,
  options: ReportOptions,
  width = 1,
): Promise<{ path: string; report: Report }> {
  const report = await buildReport(db, options, width);
  return { path: writeHtmlFile(file, renderHtml(report)), report };
}
