import { expect } from 'vitest';

import type { TierApi } from './api.ts';
import { tierIsAtLeast } from './release.ts';

/** A time range as Weblate's reports take it: ISO 8601, both ends included. */
export interface WeblateWindow {
  start: string;
  end: string;
}

/**
 * Weblate's range for whole UTC days `from` to `to`: Weblate filters `timestamp__range`, which
 * includes both ends, so the range ends at the last microsecond of `to` (Weblate keeps
 * microseconds), where the report's window ends as the next day begins.
 */
export function weblateWindowOf(days: { from: string; to: string }): WeblateWindow {
  return { start: `${days.from}T00:00:00+00:00`, end: `${days.to}T23:59:59.999999+00:00` };
}

/** Weblate's credits: one object per language (its name), each with its authors. */
export type WeblateCredits = Array<
  Record<string, Array<{ username: string; change_count: number }>>
>;

/** One person's row of Weblate's contributor statistics (`generate_counts`), keyed by email. */
export interface WeblateContributorCounts {
  name: string;
  email: string;
  /** Content changes of units. */
  count: number;
  /** Source words of those units, per change. */
  words: number;
}

/**
 * Weblate's credits of a project over `window`, of one language (its code) or of all:
 * `GET /api/projects/<p>/credits/` up to 5.x; since 2026 a `credits` report made through
 * `/api/projects/<p>/reports/`.
 */
export async function readCredits(
  api: TierApi,
  project: string,
  window: WeblateWindow,
  language?: string,
): Promise<WeblateCredits> {
  if (tierIsAtLeast('2026')) {
    const data = await makeReport(api, project, {
      kind: 'credits',
      ...window,
      language: language ?? '',
    });
    return data as WeblateCredits;
  }
  const query = new URLSearchParams({
    ...window,
    ...(language === undefined ? {} : { lang: language }),
  });
  return api.get<WeblateCredits>(`projects/${project}/credits/?${query.toString()}`);
}

/**
 * Weblate 2026's contributor statistics of a project over `window` (a `contributor_stats`
 * report), counting every change (`all`) or each string once per person and kind (`unique`,
 * Weblate's default).
 */
export async function readContributorStats(
  api: TierApi,
  project: string,
  window: WeblateWindow,
  countingMode: 'all' | 'unique',
): Promise<WeblateContributorCounts[]> {
  const data = await makeReport(api, project, {
    kind: 'contributor_stats',
    ...window,
    counting_mode: countingMode,
  });
  return data as WeblateContributorCounts[];
}

/**
 * Makes a report of a project through Weblate 2026's reports API and reads its data. The tier
 * runs Celery's tasks eagerly, so the report exists when the POST answers; the project's
 * reports are listed newest first, and the newest of the kind must carry the parameters asked.
 */
export async function makeReport(
  api: TierApi,
  project: string,
  parameters: Record<string, string | number> & { kind: string },
): Promise<unknown> {
  await api.post(`projects/${project}/reports/`, parameters);
  const listed = await api.get<{ results: Array<{ kind: string; url: string }> }>(
    `projects/${project}/reports/`,
  );
  const newest = listed.results.find((r) => r.kind === parameters.kind);
  if (newest === undefined) throw new Error(`no ${parameters.kind} report of ${project}`);
  const report = await api.get<{ parameters: Record<string, unknown>; data: unknown }>(
    new URL(newest.url),
  );
  expect({ ...report.parameters, kind: parameters.kind }).toMatchObject(parameters);
  return report.data;
}
