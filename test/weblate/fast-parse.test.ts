import { isDeepStrictEqual } from 'node:util';

import { describe, expect, it } from 'vitest';
import type { z } from 'zod';

import { parseJsonLossless } from '../../src/lib/json.ts';
import {
  DEFAULT_SIZE,
  dispatch,
  generateInstance,
  type SimInstance,
} from '../../src/simulator/index.ts';
import { fastParse } from '../../src/weblate/fast-parse.ts';
import {
  weblateChange,
  weblateComponent,
  weblateLanguage,
  weblateProject,
  weblateStatistics,
  weblateSubscription,
  weblateTranslation,
  weblateUnit,
} from '../../src/weblate/schemas.ts';

const BASE = 'http://weblate.test/';
const API = `${BASE}api/`;
const instance = generateInstance({ ...DEFAULT_SIZE, seed: 11 });

/** The records of one simulator answer, parsed as the client parses them. */
function records(sim: SimInstance, path: string): Array<Record<string, unknown>> {
  const response = dispatch(sim, {
    method: 'GET',
    url: new URL(`${API}${path}`),
    baseUrl: BASE,
    headers: {},
  });
  expect(response.status, path).toBe(200);
  const text = response.rawBody ?? JSON.stringify(response.body);
  const value = parseJsonLossless(text).value as { results?: unknown[] };
  return (value.results ?? [value]) as Array<Record<string, unknown>>;
}

const project = instance.projects[0]!;
const component = instance.components.find((c) => c.projectId === project.id)!;
const samples: Array<[string, z.ZodType, Array<Record<string, unknown>>]> = [
  ['language', weblateLanguage, records(instance, 'languages/?page_size=50')],
  ['project', weblateProject, records(instance, 'projects/')],
  ['component', weblateComponent, records(instance, 'components/?page_size=50')],
  ['translation', weblateTranslation, records(instance, 'translations/?page_size=50')],
  ['unit', weblateUnit, records(instance, 'units/?page_size=100')],
  ['change', weblateChange, records(instance, 'changes/?page_size=100')],
  [
    'statistics',
    weblateStatistics,
    records(instance, `components/${project.slug}/${component.slug}/statistics/`),
  ],
  [
    'subscription',
    weblateSubscription,
    records(
      instance,
      `users/${instance.users.find((u) => u.subscriptions.length > 0)!.username}/notifications/`,
    ),
  ],
];

/** Values that probe every kind of field: wrong types, edges of numbers, empty shapes. */
const ODD_VALUES: unknown[] = [
  undefined,
  null,
  '',
  'text',
  '12',
  '-9223372036854775808',
  '9223372036854775808',
  '2026-11-22T10:00:00.123456Z',
  '2026-11-22 10:00',
  0,
  -1,
  1.5,
  2 ** 53,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  true,
  false,
  [],
  ['a', 'b'],
  [1],
  [null],
  {},
  { id: 1, slug: 'x' },
];

/** Both paths on one value: the fast path may only accept what zod accepts, with zod's values. */
function compare(schema: z.ZodType, value: unknown): 'fast' | 'zod' {
  const expected = schema.safeParse(structuredClone(value));
  const fast = fastParse(schema, structuredClone(value));
  if (fast === undefined) return 'zod';
  expect(
    expected.success,
    `zod refuses what the fast path accepted: ${JSON.stringify(value)}`,
  ).toBe(true);
  const data = expected.data as Record<string, unknown>;
  for (const key of Object.keys(data)) {
    const same = isDeepStrictEqual((fast as Record<string, unknown>)[key], data[key]);
    expect(same, `field ${key} of ${JSON.stringify(value)}`).toBe(true);
  }
  return 'fast';
}

describe('fastParse', () => {
  it('accepts every valid unit, change and catalog record itself, with the values zod gives', () => {
    for (const [name, schema, values] of samples) {
      expect(values.length, name).toBeGreaterThan(0);
      const paths = values.map((value) => compare(schema, value));
      // Subscriptions use a union, which the fast path leaves to zod.
      expect(new Set(paths), name).toEqual(new Set([name === 'subscription' ? 'zod' : 'fast']));
    }
  });

  it('never accepts what zod refuses, for any field set to any odd value or removed', () => {
    let fast = 0;
    let zod = 0;
    for (const [, schema, values] of samples) {
      const sample = values[0]!;
      const keys = Object.keys((schema as unknown as { shape: object }).shape);
      for (const key of [...keys, 'not_in_schema']) {
        for (const odd of ODD_VALUES) {
          const record = { ...structuredClone(sample), [key]: odd };
          if (odd === undefined) delete record[key];
          if (compare(schema, record) === 'fast') fast++;
          else zod++;
        }
      }
      for (const odd of ODD_VALUES) compare(schema, odd);
    }
    // Both outcomes occur: the comparison covers accepted and refused records.
    expect(fast).toBeGreaterThan(100);
    expect(zod).toBeGreaterThan(100);
  });

  it('converts 64-bit whole numbers to exact text in place and refuses rounded ones', () => {
    const unit = structuredClone(samples.find(([name]) => name === 'unit')![2][0]!);
    unit.id = 42;
    unit.id_hash = '-9223372036854775808';
    const parsed = fastParse(weblateUnit, unit)!;
    expect(parsed).toBe(unit);
    expect([parsed.id, parsed.id_hash]).toEqual(['42', '-9223372036854775808']);
    expect(fastParse(weblateUnit, { ...unit, content_hash: 2 ** 60 })).toBeUndefined();
  });
});
