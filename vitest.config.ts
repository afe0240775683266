import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The real-Weblate tier has its own command and configuration (vitest.weblate.config.ts).
    exclude: ['test/real-weblate/**', '**/node_modules/**'],
    // The migrated database every file clones (test/helpers/database-template.ts).
    globalSetup: ['test/setup/databases.ts'],
    // PGlite starts in a few seconds and end-to-end tests sync a whole simulated instance.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Two cores: more parallel files only add contention.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
