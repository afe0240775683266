import { describe, expect, it } from 'vitest';

import type { RawJson } from '../../src/db/database.ts';
import { emptyLookup } from '../../src/sync/refs.ts';
import { toChangeRow } from '../../src/sync/streams/changes.ts';
import { weblateChange } from '../../src/weblate/schemas.ts';

/** The row of a change record carrying these texts (absent where undefined). */
function rowOf(texts: { old?: string | null; target?: string | null }) {
  const record = weblateChange.parse({
    id: 7,
    action: 2,
    timestamp: '2026-01-05T10:00:00.123456Z',
    unit: 'https://weblate.example/api/units/5/',
    ...texts,
  });
  return toChangeRow(record, '{}' as RawJson, null, emptyLookup());
}

describe('toChangeRow', () => {
  it("stores Weblate's edit distance of old and target, in code points", () => {
    // C and A transposed, B inserted between them: 2 (rapidfuzz 3.14.6; OSA would say 3).
    expect(rowOf({ old: 'CA', target: 'ABC' }).edit_distance).toBe(2);
    // One astral character for another: 1, where UTF-16 units would differ in one of two.
    expect(rowOf({ old: 'Hi 👋', target: 'Hi 👍' }).edit_distance).toBe(1);
    // Weblate sends '' for a string that had no text: all of the target is new.
    expect(rowOf({ old: '', target: 'Soubor\x1e\x1eSoubory' }).edit_distance).toBe(15);
  });

  it('stores no distance when a text is missing', () => {
    expect(rowOf({ target: 'Soubor' }).edit_distance).toBeNull();
    expect(rowOf({ old: 'Soubor', target: null }).edit_distance).toBeNull();
  });
});
