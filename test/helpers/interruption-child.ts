/**
 * A process whose task never ends (an interval keeps it alive), under withInterruption with
 * the deadline given as the first argument: for test/cli/interruption.test.ts.
 */
import { withInterruption } from '../../src/cli/interruption.ts';
import { createLogger } from '../../src/logger.ts';

const log = createLogger({ level: 'info', pretty: false });
setInterval(() => undefined, 1000);
await withInterruption(
  log,
  () => {
    // The signal handlers are installed by now.
    process.stdout.write('ready\n');
    return new Promise<never>(() => undefined);
  },
  { deadlineMs: Number(process.argv[2]) },
);
