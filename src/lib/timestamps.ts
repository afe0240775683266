/**
 * Exact timestamps. Weblate sends ISO 8601 with microseconds and Z or an offset; a JS Date
 * keeps only milliseconds. Here instants are canonical UTC strings with six fractional
 * digits (`2026-03-01T10:34:56.123456Z`), which sort and compare as text, and shifts are
 * done in integer microseconds.
 */

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|([+-])(\d{2}):?(\d{2})?)$/i;
const MICROS_PER_SECOND = 1_000_000n;

/** Microseconds since the epoch of an ISO 8601 timestamp with Z or an offset. */
export function toEpochMicros(iso: string): bigint {
  const match = ISO.exec(iso.trim());
  if (!match) throw new Error(`not an ISO 8601 timestamp with an offset: ${iso}`);
  const [, y, mo, d, h, mi, s = '0', frac = '', , sign, oh = '0', om = '0'] = match;
  const offsetSeconds = (sign === '-' ? -1 : 1) * (Number(oh) * 3600 + Number(om) * 60);
  const epochSeconds =
    Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)) / 1000 -
    offsetSeconds;
  // Beyond six digits Postgres rounds to the microsecond; do the same.
  const digits = frac.padEnd(7, '0');
  const micros = BigInt(digits.slice(0, 6)) + (Number(digits[6]) >= 5 ? 1n : 0n);
  return BigInt(epochSeconds) * MICROS_PER_SECOND + micros;
}

/** Canonical UTC form of epoch microseconds. */
export function fromEpochMicros(micros: bigint): string {
  const seconds = micros / MICROS_PER_SECOND - (micros % MICROS_PER_SECOND < 0n ? 1n : 0n);
  const fraction = micros - seconds * MICROS_PER_SECOND;
  const date = new Date(Number(seconds) * 1000).toISOString().slice(0, 19);
  return `${date}.${fraction.toString().padStart(6, '0')}Z`;
}

/** The canonical UTC form of any ISO 8601 timestamp with Z or an offset. */
export function toUtcMicros(iso: string): string {
  return fromEpochMicros(toEpochMicros(iso));
}

/** `iso` moved by `seconds` (negative: earlier), in canonical form. */
export function shiftSeconds(iso: string, seconds: number): string {
  return fromEpochMicros(toEpochMicros(iso) + BigInt(Math.round(seconds * 1_000_000)));
}

/** A JS Date (millisecond precision) in canonical form. */
export function fromDate(date: Date): string {
  return fromEpochMicros(BigInt(date.getTime()) * 1000n);
}
