import { describe, expect, it } from 'vitest';

import { classifyEntries, filePath, monthBounds } from '../../src/export/layout.ts';
import { type Manifest, MANIFEST_FORMAT, parseManifest } from '../../src/export/manifest.ts';
import { partitionsOrEmpty, planExport, type TableInput } from '../../src/export/plan.ts';

const COLUMNS = [
  { name: 'id', postgres_type: 'bigint', parquet_type: 'INT64', nullable: false, as_text: false },
];

function table(months: Array<[string | null, string]>, columns = COLUMNS): TableInput {
  return {
    name: 'changes',
    columns,
    partitionColumn: 'timestamp',
    partitions: months.map(([month, fingerprint]) => ({ month, rows: 1, fingerprint })),
  };
}

function previousOf(input: TableInput): Manifest {
  return {
    format: MANIFEST_FORMAT,
    exported_at: '2026-03-01T00:00:00.000Z',
    sync_run: null,
    database: 'pglite',
    tables: {
      changes: {
        columns: input.columns,
        partition_column: 'timestamp',
        rows: input.partitions.length,
        files: input.partitions.map((p) => ({
          path: filePath('changes', p.month),
          partition: p.month ?? 'none',
          rows: 1,
          bytes: 100,
          sha256: 'x',
          fingerprint: p.fingerprint,
        })),
      },
    },
  };
}

const paths = (jobs: Array<{ path: string }>) => jobs.map((j) => j.path);

describe('planExport', () => {
  const before = table([
    ['2026-01', 'a'],
    ['2026-02', 'b'],
    [null, 'c'],
  ]);
  const onDisk = paths(previousOf(before).tables.changes!.files);

  it('writes every file of a first export', () => {
    const plan = planExport([before], null, () => true, []);
    expect(paths(plan.tables[0]!.write)).toEqual(onDisk);
    expect(plan.remove).toEqual([]);
  });

  it('keeps what did not change, writes what did, removes months that are gone', () => {
    const after = table([
      ['2026-02', 'b2'],
      [null, 'c'],
      ['2026-03', 'd'],
    ]);
    const plan = planExport([after], previousOf(before), () => true, [
      ...onDisk,
      'other/part-0.parquet',
    ]);
    expect(paths(plan.tables[0]!.write)).toEqual([
      'changes/month=2026-02/part-0.parquet',
      'changes/month=2026-03/part-0.parquet',
    ]);
    expect(paths(plan.tables[0]!.keep)).toEqual(['changes/month=none/part-0.parquet']);
    expect(plan.remove).toEqual(['changes/month=2026-01/part-0.parquet', 'other/part-0.parquet']);
  });

  it('rewrites a file that is no longer as written', () => {
    const plan = planExport([before], previousOf(before), (f) => f.partition !== '2026-01', onDisk);
    expect(paths(plan.tables[0]!.write)).toEqual(['changes/month=2026-01/part-0.parquet']);
  });

  it('rewrites every file of a table whose columns changed', () => {
    const wider = table(
      [
        ['2026-01', 'a'],
        ['2026-02', 'b'],
        [null, 'c'],
      ],
      [
        ...COLUMNS,
        {
          name: 'x',
          postgres_type: 'text',
          parquet_type: 'BYTE_ARRAY STRING',
          nullable: true,
          as_text: false,
        },
      ],
    );
    expect(
      planExport([wider], previousOf(before), () => true, onDisk).tables[0]!.write,
    ).toHaveLength(3);
  });

  it('gives a partitioned table without rows an empty file in month=none', () => {
    expect(partitionsOrEmpty([])).toEqual([{ month: null, rows: 0, fingerprint: '0:0' }]);
  });
});

describe('the layout', () => {
  it('sorts an output folder into ours and the rest', () => {
    expect(
      classifyEntries([
        'manifest.json',
        'units/part-0.parquet',
        'changes/month=2026-03/part-0.parquet',
        'changes/month=none/part-0.parquet',
        'changes/month=2026-03/part-0.parquet.4242.tmp',
        'manifest.json.17.tmp',
        'notes.txt',
        'units/part-1.parquet',
        'changes/month=2026-3/part-0.parquet',
        'a/b/c/part-0.parquet',
      ]),
    ).toEqual({
      manifest: true,
      layout: [
        'units/part-0.parquet',
        'changes/month=2026-03/part-0.parquet',
        'changes/month=none/part-0.parquet',
      ],
      temps: ['changes/month=2026-03/part-0.parquet.4242.tmp', 'manifest.json.17.tmp'],
      foreign: [
        'notes.txt',
        'units/part-1.parquet',
        'changes/month=2026-3/part-0.parquet',
        'a/b/c/part-0.parquet',
      ],
    });
  });

  it.each([
    ['2026-03', '2026-03-01', '2026-04-01'],
    ['2026-12', '2026-12-01', '2027-01-01'],
    ['1969-07', '1969-07-01', '1969-08-01'],
  ])('month %s runs from %s to %s', (month, from, to) => {
    expect(monthBounds(month)).toEqual({ from, to });
  });

  it('knows its own manifest from another file of that name', () => {
    expect(parseManifest('{"format":"weblate-mirror.parquet-export/1","tables":{}}').kind).toBe(
      'current',
    );
    expect(parseManifest('{"format":"weblate-mirror.parquet-export/9"}').kind).toBe(
      'other-version',
    );
    expect(parseManifest('{"name":"my-package"}').kind).toBe('foreign');
    expect(parseManifest('not json').kind).toBe('foreign');
  });
});
