/**
 * Normalises an ISO 8601 timestamp with Z or an offset to UTC with exactly six fractional
 * digits, using integer arithmetic only (a JS Date would drop the microseconds).
 */
export function toUtcMicros(iso: string): string {
  const match =
    /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?(Z|([+-])(\d{2}):?(\d{2}))$/i.exec(
      iso,
    );
  if (!match) throw new Error(`not an ISO timestamp: ${iso}`);
  const [, y, mo, d, h, mi, s, frac = '', , sign, oh = '0', om = '0'] = match;
  const offsetMinutes = (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om));
  const epochSeconds =
    Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)) / 1000 -
    offsetMinutes * 60;
  const date = new Date(epochSeconds * 1000).toISOString().slice(0, 19);
  return `${date}.${frac.padEnd(6, '0')}Z`;
}

/** SQL that renders a timestamptz column the same way. */
export const UTC_MICROS_FORMAT = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;
