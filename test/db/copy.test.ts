import { describe, expect, it } from 'vitest';

import { copyLine } from '../../src/db/copy.ts';

describe('copyLine', () => {
  const kinds = { tags: 'text[]', raw: 'json', meta: 'json' } as const;
  const columns = ['id', 'text', 'flag', 'tags', 'raw', 'meta', 'missing'];

  it('writes COPY text format: tabs between columns, \\N for null, escapes for \\\\ \\n \\r \\t', () => {
    const line = copyLine(
      {
        id: '-9223372036854775808',
        text: 'a\tb\nc\r\\d "q"',
        flag: true,
        tags: ['x', 'y "z"', 'back\\slash', 'new\nline', ''],
        raw: '{"a":"\\u00e9\\n"}',
        meta: { k: 'v\tw' },
        missing: null,
      },
      columns,
      kinds,
    );
    expect(line).toBe(
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
    expect(copyLine({ id: 5, text: 'plain text', flag: false }, ['id', 'text', 'flag'], {})).toBe(
      '5\tplain text\tf\n',
    );
  });
});
