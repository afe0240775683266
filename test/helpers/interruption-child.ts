/**
 * A process under withInterruption, for test/cli/interruption.test.ts. Arguments: the
 * deadline in ms, then modes: `stops` (its task ends once the signal aborts it; else never, an
 * interval keeps the process alive) and `holds` (once ready, its event loop waits for a line on
 * stdin, so that the signals sent meanwhile are handled together).
 */
import { readSync } from 'node:fs';

import { withInterruption } from '../../src/cli/interruption.ts';
import { createLogger } from '../../src/logger.ts';

const [deadline, ...modes] = process.argv.slice(2);
const log = createLogger({ level: 'info', pretty: false });
setInterval(() => undefined, 1000);
await withInterruption(
  log,
  async (signal) => {
    // The signal handlers are installed by now.
    process.stdout.write(`ready ${process.pid}\n`);
    if (modes.includes('holds')) readSync(0, Buffer.alloc(1));
    if (modes.includes('stops')) {
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      // Not before the other signals taken with the first are handled, in this turn of the loop.
      await new Promise((resolve) => setImmediate(resolve));
      process.exit(0);
    }
    await new Promise<never>(() => undefined);
  },
  { deadlineMs: Number(deadline) },
);
