import type { LanguageReadinessRow } from '../db/queries/watch-ready.ts';
import { DOCUMENT_FORMATS } from '../lib/json-document.ts';
import type { ReadyBasis, ReadyUnit } from './model.ts';

// What `ready` decides and prints (docs/watching.md, "Release gates"), from the figures of
// db/queries/watch-ready.ts: pure, so that every format and the exit code follow from one
// result. Percentages stay exact decimal strings; a threshold is compared digit by digit.

/** The kind and version of `ready --format json` (README, "Output for programs"). */
export const READY_FORMAT = DOCUMENT_FORMATS.ready;

/** A threshold as --min takes it: 0 to 100, with any number of decimals. */
const THRESHOLD = /^\d{1,3}(\.\d+)?$/;

/** The threshold written canonically ("90", "92.5"), or null when `text` is not one. */
export function parseThreshold(text: string): string | null {
  const trimmed = text.trim();
  if (!THRESHOLD.test(trimmed)) return null;
  const [whole = '0', fraction = ''] = trimmed.split('.');
  const canonical =
    `${whole.replace(/^0+(?=\d)/, '')}` +
    (fraction.replace(/0+$/, '') === '' ? '' : `.${fraction.replace(/0+$/, '')}`);
  return compareDecimals(canonical, '100') > 0 ? null : canonical;
}

/** Compares two non-negative decimals written with digits and at most one point: -1, 0 or 1. */
export function compareDecimals(a: string, b: string): number {
  const [aWhole = '', aFraction = ''] = a.split('.');
  const [bWhole = '', bFraction = ''] = b.split('.');
  const aw = aWhole.replace(/^0+/, '');
  const bw = bWhole.replace(/^0+/, '');
  if (aw.length !== bw.length) return aw.length < bw.length ? -1 : 1;
  const width = Math.max(aFraction.length, bFraction.length);
  const left = aw + aFraction.padEnd(width, '0');
  const right = bw + bFraction.padEnd(width, '0');
  return left === right ? 0 : left < right ? -1 : 1;
}

/** Whether `percent` is at or above `threshold` (both exact decimal strings). */
export function isAtLeast(percent: string, threshold: string): boolean {
  return compareDecimals(percent, threshold) >= 0;
}

/** What the scope was, as the JSON document shows it. */
export interface ReadyScopeDescription {
  projects: string[];
  category: string | null;
  label: string | null;
}

export interface ReadyInput {
  threshold: string;
  basis: ReadyBasis;
  by: ReadyUnit;
  scope: ReadyScopeDescription;
  dataAsOf: string;
  rows: readonly LanguageReadinessRow[];
  /** Required language codes, as given (each known to the mirror). */
  required: readonly string[];
}

export interface ReadyResult extends ReadyInput {
  ready: string[];
  notReady: string[];
  /** Required languages not ready: below the threshold, or without strings in the scope. */
  missingRequired: string[];
}

export function decideReadiness(input: ReadyInput): ReadyResult {
  const ready = input.rows.filter((r) => isAtLeast(r.percent, input.threshold)).map((r) => r.code);
  const isReady = new Set(ready);
  return {
    ...input,
    ready,
    notReady: input.rows.filter((r) => !isReady.has(r.code)).map((r) => r.code),
    missingRequired: input.required.filter((code) => !isReady.has(code)),
  };
}

/** "90 % translated strings". */
function measureText(result: Pick<ReadyResult, 'threshold' | 'basis' | 'by'>): string {
  return `${result.threshold} % ${result.basis} ${result.by}`;
}

/** One code a line, sorted (as the rows are). */
export function renderReadyLines(result: ReadyResult): string {
  return result.ready.map((code) => `${code}\n`).join('');
}

/** A gettext LINGUAS file: a comment, then one code a line. */
export function renderLinguas(result: ReadyResult): string {
  const head = `# languages at or above ${measureText(result)}, data as of ${result.dataAsOf}\n`;
  return head + renderReadyLines(result);
}

/** The JSON document of `ready --format json`, on one line. */
export function renderReadyJson(result: ReadyResult): string {
  return JSON.stringify({
    format: READY_FORMAT,
    threshold: Number(result.threshold),
    basis: result.basis,
    by: result.by,
    scope: result.scope,
    data_as_of: result.dataAsOf,
    ready: result.ready,
    not_ready: result.notReady,
    languages: result.rows.map((r) => ({
      code: r.code,
      name: r.name,
      percent: Number(r.percent),
      total: Number(r.total),
      done: Number(r.done),
    })),
    required: result.required,
    missing_required: result.missingRequired,
  });
}

/** The stderr line naming the required languages that are not ready, with their percents. */
export function describeMissing(result: ReadyResult): string {
  const byCode = new Map(result.rows.map((r) => [r.code, r]));
  const parts = result.missingRequired.map((code) => {
    const row = byCode.get(code);
    return row === undefined ? `${code} (no strings in the scope)` : `${code} (${row.percent} %)`;
  });
  const n = parts.length;
  return `${n} required language${n === 1 ? ' is' : 's are'} below ${measureText(result)}: ${parts.join(', ')}`;
}
