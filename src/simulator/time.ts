/**
 * Instants are kept as integer microseconds since the epoch (exact in a double until the
 * year 2255) next to the exact ISO text the server emits. Weblate (DRF) writes
 * `datetime.isoformat()`: microseconds, and the server TIME_ZONE's offset, `Z` for UTC.
 */

export const MICROS_PER_SECOND = 1_000_000;
export const MICROS_PER_HOUR = 3_600 * MICROS_PER_SECOND;
export const MICROS_PER_DAY = 24 * MICROS_PER_HOUR;

/** Formats an instant at a UTC offset in minutes; `null` writes `Z`. Always 6 fraction digits. */
export function formatInstant(micros: number, offsetMinutes: number | null): string {
  const local = micros + (offsetMinutes ?? 0) * 60 * MICROS_PER_SECOND;
  const fraction = ((local % MICROS_PER_SECOND) + MICROS_PER_SECOND) % MICROS_PER_SECOND;
  const date = new Date((local - fraction) / 1000);
  const base = date.toISOString().slice(0, 19);
  return `${base}.${String(fraction).padStart(6, '0')}${formatOffset(offsetMinutes)}`;
}

function formatOffset(offsetMinutes: number | null): string {
  if (offsetMinutes === null) return 'Z';
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const hours = String(Math.floor(abs / 60)).padStart(2, '0');
  return `${sign}${hours}:${String(abs % 60).padStart(2, '0')}`;
}

const ISO_PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,6}))?)?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/**
 * Parses ISO 8601 (date only, or date and time with optional fraction and offset) to
 * microseconds. A value without an offset is read as UTC, the simulated server TIME_ZONE's
 * stand-in. Returns null for anything else, including impossible dates.
 */
export function parseInstant(text: string): number | null {
  const match = ISO_PATTERN.exec(text.trim());
  if (match === null) return null;
  const [, year, month, day, hour, minute, second, fraction, offset] = match;
  const fields = [year, month, day, hour ?? '0', minute ?? '0', second ?? '0'].map(Number);
  const [y = 0, mo = 1, d = 1, h = 0, mi = 0, s = 0] = fields;
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return null;
  const millis = Date.UTC(y, mo - 1, d, h, mi, s);
  if (new Date(millis).getUTCDate() !== d) return null;
  const micros = millis * 1000 + Number((fraction ?? '').padEnd(6, '0'));
  return micros - parseOffsetMinutes(offset) * 60 * MICROS_PER_SECOND;
}

function parseOffsetMinutes(offset: string | undefined): number {
  if (offset === undefined || offset.toUpperCase() === 'Z') return 0;
  const digits = offset.slice(1).replace(':', '');
  const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || '0');
  return offset.startsWith('-') ? -minutes : minutes;
}

/** True when the text is a date without a time, which Weblate's search treats as a whole day. */
export function isDateOnly(text: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(text.trim());
}
