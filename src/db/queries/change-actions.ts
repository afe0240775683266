import { type Kysely, sql } from 'kysely';

import type { Database } from '../database.ts';

export interface SeenAction {
  action: number;
  apiName: string | null;
  firstSeenAt: string;
  lastSeenAt: string;
}

/**
 * Adds action codes as changes show them (unknown codes are stored, never rejected) and
 * keeps the server's label and the span of change timestamps seen with each code.
 */
export async function recordChangeActions(
  db: Kysely<Database>,
  seen: SeenAction[],
): Promise<number> {
  if (seen.length === 0) return 0;
  // In code order, so concurrent pages lock rows in the same order and cannot deadlock.
  const sorted = [...seen].sort((a, b) => a.action - b.action);
  const json = JSON.stringify(
    sorted.map((s) => ({
      action: s.action,
      api_name: s.apiName,
      first_ts: s.firstSeenAt,
      last_ts: s.lastSeenAt,
    })),
  );
  const result = await sql`
    insert into weblate.change_actions as a (action, name, api_name, first_seen_at, last_seen_at)
    select x.action, coalesce(x.api_name, 'action ' || x.action), x.api_name, x.first_ts, x.last_ts
    from jsonb_to_recordset(${json}::jsonb) as x(action integer, api_name text, first_ts timestamptz, last_ts timestamptz)
    on conflict (action) do update set
      api_name = coalesce(excluded.api_name, a.api_name),
      first_seen_at = least(a.first_seen_at, excluded.first_seen_at),
      last_seen_at = greatest(a.last_seen_at, excluded.last_seen_at)
    where (a.api_name, a.first_seen_at, a.last_seen_at) is distinct from
      (coalesce(excluded.api_name, a.api_name), least(a.first_seen_at, excluded.first_seen_at),
       greatest(a.last_seen_at, excluded.last_seen_at))
  `.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}
