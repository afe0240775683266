import { describe, expect, it } from 'vitest';

import { formatInstant, parseInstant } from '../../src/simulator/time.ts';
import { parseUnitQuery, type UnitQuery } from '../../src/simulator/unit-query.ts';

function parsed(text: string): UnitQuery {
  const result = parseUnitQuery(text);
  if ('error' in result) throw new Error(result.error);
  return result.query;
}

describe('parseUnitQuery', () => {
  it('reads id bounds', () => {
    expect(parsed('id:>10')).toMatchObject({ idMin: 11, idMax: Infinity });
    expect(parsed('id:>=10 AND id:<20')).toMatchObject({ idMin: 10, idMax: 19 });
    expect(parsed('id:<=20 id:>5')).toMatchObject({ idMin: 6, idMax: 20 });
    expect(parsed('id:7')).toMatchObject({ idMin: 7, idMax: 7 });
  });

  it('reads last_changed instants with Z or an offset', () => {
    const us = parseInstant('2024-05-01T10:00:00Z')!;
    expect(parsed('last_changed:>=2024-05-01T12:00:00+02:00').changedMin).toBe(us);
    expect(parsed('last_changed:>2024-05-01T10:00:00Z').changedMin).toBe(us + 1);
    expect(parsed('last_changed:<2024-05-01T10:00:00.000000Z').changedMax).toBe(us - 1);
  });

  it('reads scoping terms and an empty query', () => {
    expect(parsed('project:hello AND language:cs')).toMatchObject({
      projects: ['hello'],
      languages: ['cs'],
    });
    expect(parsed('')).toMatchObject({ idMin: -Infinity, projects: [] });
  });

  it.each([
    'foo',
    'id:>abc',
    'state:>=translated',
    'id:>1 OR',
    '(id:>1',
    'id:>1)',
    '()',
    'NOT',
    'id:1,x',
    'last_changed:"2024-01-01',
    'AND id:>1',
    'id:>1 AND',
    'last_changed:>=yesterday',
  ])('rejects %j', (text) => {
    expect(parseUnitQuery(text)).toHaveProperty('error');
  });
});

describe('parseUnitQuery with OR, NOT, parentheses and sets', () => {
  const ids = (text: string): unknown => {
    const { expression } = parsed(text);
    return JSON.parse(
      JSON.stringify(expression, (_key, value: unknown) =>
        value instanceof Set ? [...(value as Set<number>)] : value,
      ),
    );
  };
  const id = (min: number, max: number): unknown => ({
    kind: 'term',
    term: { field: 'id', min, max },
  });

  it('binds NOT tighter than AND and AND tighter than OR', () => {
    expect(ids('id:1 OR id:2 AND NOT id:3')).toEqual({
      kind: 'or',
      children: [id(1, 1), { kind: 'and', children: [id(2, 2), { kind: 'not', child: id(3, 3) }] }],
    });
    expect(ids('(id:1 or id:2) id:3')).toEqual({
      kind: 'and',
      children: [{ kind: 'or', children: [id(1, 1), id(2, 2)] }, id(3, 3)],
    });
    expect(ids('not not id:4')).toEqual({ kind: 'not', child: { kind: 'not', child: id(4, 4) } });
  });

  it('reads id sets and quoted timestamps', () => {
    expect(ids('id:5,3,9')).toEqual({ kind: 'term', term: { field: 'id-set', ids: [5, 3, 9] } });
    const us = parseInstant('2026-11-22T10:00:00Z')!;
    expect(parsed('last_changed:>="2026-11-22 10:00:00Z"').changedMin).toBe(us);
  });

  it('bounds ids by the hull of OR branches and the intersection of AND terms', () => {
    const query = parsed(
      '(last_changed:>=2026-11-22T10:00:00.000000Z OR id:>41000) AND id:>40500 AND project:hello',
    );
    expect(query).toMatchObject({ idMin: 40501, idMax: Infinity, projects: ['hello'] });
    expect(query.isConjunction).toBe(false);
    expect(parsed('id:3,7 OR id:10')).toMatchObject({ idMin: 3, idMax: 10 });
    expect(parsed('NOT id:>5')).toMatchObject({ idMin: -Infinity, idMax: Infinity });
    expect(parsed('id:>5 AND language:cs').isConjunction).toBe(true);
  });
});

describe('time', () => {
  it('formats with six fraction digits and the given offset', () => {
    const us = Date.UTC(2024, 1, 29, 23, 30, 0) * 1000 + 42;
    expect(formatInstant(us, null)).toBe('2024-02-29T23:30:00.000042Z');
    expect(formatInstant(us, 120)).toBe('2024-03-01T01:30:00.000042+02:00');
    expect(formatInstant(us, -300)).toBe('2024-02-29T18:30:00.000042-05:00');
    expect(formatInstant(us, 345)).toBe('2024-03-01T05:15:00.000042+05:45');
  });

  it('parses back what it formats', () => {
    const us = 1_717_171_717_123_456;
    for (const offset of [null, 60, -420, 330])
      expect(parseInstant(formatInstant(us, offset))).toBe(us);
  });

  it('rejects impossible dates', () => {
    expect(parseInstant('2023-02-29T00:00:00Z')).toBeNull();
    expect(parseInstant('2024-01-01T25:00:00Z')).toBeNull();
    expect(parseInstant('2024-01-01T10:00:00 02:00')).toBeNull();
  });
});
