/**
 * A record's `id` as decimal text, when it can be compared exactly: a safe integer, or a
 * string of digits (how the lossless parser hands over integers beyond 2^53). Else null.
 */
export function idText(value: unknown): string | null {
  const id = value !== null && typeof value === 'object' ? (value as { id?: unknown }).id : null;
  if (typeof id === 'number' && Number.isSafeInteger(id)) return String(id);
  return typeof id === 'string' && /^\d+$/.test(id) ? id : null;
}

/** An id walk's position as a number: an id, or -1 for "before the first" (null). */
export function idKey(id: string | null): bigint {
  return id === null ? -1n : BigInt(id);
}
