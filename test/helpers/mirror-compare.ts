import { type Kysely, sql } from 'kysely';

import type { Database } from '../../src/db/database.ts';

/**
 * What two mirrors of the same upstream state must agree on, as exact text (jsonb rendered
 * by the database: 64-bit integers and microseconds intact): live rows of every table
 * without bookkeeping columns, the latest statistics snapshot of each object, and changes.
 */
/**
 * The statement of one digest of every row of `weblate.<table>`: equal digests, equal rows (for
 * a check that a table stayed as it was, where naming the row that moved is not needed).
 */
export function tableDigestQuery(table: string): string {
  return `select md5(string_agg(md5((t.*)::text), '' order by (t.*)::text)) as digest
    from weblate.${table} t`;
}

export interface MirrorSnapshot {
  tables: Record<string, string[]>;
  /** Change rows by id, compared separately: a mirror keeps history Weblate deleted. */
  changes: Map<string, string>;
  /** change_actions rows by action, compared separately for the same reason. */
  actions: Map<number, string>;
}

const BOOKKEEPING = sql`- 'first_seen_at' - 'updated_at' - 'deleted_at'`;

const LIVE_TABLES: Array<[string, string[]]> = [
  ['languages', ['code']],
  ['projects', ['id']],
  ['components', ['id']],
  ['categories', ['id']],
  ['labels', ['id']],
  ['translations', ['id']],
  ['units', ['id']],
  ['unit_labels', ['unit_id', 'label_id']],
  ['notification_subscriptions', ['id']],
];

/** Live rows; a kept mirror also keeps the links of units deleted since, a fresh one has none. */
function liveRows(table: string) {
  if (table === 'languages') return sql`true`;
  if (table !== 'unit_labels') return sql`t.deleted_at is null`;
  return sql`t.deleted_at is null and exists (select from weblate.units u
    where u.id = t.unit_id and u.deleted_at is null)`;
}

export async function snapshotMirror(db: Kysely<Database>): Promise<MirrorSnapshot> {
  const tables: Record<string, string[]> = {};
  for (const [table, keys] of LIVE_TABLES) {
    const live = liveRows(table);
    const order = sql.join(keys.map((key) => sql.ref(`t.${key}`)));
    const rows = await sql<{ row: string }>`
      select (to_jsonb(t) ${BOOKKEEPING})::text as row from ${sql.table(`weblate.${table}`)} t
      where ${live} order by ${order}`.execute(db);
    tables[table] = rows.rows.map((r) => r.row);
  }
  tables.translation_statistics = await latestSnapshots(
    db,
    'translation_statistics',
    'translation_id',
    sql`
    join weblate.translations t on t.id = s.translation_id and t.deleted_at is null`,
  );
  // Languages with a live translation: a language whose translations went away upstream keeps
  // its history in a kept mirror, while a fresh one never read it.
  tables.language_statistics = await latestSnapshots(
    db,
    'language_statistics',
    'language_code',
    sql`
    where exists (select 1 from weblate.translations t join weblate.languages l on l.id = t.language_id
                  where t.deleted_at is null and l.code = s.language_code)`,
  );
  const actions = await sql<{ action: number; row: string }>`
    select action, jsonb_build_object('action', action, 'name', name)::text as row from weblate.change_actions order by action`.execute(
    db,
  );
  const changes = await sql<{ id: string; row: string }>`
    select id::text as id, (to_jsonb(c) - 'first_seen_at' - 'updated_at')::text as row from weblate.changes c order by c.id`.execute(
    db,
  );
  return {
    tables,
    changes: new Map(changes.rows.map((r) => [r.id, r.row])),
    actions: new Map(actions.rows.map((r) => [r.action, r.row])),
  };
}

async function latestSnapshots(
  db: Kysely<Database>,
  table: string,
  key: string,
  join: ReturnType<typeof sql>,
): Promise<string[]> {
  const rows = await sql<{ row: string }>`
    select (to_jsonb(s) - 'captured_at' - 'last_seen_at' - 'run_id')::text as row from (
      select distinct on (${sql.ref(key)}) * from ${sql.table(`weblate.${table}`)} order by ${sql.ref(key)}, captured_at desc
    ) s ${join} order by s.${sql.ref(key)}`.execute(db);
  return rows.rows.map((r) => r.row);
}

export interface MirrorDifference {
  table: string;
  detail: unknown;
}

/**
 * Differences between a mirror kept up to date (`kept`) and a fresh full sync of the same
 * final state (`fresh`). Every change of the fresh one must be in the kept one, unchanged;
 * the kept one may hold more changes only where `mayBeGone(id)` (their objects were deleted
 * upstream, which deletes their history there), and more known actions only where all its
 * changes of that action may be gone.
 */
/** The fields (and `raw`'s fields) in which two rows of one table differ, fresh → kept. */
function differingFields(fresh: string | undefined, kept: string | undefined): string[] {
  if (fresh === undefined || kept === undefined) return [];
  const [a, b] = [JSON.parse(fresh), JSON.parse(kept)] as Array<Record<string, unknown>>;
  const out: string[] = [];
  const compare = (x: Record<string, unknown>, y: Record<string, unknown>, prefix: string) => {
    for (const key of new Set([...Object.keys(x), ...Object.keys(y)])) {
      const [u, v] = [JSON.stringify(x[key]), JSON.stringify(y[key])];
      if (u === v) continue;
      if (key === 'raw' && prefix === '') compare(x[key] as never, y[key] as never, 'raw.');
      else out.push(`${prefix}${key}: ${u?.slice(0, 80)} → ${v?.slice(0, 80)}`);
    }
  };
  compare(a ?? {}, b ?? {}, '');
  return out;
}

export function compareMirrors(
  kept: MirrorSnapshot,
  fresh: MirrorSnapshot,
  mayBeGone: (changeId: string) => boolean,
): MirrorDifference[] {
  const differences: MirrorDifference[] = [];
  for (const [table, rows] of Object.entries(fresh.tables)) {
    const other = kept.tables[table] ?? [];
    const [freshRows, keptRows] = [new Set(rows), new Set(other)];
    const onlyFresh = rows.filter((r) => !keptRows.has(r));
    const onlyKept = other.filter((r) => !freshRows.has(r));
    if (onlyFresh.length > 0 || onlyKept.length > 0) {
      differences.push({
        table,
        // The fields first: a message cut short still says what differs.
        detail: {
          fields: differingFields(onlyFresh[0], onlyKept[0]),
          counts: [rows.length, other.length],
          onlyFresh: onlyFresh.slice(0, 2),
          onlyKept: onlyKept.slice(0, 2),
        },
      });
    }
  }
  for (const [id, row] of fresh.changes) {
    if (kept.changes.get(id) !== row)
      differences.push({
        table: 'changes',
        detail: { id, fresh: row, kept: kept.changes.get(id) },
      });
  }
  for (const id of kept.changes.keys()) {
    if (!fresh.changes.has(id) && !mayBeGone(id))
      differences.push({ table: 'changes', detail: { id, onlyKept: true } });
  }
  // An action the kept mirror alone knows came from changes whose history went upstream.
  const actionOf = (row: string) => (JSON.parse(row) as { action: number }).action;
  const keptOnlyBy = new Map<number, string[]>();
  for (const [id, row] of kept.changes)
    keptOnlyBy.set(actionOf(row), [...(keptOnlyBy.get(actionOf(row)) ?? []), id]);
  for (const [action, row] of fresh.actions)
    if (kept.actions.get(action) !== row)
      differences.push({
        table: 'change_actions',
        detail: { action, fresh: row, kept: kept.actions.get(action) },
      });
  for (const [action, row] of kept.actions) {
    if (fresh.actions.has(action)) continue;
    const ids = keptOnlyBy.get(action) ?? [];
    if (ids.length === 0 || !ids.every(mayBeGone))
      differences.push({ table: 'change_actions', detail: { onlyKept: row } });
  }
  return differences.slice(0, 5);
}
