export { toUtcMicros } from '../../src/lib/timestamps.ts';

/** SQL that renders a timestamptz column in the same canonical UTC form. */
export const UTC_MICROS_FORMAT = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;
