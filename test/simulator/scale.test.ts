import { describe, expect, it } from 'vitest';

import { generateInstance } from '../../src/simulator/generate.ts';
import { DEFAULT_SIZE } from '../../src/simulator/size.ts';
import { get as dispatchGet } from './consistency.ts';

describe('a 200,000-unit instance', () => {
  const big = generateInstance({
    ...DEFAULT_SIZE,
    components: 40,
    units: 200_000,
    changes: 100_000,
    seed: 3,
  });

  it('has the requested sizes', () => {
    expect(big.units.length).toBeGreaterThan(180_000);
    expect(big.units.length).toBeLessThan(220_000);
    expect(big.translations.length).toBeGreaterThan(350);
    expect(big.changes).toHaveLength(100_000);
  });

  interface Listing {
    count: number;
    next: string | null;
    results: Array<Record<string, unknown>>;
  }

  function get<T>(path: string): T {
    const reply = dispatchGet(big, path);
    expect(reply.status, path).toBe(200);
    return reply.body as T;
  }

  const ids = (listing: Listing) => listing.results.map((r) => r.id as number);
  const sortedUnitIds = big.units.map((u) => u.id).sort((a, b) => a - b);
  const SINCE = '2025-01-01T00:00:00Z';
  const sinceUs = Date.parse(SINCE) * 1000;

  // Speed is measured by `npm run bench`, not by timed assertions on a shared machine: these
  // say that a deep or filtered page of a large instance holds what Weblate would serve.
  it('serves a deep page of units in id order', () => {
    const page = get<Listing>('api/units/?page_size=10000&page=15');
    expect(page.count).toBe(big.units.length);
    expect(ids(page)).toEqual(sortedUnitIds.slice(140_000, 150_000));
    expect(page.next).toContain('page=16');
  });

  it('serves the units above an id, and the units changed since a time', () => {
    const above = sortedUnitIds[150_000]!;
    const byId = get<Listing>(`api/units/?page_size=1000&q=${encodeURIComponent(`id:>${above}`)}`);
    expect(byId.count).toBe(sortedUnitIds.length - 150_001);
    expect(ids(byId)).toEqual(sortedUnitIds.slice(150_001, 151_001));

    const changed = big.units.filter((u) => u.lastUpdatedUs >= sinceUs).map((u) => u.id);
    const byTime = get<Listing>(
      `api/units/?page_size=1000&q=${encodeURIComponent(`last_changed:>=${SINCE}`)}`,
    );
    expect(changed.length).toBeGreaterThan(1000);
    expect(byTime.count).toBe(changed.length);
    expect(ids(byTime)).toEqual(changed.sort((a, b) => a - b).slice(0, 1000));
  });

  it('serves a deep page of changes, newest first, and changes filtered by action and time', () => {
    const newestFirst = [...big.changes].sort(
      (a, b) => b.timestampUs - a.timestampUs || b.id - a.id,
    );
    const deep = get<Listing>('api/changes/?page_size=1000&page=50');
    expect(deep.count).toBe(100_000);
    expect(ids(deep)).toEqual(newestFirst.slice(49_000, 50_000).map((c) => c.id));

    const wanted = newestFirst.filter((c) => c.action === 2 && c.timestampUs >= sinceUs);
    const filtered = get<Listing>(`api/changes/?action=2&timestamp_after=${SINCE}&page_size=1000`);
    expect(filtered.count).toBe(wanted.length);
    expect(ids(filtered)).toEqual(wanted.slice(0, 1000).map((c) => c.id));
  });

  it('sums a language over its translations, and lists every translation', () => {
    const cs = big.languages.find((l) => l.code === 'cs')!;
    const translations = new Set(
      big.translations.filter((t) => t.languageId === cs.id).map((t) => t.id),
    );
    const units = big.units.filter((u) => translations.has(u.translationId)).length;
    expect(get<{ total: number }>('api/languages/cs/statistics/').total).toBe(units);

    const listed = get<Listing>('api/translations/?page_size=1000');
    expect(listed.count).toBe(big.translations.length);
    expect(new Set(ids(listed))).toEqual(new Set(big.translations.map((t) => t.id)));
  });
});
