import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import pg from 'pg';
import { describe, expect, it } from 'vitest';

import type { Command } from '../../src/cli/args.ts';
import { queryCommand } from '../../src/cli/commands/query.ts';
import { reportCommand } from '../../src/cli/commands/report.ts';
import { statusCommand } from '../../src/cli/commands/status.ts';
import { NoMirrorError } from '../../src/errors.ts';
import { databaseFlags, runCliInProcess, runCommand } from '../helpers/commands.ts';
import { TEST_DATABASE_URL, useTestDatabases } from '../helpers/database.ts';
import { databaseUrlOf, FOLDER_ROOT, NAMES } from '../helpers/database-template.ts';

/** The commands that only read, each with what it needs besides the database. */
const READERS: Array<[Command, string[]]> = [
  [statusCommand, []],
  [reportCommand, []],
  [queryCommand, ['select 1']],
];

const databases = useTestDatabases();

/** Runs every reader against `flags` and returns the error each one failed with. */
async function readAll(flags: Record<string, string>): Promise<Error[]> {
  const errors: Error[] = [];
  for (const [command, positionals] of READERS) {
    const result = await runCommand(command, flags, positionals);
    expect([command.name, result.code, result.stdout]).toEqual([command.name, null, '']);
    expect(result.error).toBeInstanceOf(NoMirrorError);
    errors.push(result.error!);
  }
  return errors;
}

const embeddedHint = (dir: string) =>
  `no mirror in ${dir}: run \`weblate-mirror sync\` first, or check --data-dir (WEBLATE_MIRROR_DATA_DIR)`;

describe('status, report and query without a mirror, on the embedded database', () => {
  it('name a folder that does not exist, and do not create it', async () => {
    const dir = join(FOLDER_ROOT, `${NAMES.folderPrefix(process.pid)}missing-${Date.now()}`);
    const errors = await readAll({ 'database-url': '', 'data-dir': dir });
    expect(errors.map((e) => e.message)).toEqual(READERS.map(() => embeddedHint(dir)));
    expect(existsSync(dir)).toBe(false);
  });

  it('name an empty folder, and leave it empty (no cluster, no lock file)', async () => {
    const dir = mkdtempSync(join(FOLDER_ROOT, NAMES.folderPrefix(process.pid)));
    try {
      const errors = await readAll({ 'database-url': '', 'data-dir': dir });
      expect(errors.map((e) => e.message)).toEqual(READERS.map(() => embeddedHint(dir)));
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.runIf(TEST_DATABASE_URL === null)(
    'name a folder whose database has no weblate schema, and do not create it',
    async () => {
      const database = await databases.create({ empty: true });
      const errors = await readAll(databaseFlags(database) as Record<string, string>);
      expect(errors.map((e) => e.message)).toEqual(
        READERS.map(() => embeddedHint(database.dataDir)),
      );
      const handle = await database.open();
      const schema = await handle.db
        .selectNoFrom((eb) => eb.fn<string | null>('to_regnamespace', [eb.val('weblate')]).as('s'))
        .execute();
      expect(schema).toEqual([{ s: null }]);
    },
  );
});

describe('status, report and query from a folder whose default mirror folder holds none', () => {
  it("list the mirrors below it, such as the demo's, with the flag that reads them", async () => {
    const cwd = mkdtempSync(join(FOLDER_ROOT, NAMES.folderPrefix(process.pid)));
    try {
      // Where the demo puts its mirror: ./.weblate-mirror/demo.
      const made = await runCliInProcess(['migrate'], {
        DATABASE_URL: '',
        WEBLATE_MIRROR_DATA_DIR: join(cwd, '.weblate-mirror', 'demo'),
        LOG_LEVEL: 'silent',
      });
      expect(made.code, made.stderr).toBe(0);
      const env = { DATABASE_URL: '', LOG_LEVEL: 'silent' };
      const hint =
        `weblate-mirror: no mirror in ${join(cwd, '.weblate-mirror')}, but one below it: ` +
        '--data-dir .weblate-mirror/demo; read it with that flag (or WEBLATE_MIRROR_DATA_DIR), ' +
        'or run `weblate-mirror sync` to make one here\n';
      for (const [command, positionals] of READERS) {
        const result = await runCliInProcess([command.name, ...positionals], env, { cwd });
        expect([command.name, result.code, result.stdout, result.stderr]).toEqual([
          command.name,
          1,
          '',
          hint,
        ]);
      }
      // The flag it names reads that mirror.
      const status = await runCliInProcess(['status', '--data-dir', '.weblate-mirror/demo'], env, {
        cwd,
      });
      expect(status.code, status.stderr).toBe(0);
      expect(status.stdout).toContain(`database: ${join(cwd, '.weblate-mirror', 'demo')}`);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});

describe.runIf(TEST_DATABASE_URL !== null)(
  'status, report and query without a mirror, on PostgreSQL',
  () => {
    const server = () => {
      const url = new URL(TEST_DATABASE_URL!);
      return `${url.hostname}:${url.port || 5432}`;
    };

    it('name a database without the weblate schema, and do not create it', async () => {
      const database = await databases.create({ empty: true });
      const name = new URL(database.databaseUrl!).pathname.slice(1);
      const errors = await readAll({ 'database-url': database.databaseUrl! });
      expect(errors.map((e) => e.message)).toEqual(
        READERS.map(
          () =>
            `no mirror in ${server()}/${name}: the database has no weblate schema; run \`weblate-mirror sync\` first, or check DATABASE_URL (--database-url)`,
        ),
      );
      expect(
        await askServer(database.databaseUrl!, "select to_regnamespace('weblate') as s"),
      ).toEqual([{ s: null }]);
    });

    it('name a database that does not exist, and do not create it', async () => {
      const name = NAMES.database(process.pid);
      const errors = await readAll({ 'database-url': databaseUrlOf(TEST_DATABASE_URL!, name) });
      expect(errors.map((e) => e.message)).toEqual(
        READERS.map(
          () =>
            `no mirror at ${server()}: there is no database "${name}"; create it and run \`weblate-mirror sync\`, or check DATABASE_URL (--database-url)`,
        ),
      );
      expect(
        await askServer(TEST_DATABASE_URL!, `select 1 from pg_database where datname = '${name}'`),
      ).toEqual([]);
    });
  },
);

async function askServer(url: string, text: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Record<string, unknown>>(text)).rows;
  } finally {
    await client.end();
  }
}
