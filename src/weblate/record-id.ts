/**
 * A record's `id` as decimal text, when it can be compared exactly: a safe integer, or a
 * string of digits (how the lossless parser hands over integers beyond 2^53). Else null.
 */
export function idText(value: unknown): string | null {
  return idValueText(
    value !== null && typeof value === 'object' ? (value as { id?: unknown }).id : null,
  );
}

/** An id as decimal text: a safe integer, or a string of digits. Else null. */
export function idValueText(id: unknown): string | null {
  if (typeof id === 'number' && Number.isSafeInteger(id)) return String(id);
  return typeof id === 'string' && /^\d+$/.test(id) ? id : null;
}

/**
 * The ids of the records a list showed, as decimal text (unit ids exceed 2^53 on large
 * instances), and where the first record without a usable id was, if any: such a record
 * could be any object, so the list then proves none missing.
 */
export class ListedIds {
  readonly ids = new Set<string>();
  unidentified: string | null = null;

  /** Notes the records of one page of `url`, as parsed (before validation). */
  note(values: readonly unknown[], url: string): void {
    values.forEach((value, index) => {
      const id = idText(value);
      if (id !== null) this.ids.add(id);
      else this.unidentified ??= `record ${index + 1} of ${url}`;
    });
  }
}

/** An id walk's position as a number: an id, or -1 for "before the first" (null). */
export function idKey(id: string | null): bigint {
  return id === null ? -1n : BigInt(id);
}
