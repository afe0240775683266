import { createHash, randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

import pg from 'pg';

import { isProcessRunning } from '../../../src/lib/process-running.ts';
import { freePort } from '../../helpers/ports.ts';
import { TierApi } from './api.ts';
import { SCOPED_SUBSCRIPTIONS, seedWeblate } from './seed.ts';
import {
  type InstanceConfig,
  manage,
  startServer,
  TIER_DIR,
  type TierOp,
  tierOps,
} from './weblate.ts';

/** The PostgreSQL server Weblate's databases live on (the machine's local one). */
export const ADMIN_DATABASE_URL =
  process.env.WEBLATE_TIER_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A migrated, seeded Weblate kept as a database template and a data folder, to clone per test file. */
export interface WeblateTemplate {
  venv: string;
  database: string;
  dataDir: string;
  /** API tokens of admin and the seeded users. */
  tokens: Record<string, string>;
}

export async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/**
 * The seeded template for this version of the tier's files, built when missing (migrate,
 * admin, users, seed: about a minute) and reused by later runs on this machine. Its key
 * covers everything that shapes the data, so a change to the seed builds a new one. One
 * process builds it at a time; the others wait and reuse it.
 */
export async function ensureTemplate(
  venv: string,
  log: (line: string) => void,
): Promise<WeblateTemplate> {
  const key = templateKey(venv);
  const root = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'weblate-mirror');
  mkdirSync(root, { recursive: true });
  const release = await lock(join(root, `tier-template-${key}.lock`));
  try {
    const template = await reuseTemplate(root, key, venv);
    if (template !== null) {
      log(`reusing the seeded Weblate template ${template.database}`);
      return template;
    }
    await dropStaleTemplates(root, key);
    log(`building the seeded Weblate template wm_tier_template_${key} (about a minute)`);
    return await buildTemplate(root, key, venv);
  } finally {
    release();
  }
}

async function reuseTemplate(
  root: string,
  key: string,
  venv: string,
): Promise<WeblateTemplate | null> {
  const folder = join(root, `tier-template-${key}`);
  const database = `wm_tier_template_${key}`;
  const manifestFile = join(folder, 'manifest.json');
  if (!existsSync(manifestFile) || !(await databaseExists(database))) return null;
  const tokens = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, string>;
  // In use: dropStaleTemplates leaves it alone for another day.
  const now = new Date();
  utimesSync(folder, now, now);
  return { venv, database, dataDir: join(folder, 'data'), tokens };
}

async function buildTemplate(root: string, key: string, venv: string): Promise<WeblateTemplate> {
  const folder = join(root, `tier-template-${key}`);
  const database = `wm_tier_template_${key}`;
  rmSync(folder, { recursive: true, force: true });
  const dataDir = join(folder, 'data');
  mkdirSync(dataDir, { recursive: true });
  await adminQuery(`drop database if exists ${database} with (force)`);
  await adminQuery(`create database ${database}`);
  // Whose it is: checkouts with other cache folders share the server (dropStaleTemplates).
  await adminQuery(`comment on database ${database} is ${pg.escapeLiteral(root)}`);
  const port = await freePort();
  const config: InstanceConfig = {
    venv,
    database,
    dataDir,
    cachePrefix: `wm-tier-template-${randomBytes(4).toString('hex')}`,
    siteDomain: `127.0.0.1:${port}`,
  };
  await manage(config, ['migrate', '--noinput']);
  await manage(config, [
    'createadmin',
    '--username',
    'admin',
    '--password',
    randomBytes(12).toString('hex'),
    '--email',
    'admin@example.org',
    '--name',
    'Tier Admin',
    '--update',
  ]);
  const server = await startServer(config, port, join(folder, 'seed.log'));
  try {
    const tokensOf = async (usernames: string[]) => {
      const [found] = (await tierOps(config, [{ op: 'tokens', args: { usernames } }])) as [
        Record<string, string>,
      ];
      return found;
    };
    const adminTokens = await tokensOf(['admin']);
    const admin = new TierApi(server.url, adminTokens.admin!);
    const ops = (list: TierOp[]) => tierOps(config, list);
    const tokens = { ...adminTokens, ...(await seedWeblate(admin, tokensOf, ops)) };
    await tierOps(config, SCOPED_SUBSCRIPTIONS);
    // A day old, whenever the template was built: older than any sync's lookback, so what a
    // test's sync reads does not depend on how recently the template was seeded.
    await tierOps(config, [{ op: 'age', args: { seconds: 86_400 } }]);
    // Written last: its presence says the template is complete.
    writeFileSync(join(folder, 'manifest.json'), JSON.stringify(tokens, null, 2));
    return { venv, database, dataDir, tokens };
  } finally {
    await server.stop();
  }
}

/** A lock file held by this process (taken over when its holder died or is over 20 minutes old). */
async function lock(path: string): Promise<() => void> {
  for (const deadline = Date.now() + 30 * 60_000; Date.now() < deadline;) {
    try {
      writeFileSync(path, String(process.pid), { flag: 'wx' });
      return () => rmSync(path, { force: true });
    } catch {
      if (isAbandoned(path)) rmSync(path, { force: true });
      else await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
  throw new Error(`waited 30 minutes for ${path}`);
}

function isAbandoned(path: string): boolean {
  try {
    if (Date.now() - statSync(path).mtimeMs > 20 * 60_000) return true;
    return !isProcessRunning(Number(readFileSync(path, 'utf8')));
  } catch {
    return true;
  }
}

function templateKey(venv: string): string {
  const hash = createHash('sha256').update(venv);
  // What shapes the seeded data: Weblate's install and settings, and the seed itself.
  const files = [
    ...readdirSync(TIER_DIR).filter((name) => /\.(py|txt|sh)$/.test(name)),
    ...['seed.ts', 'seed-files.ts', 'zip.ts', 'template.ts', 'weblate.ts'].map((name) =>
      join('harness', name),
    ),
  ].sort();
  for (const name of files) hash.update(name).update(readFileSync(join(TIER_DIR, name)));
  return hash.digest('hex').slice(0, 12);
}

async function databaseExists(name: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  await client.connect();
  try {
    const result = await client.query('select 1 from pg_database where datname = $1', [name]);
    return result.rowCount === 1;
  } finally {
    await client.end();
  }
}

/**
 * Templates of other versions of the tier's files, once unused for a day (another checkout on
 * this machine may still use a recent one), this cache folder's template databases without a
 * folder, and the databases of instances whose test process died. A template of another cache
 * folder (another XDG_CACHE_HOME) is that folder's to drop.
 */
async function dropStaleTemplates(root: string, key: string): Promise<void> {
  const dayAgo = Date.now() - 24 * 3600_000;
  const folders = new Map(
    readdirSync(root).flatMap((name) => {
      const other = /^tier-template-([0-9a-f]+)$/.exec(name)?.[1];
      return other === undefined ? [] : [[other, statSync(join(root, name)).mtimeMs] as const];
    }),
  );
  const client = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  await client.connect();
  try {
    const databases = await client.query<{ datname: string; owner: string | null }>(
      `select datname, shobj_description(oid, 'pg_database') as owner from pg_database
       where datname like 'wm\\_tier\\_%'`,
    );
    for (const { datname, owner } of databases.rows) {
      const template = /^wm_tier_template_([0-9a-f]+)$/.exec(datname)?.[1];
      const pid = /^wm_tier_(\d+)_/.exec(datname)?.[1];
      const folder = template === undefined ? undefined : folders.get(template);
      const isStale =
        template !== undefined
          ? template !== key && (folder === undefined ? owner === root : folder < dayAgo)
          : pid !== undefined && !isProcessRunning(Number(pid));
      if (isStale) await client.query(`drop database if exists ${datname} with (force)`);
    }
  } finally {
    await client.end();
  }
  for (const [other, mtime] of folders) {
    if (other !== key && mtime < dayAgo) {
      rmSync(join(root, `tier-template-${other}`), { recursive: true, force: true });
    }
  }
}
