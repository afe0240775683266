import { addDays, isIsoDay } from '../../report/days.ts';
import type { DigestSpec } from '../model.ts';

/** Which period a digest covers: its first and last UTC day (inclusive) and its key. */
export interface DigestPeriod {
  every: DigestSpec['every'];
  from: string;
  to: string;
  /** `digest/<every>/<from>` (RenderedDigest.key): one message per channel and period. */
  key: string;
}

/** The UTC day of an instant, or of a `YYYY-MM-DD` day as it is. */
function utcDay(now: Date | string): string {
  if (typeof now === 'string' && isIsoDay(now)) return now;
  const time = typeof now === 'string' ? Date.parse(now) : now.getTime();
  if (!Number.isFinite(time)) throw new Error(`not a time: "${String(now)}"`);
  return new Date(time).toISOString().slice(0, 10);
}

/** The Monday of the ISO week (Monday to Sunday) that holds `day`. */
function isoMonday(day: string): string {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay(); // 0 is Sunday
  return addDays(day, -((weekday + 6) % 7));
}

/**
 * The period a digest covers: the one holding `at` (a UTC day), or else the last complete
 * one before `now`: yesterday for `day`, last Monday-to-Sunday ISO week for `week`.
 */
export function digestPeriod(
  every: DigestSpec['every'],
  now: Date | string,
  at?: string | null,
): DigestPeriod {
  if (at != null && !isIsoDay(at)) throw new Error(`not a day written YYYY-MM-DD: "${at}"`);
  const inside = at ?? addDays(every === 'day' ? utcDay(now) : isoMonday(utcDay(now)), -1);
  const from = every === 'day' ? inside : isoMonday(inside);
  const to = every === 'day' ? from : addDays(from, 6);
  return { every, from, to, key: `digest/${every}/${from}` };
}
