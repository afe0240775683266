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

function printed(result: RunResult): string[] {
  let out = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  try {
    printResult(result, '/data/mirror');
  } finally {
    spy.mockRestore();
  }
  return out.split('\n').slice(0, -1);
}

const HEADER = 'full sync run 7 of https://weblate.example/api/ into /data/mirror';
const NOTE = [
  'records read can exceed rows written: records read twice where pages or windows overlap,',
  'and records already current in the mirror, are not written again.',
];

describe('the outcome of a run', () => {
  it('of a failed run that read nothing is the header and the error, last', () => {
    const error = new Error(
      'cannot reach Weblate at https://weblate.example/ (connection refused)',
    );
    expect(printed(run({}, error))).toEqual([`${HEADER}: failed`, '', `error: ${error.message}`]);
  });

  it('of a failed run that wrote something has its table, what stays, and the error last', () => {
    const lines = printed(run({ languages: { records: 3, rows: 3 } }, new Error('boom')));
    expect(lines[0]).toBe(`${HEADER}: failed`);
    expect(lines).toContainEqual(expect.stringMatching(/^languages +3 +0 +3 +1 +10 ms$/));
    expect(lines.slice(-2)).toEqual([
      'What was committed before the failure stays; the next run picks it up again.',
      'error: boom',
    ]);
    expect(lines).not.toContain(NOTE[0]);
  });

  it('says why records read exceed rows written, only when some resource did', () => {
    const overlapping = printed(
      run({
        changes: { records: 10_006, rows: 10_000 },
        units: { records: 5, rows: 4, rejected: 1 },
      }),
    );
    expect(overlapping).toContainEqual(expect.stringMatching(/^changes +10006 +0 +10000 /));
    expect(overlapping.slice(-2)).toEqual(NOTE);
    const exact = printed(run({ units: { records: 5, rows: 4, rejected: 1 } }));
    expect(exact).toContainEqual(expect.stringMatching(/^units +5 +1 +4 /));
    expect(exact).not.toContain(NOTE[0]);
  });

  it('of a run that read nothing is one line under the header, without a table', () => {
    expect(printed(run({}))).toEqual([
      `${HEADER}: succeeded`,
      `nothing new upstream (${RESOURCES.length} requests)`,
    ]);
  });
});
