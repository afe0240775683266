/**
 * PostgreSQL's text of a value, as both drivers return it (src/db/client.ts reads int8,
 * numeric, date and timestamptz as exact strings), turned into what a Parquet column holds.
 * Pure: the export reads in DateStyle ISO and TimeZone UTC, but any offset is honoured.
 */

const TIMESTAMPTZ =
  /^(\d{4,})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?([+-])(\d{2})(?::?(\d{2}))?(?::?(\d{2}))?( BC)?$/;
const DATE = /^(\d{4,})-(\d{2})-(\d{2})( BC)?$/;

const MICROS_PER_SECOND = 1_000_000n;
const SECONDS_PER_DAY = 86_400n;

/**
 * Days from 1970-01-01 to a day of the proleptic Gregorian calendar, `year` counted
 * astronomically (1 BC is year 0). Integer arithmetic only: Date.UTC maps years 0 to 99 to
 * 1900 to 1999, and doubles would not matter here but years beyond 275760 would.
 */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra =
    yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** PostgreSQL writes 44 BC as "0044 … BC"; astronomically that is year -43. */
function astronomicalYear(digits: string, bc: string | undefined): number {
  const year = Number(digits);
  return bc === undefined ? year : 1 - year;
}

/**
 * Microseconds since 1970-01-01 UTC of a timestamptz as PostgreSQL prints it in DateStyle
 * ISO (`2026-03-01 12:34:56.123456+00`, `0044-03-15 12:00:00+00 BC`). infinity has no
 * Parquet timestamp, so it is refused with the rest of what is not a timestamp.
 */
export function timestamptzToMicros(text: string): bigint {
  const match = TIMESTAMPTZ.exec(text);
  if (match === null) throw new Error(`not a finite timestamptz in ISO style: "${text}"`);
  const [, y, mo, d, h, mi, s, frac = '', sign, oh, om = '0', os = '0', bc] = match;
  const days = daysFromCivil(astronomicalYear(y!, bc), Number(mo), Number(d));
  const offset = (sign === '-' ? -1 : 1) * (Number(oh) * 3600 + Number(om) * 60 + Number(os));
  const seconds =
    BigInt(days) * SECONDS_PER_DAY +
    BigInt(Number(h) * 3600 + Number(mi) * 60 + Number(s) - offset);
  return seconds * MICROS_PER_SECOND + BigInt(frac.padEnd(6, '0'));
}

/** Days since 1970-01-01 of a date as PostgreSQL prints it in DateStyle ISO. */
export function dateToDays(text: string): number {
  const match = DATE.exec(text);
  if (match === null) throw new Error(`not a finite date in ISO style: "${text}"`);
  const [, y, mo, d, bc] = match;
  return daysFromCivil(astronomicalYear(y!, bc), Number(mo), Number(d));
}

/** An int8 as text, as a BigInt: never through a JS number, which rounds past 2^53. */
export function int8ToBigInt(text: string): bigint {
  if (!/^-?\d+$/.test(text)) throw new Error(`not an int8: "${text}"`);
  return BigInt(text);
}
