import type { Report } from './model.ts';

/** The report as one JSON object (the Report model; keys in a fixed order). */
export function renderJson(report: Report): string {
  return JSON.stringify(report, null, 2);
}
