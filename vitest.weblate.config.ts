import { defineConfig } from 'vitest/config';

/**
 * The real-Weblate tier (npm run test:weblate): the mirror against a running Weblate 5.14.3,
 * one instance per test file, cloned from a seeded template (test/real-weblate/).
 */
export default defineConfig({
  test: {
    include: ['test/real-weblate/**/*.test.ts'],
    globalSetup: [
      'test/setup/cli-bundle.ts',
      'test/setup/databases.ts',
      'test/real-weblate/global-setup.ts',
    ],
    testTimeout: 600_000,
    hookTimeout: 600_000,
    pool: 'forks',
    // Weblate and the mirror share two cores: one file at a time keeps timings meaningful.
    fileParallelism: false,
    reporters: ['default'],
  },
});
