import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest (child processes, whole simulated instances synced several
 * times, waits for timeouts and rate budgets), longest first, measured on a 2-core machine. Started first, they run side by
 * side while the many short files fill the gaps around them; started last, one of them alone
 * would set the end of the run. vitest orders by its cache of durations, which a fresh clone
 * (CI) does not have: it then starts the largest files first, and size says little of time.
 */
const LONGEST_FIRST = [
  'test/worker/worker.test.ts',
  'test/cli/cli.test.ts',
  'test/cli/crash.test.ts',
  'test/sync/faults.test.ts',
  'test/worker/run-job.test.ts',
  'test/sync/slow-pages.test.ts',
  'test/simulator/mutations.test.ts',
  'test/sync/unit-strategy.test.ts',
  'test/sync/drift.test.ts',
  // Shorter, but mostly waiting (for child processes, locks, a browser): early, their waits
  // overlap the work of other files instead of ending the run.
  'test/report/report-html.test.ts',
  'test/cli/simulate.test.ts',
  'test/cli/sync-lock.test.ts',
  'test/cli/interruption.test.ts',
  'test/report/report.test.ts',
];

function rank(file: TestSpecification): number {
  const index = LONGEST_FIRST.findIndex((path) => file.moduleId.endsWith(path));
  return index === -1 ? LONGEST_FIRST.length : index;
}

/** vitest's order, with LONGEST_FIRST ahead of the rest. */
export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    return ordered.sort((a, b) => rank(a) - rank(b));
  }
}
