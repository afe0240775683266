import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { beforeAll, describe, expect, it } from 'vitest';

import { exportCommand } from '../../src/cli/commands/export.ts';
import { NoMirrorError, UsageError } from '../../src/errors.ts';
import { databaseFlags, runCommand } from '../helpers/commands.ts';
import { TEST_DATABASE_URL, type TestDatabase, useTestDatabases } from '../helpers/database.ts';

const databases = useTestDatabases();
let database: TestDatabase;

beforeAll(async () => {
  database = await databases.create();
  // Migrated, then closed: the command opens the embedded database itself.
  await (await database.migrated()).close();
});

const folder = () => mkdtempSync(join(tmpdir(), 'wm-export-cli-'));

describe('export command', () => {
  it('exports a mirror that has never synced, and says so; again, it writes nothing', async () => {
    const out = folder();
    const first = await runCommand(exportCommand, { ...databaseFlags(database), out, json: true });
    expect([first.code, first.error]).toEqual([0, null]);
    const document = JSON.parse(first.stdout) as {
      format: string;
      sync_run: unknown;
      tables: Array<{ name: string; written: number; unchanged: number; rows: number }>;
      peak_rss_mb: number;
    };
    expect(document.format).toBe('weblate-mirror.export/1');
    expect(document.peak_rss_mb).toBeGreaterThan(0);
    expect(document.sync_run).toBeNull();
    expect(document.tables.map((t) => t.name)).toContain('changes');
    expect(document.tables.every((t) => t.written === 1 && t.unchanged === 0)).toBe(true);
    const second = await runCommand(exportCommand, { ...databaseFlags(database), out });
    expect([second.code, second.error]).toEqual([0, null]);
    expect(second.stdout).toMatch(/^changes +0 written, 1 unchanged; 0 rows$/m);
    expect(second.stdout).toMatch(/no sync has succeeded yet\n$/);
  });

  it('refuses bad usage before opening the database', async () => {
    const noOut = await runCommand(exportCommand, databaseFlags(database));
    expect(noOut.error).toBeInstanceOf(UsageError);
    expect(noOut.error?.message).toBe('export needs --out <folder>');
    const noTables = await runCommand(exportCommand, {
      ...databaseFlags(database),
      out: folder(),
      tables: ' , ',
    });
    expect(noTables.error?.message).toBe('--tables needs table names separated by commas');
  });

  it('names the nearest table for an unknown one', async () => {
    const result = await runCommand(exportCommand, {
      ...databaseFlags(database),
      out: folder(),
      tables: 'units,translation_statistic',
    });
    expect(result.error).toBeInstanceOf(UsageError);
    expect(result.error?.message).toMatch(
      /^--tables: the mirror has no table "translation_statistic"; did you mean "translation_statistics"\?/,
    );
  });

  it('says where there is no mirror, as query and report do', async () => {
    const flags =
      TEST_DATABASE_URL === null
        ? { 'database-url': '', 'data-dir': folder() }
        : { 'database-url': TEST_DATABASE_URL.replace(/\/[^/]*$/, '/wm_export_no_such_database') };
    const result = await runCommand(exportCommand, { ...flags, out: folder() });
    expect(result.error).toBeInstanceOf(NoMirrorError);
    expect(result.error?.message).toMatch(/^no mirror (in|at) /);
  });
});
