import { expect, it } from 'vitest';

import { parseInstanceFlags } from '../../src/cli/commands/simulate.ts';
import { runDbt } from '../helpers/dbt.ts';
import { describeDbtPackage } from './package-suite.ts';

// The package over the demo's instance (`weblate-mirror demo`: seed 1, its default size, a
// history ending today, categories and labels): what a new user models first.
describeDbtPackage({
  instance: parseInstanceFlags({}),
  onPostgres: (fixture) => {
    it('reports the mirror fresh from its newest succeeded sync', async () => {
      const f = fixture();
      const result = await runDbt(f.tools, f.dir, ['source', 'freshness', '--target', 'pg']);
      expect(result.output).toMatch(/PASS freshness of weblate\.sync_runs/);
      expect(result.code, result.output).toBe(0);
    });
  },
});
