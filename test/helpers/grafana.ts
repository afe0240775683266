import { readFileSync } from 'node:fs';

import { type Kysely, sql } from 'kysely';

import type { Database } from '../../src/db/database.ts';

// The provisioned Grafana dashboard, and its panels' SQL run as Grafana's login would.

export interface GrafanaTarget {
  refId: string;
  format: 'time_series' | 'table';
  rawSql: string;
  datasource: { type: string; uid: string };
}

export interface GrafanaPanel {
  id: number;
  title: string;
  type: string;
  datasource: { type: string; uid: string };
  targets: GrafanaTarget[];
}

export const DEPLOY = new URL('../../deploy/', import.meta.url);

export const dashboard = JSON.parse(
  readFileSync(new URL('grafana/dashboards/weblate-mirror.json', DEPLOY), 'utf8'),
) as { uid: string; time: { from: string; to: string }; panels: GrafanaPanel[] };

/** The dashboard's default time range (`now-90d` to `now`), for expandMacros. */
export function defaultRange(now = Date.now()): { from: string; to: string } {
  const days = /^now-(\d+)d$/.exec(dashboard.time.from)?.[1];
  if (days === undefined || dashboard.time.to !== 'now')
    throw new Error(`a default range this helper does not read: ${JSON.stringify(dashboard.time)}`);
  return { from: new Date(now - Number(days) * 86_400_000).toISOString(), to: 'now()' };
}

/**
 * Grafana's time macro, expanded as Grafana does for a range: by default one reaching back
 * over all the simulated history (older than the dashboard's default 90 days).
 */
export function expandMacros(
  text: string,
  range: { from: string; to: string } = { from: '2000-01-01T00:00:00Z', to: 'now()' },
): string {
  const to = range.to === 'now()' ? 'now()' : `'${range.to}'::timestamptz`;
  return text.replace(
    /\$__timeFilter\(([^()]*(?:\([^()]*\)[^()]*)*)\)/g,
    (_, column: string) => `${column} between '${range.from}'::timestamptz and ${to}`,
  );
}

/** A panel's rows, read as the read-only role `weblate_reader` (what Grafana's login holds). */
export async function panelRows(
  db: Kysely<Database>,
  rawSql: string,
  range?: { from: string; to: string },
): Promise<Record<string, unknown>[]> {
  return db.transaction().execute(async (trx) => {
    await sql`set local role weblate_reader`.execute(trx);
    return (await sql.raw<Record<string, unknown>>(expandMacros(rawSql, range)).execute(trx)).rows;
  });
}

/** The one panel of this title. */
export function panelTitled(title: string): GrafanaPanel {
  const found = dashboard.panels.filter((p) => p.title === title);
  if (found.length !== 1) throw new Error(`${found.length} panels titled ${title}`);
  return found[0]!;
}
