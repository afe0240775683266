import { type Kysely, sql } from 'kysely';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/**
 * Times relative to a database's clock, read once, so that hand-built history lines up
 * with the database's `now()` and UTC today whatever the machine's own clock and zone.
 */
export interface DatabaseClock {
  nowMs: number;
  /** The database's UTC today, as YYYY-MM-DD. */
  today: string;
  /** The UTC date n days before (negative: after) today, as YYYY-MM-DD. */
  day(n: number): string;
  /** 10:00 UTC (or `time`, HH:MM) on day(n), as an ISO timestamp. */
  at(n: number, time?: string): string;
  /** `days` days and `hours` hours before now, as an ISO timestamp. */
  ago(days: number, hours?: number): string;
}

export async function readDatabaseClock<DB>(db: Kysely<DB>): Promise<DatabaseClock> {
  const result = await sql<{ now_ms: string; today: string }>`
    select (extract(epoch from now()) * 1000)::bigint as now_ms,
           (now() at time zone 'UTC')::date::text as today`.execute(db);
  const nowMs = Number(result.rows[0]!.now_ms);
  const today = result.rows[0]!.today;
  const day = (n: number) =>
    new Date(Date.parse(`${today}T00:00:00Z`) - n * DAY_MS).toISOString().slice(0, 10);
  return {
    nowMs,
    today,
    day,
    at: (n, time = '10:00') => `${day(n)}T${time}:00Z`,
    ago: (days, hours = 0) => new Date(nowMs - days * DAY_MS - hours * HOUR_MS).toISOString(),
  };
}
