import { defineConfig } from 'vitest/config';

import { LongestFirstSequencer } from './test/setup/sequencer.ts';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The real-Weblate tier has its own command and configuration (vitest.weblate.config.ts).
    exclude: ['test/real-weblate/**', '**/node_modules/**'],
    // The migrated database every file clones (test/helpers/database-template.ts).
    globalSetup: ['test/setup/databases.ts'],
    // A timeout catches a test that hangs; it is not a measure of speed. The longest tests
    // (processes killed and started again, whole instances synced) took up to 24 s on two
    // quiet cores and 55 s beside eight busy processes (docs/testing.md): the timeout leaves
    // room for a machine busier still.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // Twice the two cores: much of a file's time is waiting (client timeouts, Retry-After,
    // another process's lock, child processes starting), which the other files use.
    maxWorkers: 4,
    // A worker keeps the modules it loaded from one file to the next (the files share no state
    // but what they start and stop themselves), instead of loading them again for each file.
    isolate: false,
    // The longest files start first (see the sequencer).
    sequence: { sequencer: LongestFirstSequencer },
    reporters: ['default'],
  },
});
