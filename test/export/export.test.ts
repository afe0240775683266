import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { DbHandle } from '../../src/db/client.ts';
import { ExplainedError, UsageError } from '../../src/errors.ts';
import type { Manifest } from '../../src/export/manifest.ts';
import { openFileSink, type OpenSink } from '../../src/export/parquet-file.ts';
import { exportMirror, type ExportResult } from '../../src/export/run-export.ts';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { useTestDatabases } from '../helpers/database.ts';
import { SMALL_INSTANCE } from '../helpers/simulator-mirror.ts';
import { syncSimulator } from '../helpers/sync.ts';
import { databaseSummary, pythonTools, type ReadBack, readBack } from './readback.ts';

const databases = useTestDatabases();
let sim: RunningSimulator;
let handle: DbHandle;
let python: string;
const NOW = new Date('2026-12-06T10:00:00Z');

/** Tables of schema/tables, the mirror's definition, and the one this file adds. */
const TABLES = [
  ...readdirSync(new URL('../../schema/tables/', import.meta.url)).map((f) =>
    f.replace(/\.sql$/, ''),
  ),
  'export_probe',
].sort();

beforeAll(async () => {
  python = pythonTools();
  sim = await startSimulator(SMALL_INSTANCE);
  handle = await databases.migrated();
  await syncSimulator(sim, handle);
  await writeHardRows(handle);
}, 600_000);

afterAll(async () => {
  await sim?.close();
});

/** Values at the edges of every type, and nulls in every nullable column. */
async function writeHardRows({ db }: DbHandle): Promise<void> {
  await sql`insert into weblate.changes (id, action, action_name, unit_id, translation_id, component_id,
      project_slug, component_slug, language_code, target, old, details, "timestamp", raw, edit_distance)
    values
      (9223372036854775807, 5, 'Translation changed 😀', -9223372036854775808, 2147483647, -2147483648,
       'שלום-עולם', 'e' || chr(769) || 'tude', 'zh_Hant', 'Ünïcödé 👩‍👩‍👧 ' || chr(8238) || 'evil' || chr(8236) || e' tab\tnewline\n',
       '', '{"nested": {"emoji": "🦄", "rtl": "مرحبا", "big": 12345678901234567890, "e": "e\u0301"}}',
       '2026-03-01 12:34:56.123456+00', '[]', 0),
      (9223372036854775806, 0, null, null, null, null, null, null, null, null, null, null,
       '2026-03-15 00:00:00.000001+00', '{}', null),
      (9223372036854775805, 1, null, null, null, null, null, null, null, null, null, null,
       '2026-03-31 23:59:59.999999+00', '{}', null),
      (9223372036854775804, 1, null, null, null, null, null, null, null, null, null, null,
       '2026-04-01 00:00:00+00', '{}', null),
      (-9223372036854775808, 2, null, null, null, null, null, null, null, null, null, null,
       '1969-07-20 20:17:40.000001+00', '{"pre": "1970"}', null)`.execute(db);
  await sql`insert into weblate.units (id, translation_id, source, target, id_hash, content_hash, state,
      raw, "timestamp", note)
    select 9223372036854775807, min(id), array['😀 e' || chr(769), null, ''], '{}',
      9223372036854775807, -9223372036854775808, 20,
      '{"ünï": ["ç", {"deep": "🦄"}], "n": -9223372036854775808}', '1900-01-01 00:00:00.5+00',
      'RTL ' || chr(1502) || chr(1497) || ' and combining a' || chr(778)
    from weblate.translations`.execute(db);
  await sql`create table weblate.export_probe (id bigint primary key, f double precision, r real,
      d date, j json, n numeric, s smallint, v varchar(10), t timestamptz, a text[], b boolean)`.execute(
    db,
  );
  await sql`insert into weblate.export_probe values
      (1, 'NaN', 0.1, '1969-12-31', '{"b": 1,  "a": [1.0, "x"]}', '12.3400', -32768, 'ünï', '1969-12-31 23:59:59.999999+00', '{"a","b"}', true),
      (2, 'Infinity', -1.5, '0001-01-01', '[]', '-0.000001', 32767, '', '2026-03-01 12:34:56.123456+00', '{}', false),
      (3, '-Infinity', null, '2026-02-28', 'null', 'NaN', 0, null, null, null, null),
      (4, '-0', null, null, null, '123456789012345678901234567890.123456789', null, null, null, '{NULL}', null),
      (5, 5e-324, null, null, null, null, null, null, null, null, null),
      (6, 1.7976931348623157e308, null, null, null, null, null, null, null, null, null),
      (7, null, null, null, null, null, null, null, null, null, null)`.execute(db);
}

function newFolder(): string {
  return mkdtempSync(join(tmpdir(), 'wm-export-'));
}

function run(
  out: string,
  extra: Partial<Parameters<typeof exportMirror>[1]> = {},
): Promise<ExportResult> {
  // Small batches: a table takes several fetches and row groups.
  return exportMirror(handle, { out, tables: null, now: NOW, batchRows: 7, ...extra });
}

function readManifest(out: string): Manifest {
  return JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as Manifest;
}

/** Every file of the export with its inode: a file written again is a new one. */
function inodes(out: string, manifest: Manifest): Map<string, number> {
  return new Map(
    Object.values(manifest.tables).flatMap((t) =>
      t.files.map((f) => [f.path, statSync(join(out, f.path)).ino]),
    ),
  );
}

function withoutTypes(readBack: ReadBack): ReadBack {
  return Object.fromEntries(
    Object.entries(readBack).map(([name, { types: _, ...rest }]) => [name, rest]),
  );
}

async function expectReadBackEqualsDatabase(out: string, manifest: Manifest): Promise<void> {
  const tables = Object.keys(manifest.tables);
  const [back, expected] = await Promise.all([
    readBack(python, out, tables),
    databaseSummary(handle.db, manifest, tables),
  ]);
  expect(withoutTypes(back.duckdb)).toEqual(expected);
  expect(withoutTypes(back.pyarrow)).toEqual(expected);
}

describe('export', () => {
  const out = newFolder();
  let first: ExportResult;

  it('writes every table of the schema, which DuckDB and pyarrow read back as the database holds it', async () => {
    first = await run(out);
    const manifest = readManifest(out);
    expect(manifest).toEqual(first.manifest);
    expect(Object.keys(manifest.tables).sort()).toEqual(TABLES);
    const { rows } = await sql<{ id: number }>`
      select max(id) as id from weblate.sync_runs where status = 'succeeded'`.execute(handle.db);
    expect(manifest.sync_run?.id).toBe(rows[0]!.id);
    expect(manifest.database).toBe(handle.kind);
    for (const file of Object.values(manifest.tables).flatMap((t) => t.files)) {
      const bytes = readFileSync(join(out, file.path));
      expect([bytes.length, createHash('sha256').update(bytes).digest('hex')]).toEqual([
        file.bytes,
        file.sha256,
      ]);
    }
    expect(manifest.tables.changes!.partition_column).toBe('timestamp');
    expect(manifest.tables.translation_progress_estimated!.partition_column).toBe('day');
    expect(manifest.tables.units!.files.map((f) => f.path)).toEqual(['units/part-0.parquet']);
    const changeFiles = manifest.tables.changes!.files;
    expect(changeFiles.find((f) => f.partition === '2026-03')?.path).toBe(
      'changes/month=2026-03/part-0.parquet',
    );
    expect(changeFiles.find((f) => f.partition === '1969-07')?.rows).toBe(1);
    expect(
      manifest.tables.language_statistics!.columns.find((c) => c.name === 'translated_percent'),
    ).toEqual({
      name: 'translated_percent',
      postgres_type: 'numeric',
      parquet_type: 'BYTE_ARRAY STRING',
      nullable: true,
      as_text: true,
    });
    await expectReadBackEqualsDatabase(out, manifest);
  });

  it('gives each column its Parquet type, as DuckDB and pyarrow see it', async () => {
    const back = await readBack(python, out, ['changes', 'units', 'export_probe', 'unit_states']);
    const types = (reader: 'duckdb' | 'pyarrow', table: string, columns: string[]) =>
      columns.map((c) => back[reader][table]!.types![c]);
    expect(types('duckdb', 'changes', ['id', 'action', 'timestamp', 'raw', 'target'])).toEqual([
      'BIGINT',
      'INTEGER',
      'TIMESTAMP WITH TIME ZONE',
      'JSON',
      'VARCHAR',
    ]);
    expect(types('duckdb', 'units', ['source', 'fuzzy', 'content_hash'])).toEqual([
      'VARCHAR[]',
      'BOOLEAN',
      'BIGINT',
    ]);
    expect(types('pyarrow', 'export_probe', ['f', 'r', 'd', 'j', 'n', 's', 't', 'a'])).toEqual([
      'double',
      'double',
      'date32[day]',
      'extension<arrow.json>',
      'string',
      'int32',
      'timestamp[us, tz=UTC]',
      'list<element: string>',
    ]);
    expect(types('pyarrow', 'unit_states', ['state', 'name'])).toEqual(['int32', 'string']);
  });

  it('writes again only the files whose rows changed, and removes months that are gone', async () => {
    const again = await run(out);
    expect(again.tables.every((t) => t.written === 0 && t.deleted === 0)).toBe(true);
    const before = readManifest(out);
    const beforeInodes = inodes(out, before);
    const { db } = handle;
    // In March: an update, an insert and a hard delete; a row moves from July 1969 to April.
    await sql`update weblate.changes set target = 'changed ✓' where id = 9223372036854775807`.execute(
      db,
    );
    await sql`insert into weblate.changes (id, action, "timestamp", raw)
      values (9223372036854775000, 3, '2026-03-20 08:00:00.000007+00', '{}')`.execute(db);
    await sql`delete from weblate.changes where id = 9223372036854775806`.execute(db);
    await sql`update weblate.changes set "timestamp" = '2026-04-02 00:00:00+00'
      where id = -9223372036854775808`.execute(db);
    // Units, one file: an update, a soft delete, an insert and a hard delete. Its triggers
    // note the translations in label_statistics_due.
    await sql`update weblate.units set note = 'new note' where id = (select min(id) from weblate.units)`.execute(
      db,
    );
    await sql`update weblate.units set deleted_at = now() where id = (select max(id) from weblate.units where id < 9223372036854775807)`.execute(
      db,
    );
    await sql`insert into weblate.units (id, translation_id, source, target, id_hash, content_hash, state, raw)
      select 9223372036854775806, translation_id, source, target, 1, 2, state, raw
      from weblate.units where id = 9223372036854775807`.execute(db);
    await sql`delete from weblate.units where id = (select min(id) from weblate.units where note is null)`.execute(
      db,
    );

    const result = await run(out);
    const after = readManifest(out);
    const changed = [
      'changes/month=2026-03/part-0.parquet',
      'changes/month=2026-04/part-0.parquet',
      'label_statistics_due/part-0.parquet',
      'units/part-0.parquet',
    ];
    const afterInodes = inodes(out, after);
    const rewritten = [...afterInodes]
      .filter(([path, ino]) => beforeInodes.get(path) !== ino)
      .map(([path]) => path);
    expect(rewritten.sort()).toEqual(changed);
    const shaOf = (m: Manifest) =>
      new Map(Object.values(m.tables).flatMap((t) => t.files.map((f) => [f.path, f.sha256])));
    const [shaBefore, shaAfter] = [shaOf(before), shaOf(after)];
    expect(
      [...shaAfter]
        .filter(([path, sha]) => shaBefore.get(path) !== sha)
        .map(([path]) => path)
        .sort(),
    ).toEqual(changed);
    expect(result.removed).toEqual(['changes/month=1969-07/part-0.parquet']);
    expect(() => statSync(join(out, 'changes/month=1969-07'))).toThrow(/ENOENT/);
    const summary = Object.fromEntries(result.tables.map((t) => [t.name, [t.written, t.deleted]]));
    expect(summary.changes).toEqual([2, 1]);
    expect(summary.units).toEqual([1, 0]);
    expect(
      result.tables
        .filter((t) => t.written > 0)
        .map((t) => t.name)
        .sort(),
    ).toEqual(['changes', 'label_statistics_due', 'units']);
    await expectReadBackEqualsDatabase(out, after);
  });

  it('leaves the previous export as it was when the disk fills', async () => {
    await sql`update weblate.units set note = 'again' where id = 9223372036854775807`.execute(
      handle.db,
    );
    await sql`update weblate.changes set old = 'again' where id = 9223372036854775807`.execute(
      handle.db,
    );
    const manifestText = readFileSync(join(out, 'manifest.json'), 'utf8');
    const files = readdirSync(out, { recursive: true }).sort();
    let opened = 0;
    const fullDisk: OpenSink = async (path) => {
      const sink = await openFileSink(path);
      opened += 1;
      if (opened < 2) return sink;
      return {
        ...sink,
        async write(bytes) {
          await sink.write(bytes.subarray(0, 10));
          throw Object.assign(new Error('ENOSPC: no space left on device, write'), {
            code: 'ENOSPC',
          });
        },
      };
    };
    const failure = await run(out, { openSink: fullDisk }).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(ExplainedError);
    expect((failure as Error).message).toMatch(
      /^the disk of .* is full \(ENOSPC writing [a-z_]+\/.*The previous export there is unchanged$/,
    );
    expect(opened).toBe(2);
    expect(readFileSync(join(out, 'manifest.json'), 'utf8')).toBe(manifestText);
    expect(readdirSync(out, { recursive: true }).sort()).toEqual(files);
    const manifest = JSON.parse(manifestText) as Manifest;
    for (const file of Object.values(manifest.tables).flatMap((t) => t.files))
      expect(
        createHash('sha256')
          .update(readFileSync(join(out, file.path)))
          .digest('hex'),
      ).toBe(file.sha256);
    // With room again, the export goes through.
    const result = await run(out);
    expect(
      result.tables
        .filter((t) => t.written > 0)
        .map((t) => t.name)
        .sort(),
    ).toEqual(['changes', 'label_statistics_due', 'units']);
  });

  it('writes only the tables asked for, and names the nearest table for an unknown one', async () => {
    const some = newFolder();
    const result = await run(some, { tables: ['units', 'changes'] });
    expect(Object.keys(result.manifest.tables)).toEqual(['changes', 'units']);
    expect(readdirSync(some).sort()).toEqual(['changes', 'manifest.json', 'units']);
    const unknown = await run(some, { tables: ['chnages'] }).catch((err: unknown) => err);
    expect(unknown).toBeInstanceOf(UsageError);
    expect((unknown as Error).message).toMatch(
      /^--tables: the mirror has no table "chnages"; did you mean "changes"\?/,
    );
    // A narrower export into the same folder describes, and keeps, only its tables.
    await run(some, { tables: ['units'] });
    expect(readdirSync(some).sort()).toEqual(['manifest.json', 'units']);
    // A partitioned table without rows still has a file, which carries its columns.
    await sql`delete from weblate.translation_progress_estimated`.execute(handle.db);
    const empty = await run(some, { tables: ['translation_progress_estimated'] });
    expect(empty.manifest.tables.translation_progress_estimated!.files.map((f) => f.path)).toEqual([
      'translation_progress_estimated/month=none/part-0.parquet',
    ]);
    const back = await readBack(python, some, ['translation_progress_estimated']);
    expect(back.duckdb.translation_progress_estimated!.rows).toBe(0);
    expect(back.pyarrow.translation_progress_estimated!.columns).toEqual(
      empty.manifest.tables.translation_progress_estimated!.columns.map((c) => c.name),
    );
  });

  it('refuses a folder that holds other files, and leaves them alone', async () => {
    const foreign = newFolder();
    writeFileSync(join(foreign, 'notes.txt'), 'mine');
    const refusal = await run(foreign).catch((err: unknown) => err);
    expect(refusal).toBeInstanceOf(ExplainedError);
    expect((refusal as Error).message).toBe(
      `--out ${foreign} holds files that are not a weblate-mirror export (notes.txt); export writes to a new or empty folder, or to one it wrote before: choose another --out, or move those files away`,
    );
    expect(readdirSync(foreign)).toEqual(['notes.txt']);
    const other = newFolder();
    writeFileSync(join(other, 'manifest.json'), '{"name": "something else"}');
    await expect(run(other)).rejects.toThrow(
      /holds a manifest.json that is not a weblate-mirror export's/,
    );
  });
});
