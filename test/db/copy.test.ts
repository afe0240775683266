import { describe, expect, it } from 'vitest';

import { copyText } from '../../src/db/copy.ts';

type Kinds = Parameters<typeof copyText>[2];

function encode(rows: Array<Record<string, unknown>>, columns: string[], kinds: Kinds = {}) {
  const chunks = [...copyText(rows, columns, kinds)];
  return { text: Buffer.concat(chunks).toString('utf8'), chunks };
}

describe('copyText', () => {
  const kinds = { tags: 'text[]', raw: 'json', meta: 'json' } as const;
  const columns = ['id', 'text', 'flag', 'tags', 'raw', 'meta', 'missing'];

  it('writes COPY text format: tabs between columns, \\N for null, escapes for \\\\ \\n \\r \\t', () => {
    const row = {
      id: '-9223372036854775808',
      text: 'a\tb\nc\r\\d "q"',
      flag: true,
      tags: ['x', 'y "z"', 'back\\slash', 'new\nline', ''],
      raw: '{"a":"\\u00e9\\n"}',
      meta: { k: 'v\tw' },
      missing: null,
    };
    expect(encode([row], columns, kinds).text).toBe(
      [
        '-9223372036854775808',
        'a\\tb\\nc\\r\\\\d "q"',
        't',
        '{"x","y \\\\"z\\\\"","back\\\\\\\\slash","new\\nline",""}',
        '{"a":"\\\\u00e9\\\\n"}',
        '{"k":"v\\\\tw"}',
        '\\N',
      ].join('\t') + '\n',
    );
  });

  it('passes plain values through untouched', () => {
    expect(encode([{ id: 5, text: 'plain text', flag: false }], ['id', 'text', 'flag']).text).toBe(
      '5\tplain text\tf\n',
    );
  });

  it('writes long texts in place, and lines across 1 MiB buffers, without changing a byte', () => {
    const long = (n: number) => `{"t":"${'é😀\\n\t'.repeat(n)}"}`;
    const rows = Array.from({ length: 3000 }, (_, i) => ({
      id: i,
      raw: long(i % 200),
      note: i % 3 === 0 ? null : `n${'x'.repeat(i % 300)}`,
    }));
    const { text, chunks } = encode(rows, ['id', 'raw', 'note'], { raw: 'json' });
    expect(chunks.length).toBeGreaterThan(1);
    const expected = rows
      .map((r) =>
        [
          String(r.id),
          r.raw.replaceAll('\\', '\\\\').replaceAll('\t', '\\t'),
          r.note ?? '\\N',
        ].join('\t'),
      )
      .join('\n');
    expect(text).toBe(`${expected}\n`);
    // A text larger than a buffer gets a buffer of its own.
    const huge = encode([{ id: 1, raw: `"${'a'.repeat(1 << 20)}"` }], ['id', 'raw'], {
      raw: 'json',
    });
    expect(huge.text).toBe(`1\t"${'a'.repeat(1 << 20)}"\n`);
  });
});
