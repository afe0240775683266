import { describe, expect, it, vi } from 'vitest';

import { printResult } from '../../src/cli/commands/sync.ts';
import type { RunResult } from '../../src/sync/run-record.ts';
import { RESOURCES } from '../../src/sync/tally.ts';

/** A run whose resources read and wrote the counts given (all others zero). */
function run(
  counts: Record<string, { records: number; rows: number; rejected?: number }>,
  error: Error | null = null,
): RunResult {
  const resources = RESOURCES.map((resource) => ({
    resource,
    records: counts[resource]?.records ?? 0,
    rows: counts[resource]?.rows ?? 0,
    rejected: counts[resource]?.rejected ?? 0,
    requests: 1,
    retries: 0,
    durationMs: 10,
  }));
  return {
    runId: 7,
    kind: 'full',
    instance: 'https://weblate.example/api/',
    status: error === null ? 'succeeded' : 'failed',
    error,
    summary: {
      mode: 'full',
      peakRssMb: 100,
      resources,
      rejected: resources.reduce((n, r) => n + r.rejected, 0),
      requests: resources.length,
      rowsWritten: resources.reduce((n, r) => n + r.rows, 0),
      durationMs: 100,
      warnings: [],
    },
  };
}

/** What printResult wrote: its stdout lines, then its stderr lines. */
function printed(result: RunResult): { stdout: string[]; stderr: string[] } {
  const out = { stdout: '', stderr: '' };
  const spies = (['stdout', 'stderr'] as const).map((name) =>
    vi.spyOn(process[name], 'write').mockImplementation((chunk: string | Uint8Array) => {
      out[name] += String(chunk);
      return true;
    }),
  );
  try {
    printResult(result, '/data/mirror');
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return {
    stdout: out.stdout.split('\n').slice(0, -1),
    stderr: out.stderr.split('\n').slice(0, -1),
  };
}

const HEADER = 'full sync run 7 of https://weblate.example/api/ into /data/mirror';
const NOTE = [
  'records read can exceed rows written: records read twice where pages or windows overlap,',
  'and records already current in the mirror, are not written again.',
];

describe('the outcome of a run', () => {
  it('of a failed run that read nothing is the header, and the error on stderr', () => {
    const error = new Error(
      'cannot reach Weblate at https://weblate.example/ (connection refused)',
    );
    expect(printed(run({}, error))).toEqual({
      stdout: [`${HEADER}: failed`],
      stderr: [`error: ${error.message}`],
    });
  });

  it('of a failed run that wrote something has its table, then on stderr what stays and the error', () => {
    const { stdout, stderr } = printed(
      run({ languages: { records: 3, rows: 3 } }, new Error('boom')),
    );
    expect(stdout[0]).toBe(`${HEADER}: failed`);
    expect(stdout).toContainEqual(expect.stringMatching(/^languages +3 +0 +3 +1 +10 ms$/));
    expect(stderr).toEqual([
      'What was committed before the failure stays; the next run picks it up again.',
      'error: boom',
    ]);
    expect(stdout).not.toContain(NOTE[0]);
  });

  it('puts warnings on stderr, the table on stdout', () => {
    const warned = run({ units: { records: 5, rows: 5 } });
    warned.summary.warnings = ['the server writes http:// links'];
    const { stdout, stderr } = printed(warned);
    expect(stderr).toEqual(['warning: the server writes http:// links']);
    expect(stdout).toContainEqual(expect.stringMatching(/^units +5 +0 +5 /));
  });

  it('says why records read exceed rows written, only when some resource did', () => {
    const overlapping = printed(
      run({
        changes: { records: 10_006, rows: 10_000 },
        units: { records: 5, rows: 4, rejected: 1 },
      }),
    ).stdout;
    expect(overlapping).toContainEqual(expect.stringMatching(/^changes +10006 +0 +10000 /));
    expect(overlapping.slice(-2)).toEqual(NOTE);
    const exact = printed(run({ units: { records: 5, rows: 4, rejected: 1 } })).stdout;
    expect(exact).toContainEqual(expect.stringMatching(/^units +5 +1 +4 /));
    expect(exact).not.toContain(NOTE[0]);
  });

  it('of a run that read nothing is one line under the header, without a table', () => {
    expect(printed(run({}))).toEqual({
      stdout: [`${HEADER}: succeeded`, `nothing new upstream (${RESOURCES.length} requests)`],
      stderr: [],
    });
  });
});
