import { homedir } from 'node:os';
import { join } from 'node:path';

import { defineConfig } from 'vitest/config';

import { TEST_NODE_FLAGS } from './test/setup/node-flags.ts';

export default defineConfig({
  // vitest starts the files that took longest in earlier runs first, by the durations it keeps
  // here. Outside the checkout, so every clone on the machine (CI's fresh ones too) starts from
  // them; a new machine's first run starts the largest files first.
  cacheDir: join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'weblate-mirror', 'vite'),
  test: {
    include: ['test/**/*.test.ts'],
    // The real-Weblate tier and the dbt package have their own commands and configurations
    // (vitest.weblate.config.ts, vitest.dbt.config.ts).
    exclude: ['test/real-weblate/**', 'test/dbt/**', '**/node_modules/**'],
    // The CLI bundled from the sources as they are, and the migrated database every file
    // clones (test/helpers/database-template.ts).
    globalSetup: ['test/setup/cli-bundle.ts', 'test/setup/databases.ts'],
    // A timeout catches a test that hangs; it is not a measure of speed. The longest tests
    // (processes killed and started again, whole instances synced) took up to 24 s on two
    // quiet cores and 55 s beside eight busy processes (docs/testing.md): the timeout leaves
    // room for a machine busier still.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
    execArgv: [...TEST_NODE_FLAGS],
    // Twice the two cores: much of a file's time is waiting (client timeouts, Retry-After,
    // another process's lock, child processes starting), which the other files use.
    maxWorkers: 4,
    // A worker keeps the modules it loaded from one file to the next (the files share no state
    // but what they start and stop themselves), instead of loading them again for each file.
    isolate: false,
    reporters: ['default'],
  },
});
