import { describe, expect, it } from 'vitest';

import { editDistance, MAX_DISTANCE_CELLS } from '../../src/lib/edit-distance.ts';

/**
 * Each expected distance came from rapidfuzz 3.14.6, the library Weblate's
 * `Change.get_distance()` calls: `DamerauLevenshtein.distance(old, target)`. Where optimal
 * string alignment (OSA) or Levenshtein differ, their rapidfuzz values are noted, and where
 * counting UTF-16 units would differ, the units.
 */
const CASES: ReadonlyArray<readonly [string, string, number, string]> = [
  ['', '', 0, 'two empty texts'],
  ['', 'abc', 3, 'filled from empty'],
  ['abc', '', 3, 'emptied'],
  ['abc', 'abc', 0, 'unchanged'],
  ['ab', 'ba', 1, 'one transposition (Levenshtein 2)'],
  ['CA', 'ABC', 2, 'a transposed pair edited again (OSA 3)'],
  ['ab', 'bca', 2, 'the same, in other letters (OSA 3)'],
  ['abcdef', 'badcfe', 3, 'three transpositions (Levenshtein 4)'],
  ['kitten', 'sitting', 3, 'substitutions and an insertion'],
  ['abcd', 'dbca', 2, 'letters swapped at a distance'],
  ['Soubor\x1e\x1eSoubory', 'Soubor\x1e\x1eSouborů', 1, 'plural forms, one letter'],
  ['File\x1e\x1eFiles', 'Files\x1e\x1eFile', 2, 'plural forms, a letter moved across'],
  ['\x1e\x1e', 'a\x1e\x1eb', 2, 'two empty plural forms filled'],
  ['Hello 👋', 'Hello 👋🏽', 1, 'an astral modifier added (UTF-16: 2)'],
  ['😀😃', '😃😀', 1, 'two emoji transposed (UTF-16 units are 4 and 4)'],
  ['a😀b', 'a😃b', 1, 'one emoji for another (UTF-16 units: low surrogates differ)'],
  ['翻译文件', '翻譯文件', 1, 'one CJK character'],
  ['保存文件', '文件保存', 4, 'CJK halves swapped'],
  ['e\u0301', 'é', 2, 'a combining accent against the precomposed letter: no normalisation'],
  ['Přeložit', 'Prelozit', 2, 'accents dropped'],
  ['Übersetzung', 'Uebersetzung', 2, 'an umlaut spelt out'],
];

describe('editDistance', () => {
  it.each(CASES)('%j → %j is %i (%s)', (old, target, expected) => {
    expect(editDistance(old, target)).toBe(expected);
    // A distance is symmetric.
    expect(editDistance(target, old)).toBe(expected);
  });

  it('sets a long common prefix and suffix aside', () => {
    const text = 'x'.repeat(100_000);
    expect(editDistance(`${text}ab${text}`, `${text}ba${text}`)).toBe(1);
    expect(editDistance(text, `${text}yz`)).toBe(2);
  });

  it('computes up to MAX_DISTANCE_CELLS cells of what differs, and no further', () => {
    expect(MAX_DISTANCE_CELLS).toBe(5000 * 5000);
    // 5000 × 5000 cells after the common "k…" prefix: every letter substituted.
    expect(editDistance(`k${'a'.repeat(5000)}`, `k${'b'.repeat(5000)}`)).toBe(5000);
    expect(editDistance('a'.repeat(5001), 'b'.repeat(5000))).toBeNull();
  });
});
