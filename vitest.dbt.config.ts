import { defineConfig } from 'vitest/config';

import { TEST_NODE_FLAGS } from './test/setup/node-flags.ts';

/**
 * The dbt package's tests (npm run test:dbt): dbt and DuckDB over mirrors of simulated
 * instances, once per database (CI runs it with and without TEST_DATABASE_URL). Apart from
 * the main suite because each dbt command costs seconds of Python start-up.
 */
export default defineConfig({
  test: {
    include: ['test/dbt/**/*.test.ts'],
    globalSetup: ['test/setup/databases.ts'],
    // Room for scripts/python-tools.sh installing dbt on a fresh machine, and for whole
    // instances synced on a busy one; not a measure of speed.
    testTimeout: 600_000,
    hookTimeout: 1_200_000,
    pool: 'forks',
    execArgv: [...TEST_NODE_FLAGS],
    // dbt runs two threads of its own: two files at a time fill the two cores.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
