import { describe, expect, it } from 'vitest';

import {
  compareDecimals,
  decideReadiness,
  describeMissing,
  isAtLeast,
  parseThreshold,
  renderLinguas,
} from '../../src/watch/ready.ts';

describe('parseThreshold', () => {
  it.each([
    ['90', '90'],
    ['090', '90'],
    ['90.0', '90'],
    ['92.50', '92.5'],
    ['0', '0'],
    ['0.05', '0.05'],
    ['100', '100'],
    ['100.000', '100'],
    [' 80 ', '80'],
  ])('reads %j as %j', (text, canonical) => {
    expect(parseThreshold(text)).toBe(canonical);
  });

  it.each(['101', '100.01', 'abc', '-5', '', '1e2', '90%', '.5', '5.', '1000'])(
    'refuses %j',
    (text) => {
      expect(parseThreshold(text)).toBeNull();
    },
  );
});

describe('compareDecimals', () => {
  it.each([
    ['89.9', '90', -1],
    ['90.0', '90', 0],
    ['100.0', '99.95', 1],
    ['9.9', '10', -1],
    ['0.1', '0', 1],
    ['89.99', '89.9', 1],
    ['005', '5.000', 0],
  ] as const)('%s vs %s is %i', (a, b, want) => {
    expect(compareDecimals(a, b)).toBe(want);
    expect(compareDecimals(b, a)).toBe(-want || 0);
  });

  it('agrees with isAtLeast at the threshold', () => {
    expect(isAtLeast('90.0', '90')).toBe(true);
    expect(isAtLeast('89.9', '90')).toBe(false);
  });
});

describe('decideReadiness', () => {
  const rows = [
    { code: 'de', name: 'German', percent: '95.0', total: '20', done: '19' },
    { code: 'pt_BR', name: 'Portuguese (Brazil)', percent: '90.0', total: '10', done: '9' },
    { code: 'sr@latin', name: 'Serbian (latin)', percent: '89.9', total: '10000', done: '8999' },
  ];
  const result = decideReadiness({
    threshold: '90',
    basis: 'translated',
    by: 'strings',
    scope: { projects: [], category: null, label: null },
    dataAsOf: '2026-01-02T03:04:05.123456Z',
    rows,
    required: ['sr@latin', 'pt_BR', 'fr'],
  });

  it('splits the languages and keeps their codes as Weblate writes them', () => {
    expect(result.ready).toEqual(['de', 'pt_BR']);
    expect(result.notReady).toEqual(['sr@latin']);
    expect(result.missingRequired).toEqual(['sr@latin', 'fr']);
  });

  it('names each missing language with its percent, or its absence from the scope', () => {
    expect(describeMissing(result)).toBe(
      '2 required languages are below 90 % translated strings: sr@latin (89.9 %), fr (no strings in the scope)',
    );
  });

  it('writes a LINGUAS file gettext reads', () => {
    expect(renderLinguas(result)).toBe(
      '# languages at or above 90 % translated strings, data as of 2026-01-02T03:04:05.123456Z\nde\npt_BR\n',
    );
  });
});
