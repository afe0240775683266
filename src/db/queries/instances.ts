import { type Kysely, sql } from 'kysely';

import type { Database, InstanceRow, ProjectKey } from '../database.ts';

/**
 * The instance a database mirrors (weblate.instances, one row) and what a sync needs to
 * decide about it before it reads anything: see src/sync/instance.ts.
 */

/** The live mirrored projects' ids and slugs as one jsonb array, by id: the fingerprint. */
const LIVE_PROJECT_KEYS = sql<ProjectKey[]>`coalesce((
  select jsonb_agg(jsonb_build_object('id', p.id, 'slug', p.slug) order by p.id)
  from weblate.projects p where p.deleted_at is null), '[]'::jsonb)`;

/**
 * The recorded instance, or null: none recorded yet, or a database this release has not
 * migrated (read-only commands open it as it is).
 */
export async function readInstance(db: Kysely<Database>): Promise<InstanceRow | null> {
  const table = await sql<{ found: boolean }>`
    select to_regclass('weblate.instances') is not null as found`.execute(db);
  if (table.rows[0]?.found !== true) return null;
  return (await db.selectFrom('weblate.instances').selectAll().executeTakeFirst()) ?? null;
}

/**
 * What decides a run's check of its instance (see decideInstance). Without a record, also
 * what the database's earlier runs read and whether it holds live projects; with one, those
 * decide nothing and are not read (null and false).
 */
export interface InstanceState {
  record: InstanceRow | null;
  /** The API root the newest run that ended read (a succeeded one first), or null: none. */
  earlierApiRoot: string | null;
  hasLiveProjects: boolean;
}

export async function readInstanceState(db: Kysely<Database>): Promise<InstanceState> {
  const record = await readInstance(db);
  if (record !== null) return { record, earlierApiRoot: null, hasLiveProjects: false };
  const earlier = await db
    .selectFrom('weblate.sync_runs')
    .select('weblate_url')
    .where('status', '!=', 'running')
    .orderBy(sql`status = 'succeeded'`, 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  const live = await db
    .selectFrom('weblate.projects')
    .select('id')
    .where('deleted_at', 'is', null)
    .limit(1)
    .executeTakeFirst();
  return {
    record,
    earlierApiRoot: earlier?.weblate_url ?? null,
    hasLiveProjects: live !== undefined,
  };
}

/** The live mirrored projects' ids and slugs, by id (what refreshFingerprint records). */
export async function listLiveProjectKeys(db: Kysely<Database>): Promise<ProjectKey[]> {
  const { rows } = await sql<{ keys: ProjectKey[] }>`select ${LIVE_PROJECT_KEYS} as keys`.execute(
    db,
  );
  return rows[0]!.keys;
}

/**
 * Records the instance this database mirrors, with the live projects as its fingerprint;
 * a record already there stays.
 */
export async function recordInstance(db: Kysely<Database>, apiRoot: string): Promise<void> {
  await sql`
    insert into weblate.instances (api_root, fingerprint) select ${apiRoot}, ${LIVE_PROJECT_KEYS}
    on conflict (id) do nothing`.execute(db);
}

/** Sets the fingerprint to the live projects, after a sync that may have changed them. */
export async function refreshFingerprint(db: Kysely<Database>): Promise<void> {
  await sql`
    update weblate.instances set fingerprint = keys.value, updated_at = now()
    from (select ${LIVE_PROJECT_KEYS} as value) keys
    where fingerprint is distinct from keys.value`.execute(db);
}

/**
 * The links a sync follows from the mirrored rows rather than from this run's answers:
 * every link of the objects discovery loads from the mirror (src/sync/mirrored.ts), and
 * the links of the changes still pending for discovery. Units, the other changes, statistics
 * history, rejected records and every `raw` keep the address they were read from: nothing
 * follows them, and each live record's row is replaced when it is read again.
 */
const LINK_COLUMNS = {
  languages: ['web_url', 'url', 'statistics_url'],
  projects: [
    'web_url',
    'url',
    'components_list_url',
    'repository_url',
    'statistics_url',
    'categories_url',
    'changes_list_url',
    'languages_url',
    'labels_url',
  ],
  components: [
    'web_url',
    'url',
    'repository_url',
    'translations_url',
    'statistics_url',
    'lock_url',
    'links_url',
    'changes_list_url',
    'task_url',
  ],
  categories: ['url', 'statistics_url'],
  translations: [
    'web_url',
    'share_url',
    'translate_url',
    'url',
    'repository_url',
    'file_url',
    'statistics_url',
    'changes_list_url',
    'units_list_url',
  ],
  changes: ['url', 'unit_url', 'translation_url', 'component_url'],
} as const;

/** Only the changes discovery still has to follow (sync_pending kind `change`). */
const PENDING_CHANGES = sql`id in (select p.id from weblate.sync_pending p where p.kind = 'change')`;

/**
 * Records that the instance is now at `to` (an API root), and rewrites the stored links
 * that start with one of `fromSites` (site roots of the old address) to start with
 * `toSite`, in one transaction. Returns how many rows' links were rewritten.
 */
export async function recordMove(
  db: Kysely<Database>,
  move: { to: string; fromSites: readonly string[]; toSite: string },
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await sql`
      insert into weblate.instances (api_root, fingerprint) select ${move.to}, ${LIVE_PROJECT_KEYS}
      on conflict (id) do update set api_root = excluded.api_root, updated_at = now()`.execute(trx);
    let rows = 0;
    for (const from of move.fromSites) {
      for (const [table, columns] of Object.entries(LINK_COLUMNS)) {
        rows += await rewriteLinks(trx, table, columns, { from, to: move.toSite });
      }
    }
    return rows;
  });
}

async function rewriteLinks(
  db: Kysely<Database>,
  table: string,
  columns: readonly string[],
  prefix: { from: string; to: string },
): Promise<number> {
  const starts = (column: string) => sql`starts_with(${sql.ref(column)}, ${prefix.from}::text)`;
  const assignments = columns.map(
    (column) =>
      sql`${sql.ref(column)} = case when ${starts(column)}
        then ${prefix.to}::text || substr(${sql.ref(column)}, length(${prefix.from}::text) + 1)
        else ${sql.ref(column)} end`,
  );
  const result = await sql`
    update ${sql.table(`weblate.${table}`)} set ${sql.join(assignments)}
    where (${sql.join(columns.map(starts), sql` or `)})
      and ${table === 'changes' ? PENDING_CHANGES : sql`true`}`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
