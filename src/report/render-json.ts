import { jsonDocument } from '../lib/json-document.ts';
import type { Report } from './model.ts';

/**
 * The report as one JSON object: its `format` (lib/json-document.ts), then the Report model
 * (keys in a fixed order).
 */
export function renderJson(report: Report): string {
  return JSON.stringify(jsonDocument('report', report), null, 2);
}
