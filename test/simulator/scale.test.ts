import { describe, expect, it } from 'vitest';

import { generateInstance } from '../../src/simulator/generate.ts';
import { dispatch, toJsonText } from '../../src/simulator/index.ts';
import { DEFAULT_SIZE } from '../../src/simulator/size.ts';

const BASE = 'http://127.0.0.1:1/';

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

  it('serves deep pages and filtered pages with bounded work', () => {
    const paths = [
      'api/units/?page_size=10000&page=15',
      `api/units/?page_size=1000&q=${encodeURIComponent(`id:>${big.units[150_000]!.id}`)}`,
      `api/units/?page_size=1000&q=${encodeURIComponent('last_changed:>=2025-01-01T00:00:00Z')}`,
      'api/changes/?page_size=1000&page=50',
      'api/changes/?action=2&timestamp_after=2025-01-01T00:00:00Z&page_size=1000',
      'api/languages/cs/statistics/',
      'api/translations/?page_size=1000',
    ];
    for (const path of paths) {
      const reply = dispatch(big, {
        method: 'GET',
        url: new URL(`${BASE}${path}`),
        baseUrl: BASE,
        headers: {},
      });
      // Speed is measured by `npm run bench`, not by timed assertions on a shared machine.
      const text = reply.rawBody ?? toJsonText(reply.body);
      expect(reply.status, path).toBe(200);
      expect(text.length).toBeGreaterThan(100);
    }
  });
});
