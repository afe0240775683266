import { describe, expect, it } from 'vitest';

import { toJsonText } from '../../src/simulator/render.ts';

describe('toJsonText', () => {
  it('writes bigints as exact integer literals', () => {
    const text = toJsonText({ id_hash: -4296353750398394478n, content_hash: 8445691827737211251n });
    expect(text).toBe('{"id_hash":-4296353750398394478,"content_hash":8445691827737211251}');
  });

  it('writes whole percentages with one decimal, as Python floats', () => {
    expect(toJsonText({ translated_percent: 100, fuzzy_percent: 33.3, total: 100 })).toBe(
      '{"translated_percent":100.0,"fuzzy_percent":33.3,"total":100}',
    );
  });

  it('matches JSON.stringify for ordinary values and leaves out undefined', () => {
    const value = { a: [1, 'x', null, true, { b: 'ü\n"\\\t' }], c: undefined, d: '👨‍👩‍👧‍👦' };
    expect(toJsonText(value)).toBe(JSON.stringify(value));
  });

  it('escapes U+2028 and U+2029 like DRF', () => {
    expect(toJsonText('a\u2028b\u2029')).toBe('"a\\u2028b\\u2029"');
  });

  it('keeps a text that looks like its own marks as it is', () => {
    const value = { note: '\u0000weblate-mirror:12', id_hash: 2n ** 63n - 1n, pair: ['\u2028', 5] };
    expect(toJsonText(value)).toBe(
      '{"note":"\\u0000weblate-mirror:12","id_hash":9223372036854775807,"pair":["\\u2028",5]}',
    );
    expect(toJsonText({ note: '\u0000weblate-mirror:7' })).toBe(
      '{"note":"\\u0000weblate-mirror:7"}',
    );
  });
});
