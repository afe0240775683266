import { describe, expect, it } from 'vitest';

import { JsonSyntaxError, parseJsonLossless } from '../../src/lib/json.ts';

describe('parseJsonLossless', () => {
  it('keeps integers beyond 2^53 exact, as decimal strings', () => {
    const text =
      '{"a": -8750291558908954339, "b": 9223372036854775807, "c": -9223372036854775808, "d": 9007199254740993}';
    expect(parseJsonLossless(text).value).toEqual({
      a: '-8750291558908954339',
      b: '9223372036854775807',
      c: '-9223372036854775808',
      d: '9007199254740993',
    });
  });

  it('leaves safe integers, floats and long fractions as numbers', () => {
    const text =
      '[9007199254740991, -9007199254740991, 1000000000000000, 0.12345678901234567, 1.5e300, 62.5]';
    expect(parseJsonLossless(text).value).toEqual([
      9007199254740991, -9007199254740991, 1e15, 0.12345678901234567, 1.5e300, 62.5,
    ]);
  });

  it('does not touch digits inside strings, whatever their escaping', () => {
    const text = String.raw`{"t": "id: 12345678901234567890, \"x\": 98765432109876543210 \\", "n": 12345678901234567890}`;
    const value = parseJsonLossless(text).value as Record<string, string>;
    expect(value.t).toBe('id: 12345678901234567890, "x": 98765432109876543210 \\');
    expect(value.n).toBe('12345678901234567890');
  });

  it('restores big integers in records wherever they sit, beside primitives, nested or duplicated', () => {
    const page = (results: string) => `{"count": 9, "next": null, "results": [${results}]}`;
    const cases: Array<[string, unknown[]]> = [
      [
        '"x", {"id": 1, "h": 12345678901234567890, "c": -9223372036854775808}, 7, {"h": 9223372036854775807}',
        [
          'x',
          { id: 1, h: '12345678901234567890', c: '-9223372036854775808' },
          7,
          { h: '9223372036854775807' },
        ],
      ],
      // nested below a record, an element itself, an escaped key
      [
        '{"d": {"n": 12345678901234567891}}, 12345678901234567892, {"k\\u00e9y": 12345678901234567893}',
        [
          { d: { n: '12345678901234567891' } },
          '12345678901234567892',
          { 'k\u00e9y': '12345678901234567893' },
        ],
      ],
      ['{"k\\u00e9y": 12345678901234567895}', [{ 'k\u00e9y': '12345678901234567895' }]],
      [
        '{"k\u00e9y": 12345678901234567893, "s": "\\"h\\": 1", "h": 12345678901234567894}',
        [{ kéy: '12345678901234567893', s: '"h": 1', h: '12345678901234567894' }],
      ],
      // duplicate keys: the last one wins, as in JSON.parse
      ['{"a": 12345678901234567890, "a": 5}', [{ a: 5 }]],
      ['{"a": 12345678901234567890, "a": 12345678901234567891}', [{ a: '12345678901234567891' }]],
      ['{"a": 5, "a": 12345678901234567890}', [{ a: '12345678901234567890' }]],
      // a safe 16-digit literal stays a number
      [
        '{"a": 9007199254740991, "b": 9007199254740993}',
        [{ a: 9007199254740991, b: '9007199254740993' }],
      ],
    ];
    for (const [results, expected] of cases) {
      expect(
        (parseJsonLossless(page(results)).value as { results: unknown }).results,
        results,
      ).toEqual(expected);
    }
    expect(parseJsonLossless('{"count": 12345678901234567890, "results": []}').value).toEqual({
      count: '12345678901234567890',
      results: [],
    });
  });

  it('returns the exact source text of every element of a top-level results array', () => {
    const a =
      '{"id": 1, "source": ["a\\nb", "😀 \\"q\\" \\\\"], "nested": {"results": [9]}, "h": -8750291558908954339}';
    const b = '{"id":2,"target":[""],"x":[[1,2],{"y":"}]"}]}';
    const text = `{"count": 2, "next": null, "previous": "http://x/?page=1", "results": [${a},\n  ${b}]}`;
    const parsed = parseJsonLossless(text);
    expect(parsed.resultTexts).toEqual([a, b]);
    expect((parsed.value as { results: unknown[] }).results).toHaveLength(2);
  });

  it('captures primitive elements and ignores results that are not at the top level', () => {
    expect(
      parseJsonLossless('{"results": [1, "two", true, null, -12345678901234567890]}').resultTexts,
    ).toEqual(['1', '"two"', 'true', 'null', '-12345678901234567890']);
    expect(parseJsonLossless('{"data": {"results": [1]}}').resultTexts).toBeNull();
    expect(parseJsonLossless('{"results": []}').resultTexts).toEqual([]);
    expect(parseJsonLossless('[{"results": [1]}]').resultTexts).toBeNull();
  });

  it('ignores a key named results whose value is not an array', () => {
    expect(parseJsonLossless('{"results": null, "x": [1]}').resultTexts).toBeNull();
    expect(parseJsonLossless('{"results": "results", "x": [1]}').resultTexts).toBeNull();
  });

  it('accepts a byte order mark', () => {
    expect(parseJsonLossless('\uFEFF{"a": 1}').value).toEqual({ a: 1 });
  });

  it('reports truncated and non-JSON text as JsonSyntaxError', () => {
    expect(() => parseJsonLossless('{"count": 1, "results": [{"id": 1}')).toThrow(JsonSyntaxError);
    expect(() => parseJsonLossless('{"a": "unterminated')).toThrow(JsonSyntaxError);
    expect(() => parseJsonLossless('<html><body>Bad gateway</body></html>')).toThrow(
      JsonSyntaxError,
    );
    expect(() => parseJsonLossless('')).toThrow(JsonSyntaxError);
  });

  it('agrees with JSON.parse on generated documents without big integers', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pieces = ['a', '"', '\\', '\n', 'é', '😀', '}', ']', ',', ':', ' ', '0', '\u0001'];
    const value = (depth: number): unknown => {
      const r = random();
      if (depth > 3 || r < 0.3) return Math.floor(random() * 1e6) / (r < 0.15 ? 1 : 100);
      if (r < 0.55)
        return Array.from(
          { length: Math.floor(random() * 6) },
          () => pieces[Math.floor(random() * pieces.length)],
        ).join('');
      if (r < 0.75) return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1));
      if (r < 0.8) return r < 0.77 ? null : random() < 0.5;
      return Object.fromEntries(
        Array.from({ length: Math.floor(random() * 4) }, (_, i) => [
          `k${i}${pieces[i]}`,
          value(depth + 1),
        ]),
      );
    };
    for (let n = 0; n < 300; n++) {
      const results = Array.from({ length: Math.floor(random() * 5) }, () => value(0));
      const text = JSON.stringify(
        { count: results.length, next: null, results },
        null,
        n % 2 === 0 ? 2 : undefined,
      );
      const parsed = parseJsonLossless(text);
      expect(parsed.value).toEqual(JSON.parse(text));
      expect(parsed.resultTexts?.map((t) => JSON.parse(t) as unknown)).toEqual(results);
    }
  });
});
