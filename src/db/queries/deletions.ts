import { type Kysely, type RawBuilder, sql } from 'kysely';

import type { Database } from '../database.ts';
import { translationsDeleted } from './pending-lifecycle.ts';
import { applyTransitions } from './sync-state.ts';

export type SoftDeletedTable =
  | 'projects'
  | 'components'
  | 'categories'
  | 'labels'
  | 'translations'
  | 'notification_subscriptions';

// Every deletion also sets updated_at: a deleted row has changed, and tools that copy the
// mirror incrementally by updated_at (dlt, Airbyte's cursor mode) must see it (docs/data-teams.md).

/** Tables whose rows contain others (see carryDeletion). */
type ContainerTable = 'projects' | 'components' | 'translations';

function isContainer(table: SoftDeletedTable): table is ContainerTable {
  return table === 'projects' || table === 'components' || table === 'translations';
}

/**
 * After a complete listing: sets deleted_at on live rows of `table` within `scope` (a
 * column equal to a value, or everything) whose id the listing did not contain, and on
 * what they contain, in one transaction (see carryDeletion).
 */
export async function markMissingDeleted(
  db: Kysely<Database>,
  table: SoftDeletedTable,
  scope: { column: string; value: string } | null,
  seenIds: readonly string[],
): Promise<number[]> {
  const where = scope === null ? sql`true` : sql`${sql.ref(scope.column)} = ${scope.value}`;
  return db.transaction().execute(async (trx) => {
    const result = await sql<{ id: number }>`
      update ${sql.table(`weblate.${table}`)} as t set deleted_at = now(), updated_at = now()
      where t.deleted_at is null and ${where} and ${notAmong(sql.ref('t.id'), seenIds)}
      returning t.id`.execute(trx);
    const gone = result.rows.map((r) => Number(r.id));
    if (isContainer(table)) await carryDeletion(trx, table, gone);
    return gone;
  });
}

/**
 * `id` is none of `ids`, as an anti-join the planner hashes; `not (id = any(array))` compares
 * every row with every element (docs/performance.md#what-makes-it-fast).
 */
function notAmong(id: RawBuilder<unknown>, ids: readonly string[]) {
  return sql`not exists (select 1 from unnest(${`{${ids.join(',')}}`}::bigint[]) as seen(id) where seen.id = ${id})`;
}

/** Columns Weblate keeps unique among live objects (the partial unique indexes of migration 0002). */
const NATURAL_KEYS = {
  projects: ['slug'],
  components: ['project_slug', 'slug'],
  translations: ['project_slug', 'component_slug', 'language_code'],
} as const;

export type NaturallyKeyedTable = keyof typeof NATURAL_KEYS;

/**
 * Before a page of `table` is upserted, in its transaction: a live row with the natural key
 * of an incoming record but another id is an object Weblate deleted and then created
 * again under the same key (natural keys are unique among live objects upstream), so it is
 * marked deleted, with what it contains. Otherwise the new object would clash with it on the
 * live-key index and be rejected until a complete listing marked the old one. Rows of the
 * page itself are left alone (their keys may be trading places within it).
 */
export async function retireReplaced(
  trx: Kysely<Database>,
  table: NaturallyKeyedTable,
  rows: ReadonlyArray<{ id: number } & Record<string, unknown>>,
): Promise<number[]> {
  if (rows.length === 0) return [];
  const columns = NATURAL_KEYS[table];
  const incoming = rows.map((row) =>
    Object.fromEntries([['id', row.id], ...columns.map((c): [string, unknown] => [c, row[c]])]),
  );
  const sameKey = sql.join(
    columns.map((c) => sql`t.${sql.ref(c)} = i.${sql.ref(c)}`),
    sql` and `,
  );
  // An incoming row is never retired, whatever key it had; an anti-join, as a filter on an
  // array is tested row by row on a table not yet analyzed (docs/performance.md#what-makes-it-fast).
  const result = await sql<{ id: number }>`
    with i as (select * from jsonb_to_recordset(${JSON.stringify(incoming)}::jsonb)
      as i(id bigint, ${sql.join(columns.map((c) => sql`${sql.ref(c)} text`))}))
    update ${sql.table(`weblate.${table}`)} as t set deleted_at = now(), updated_at = now()
    from i
    where t.deleted_at is null and ${sameKey} and t.id <> i.id
      and not exists (select from i as same where same.id = t.id)
    returning t.id`.execute(trx);
  const replaced = result.rows.map((r) => Number(r.id));
  await carryDeletion(trx, table, replaced);
  return replaced;
}

/** Ids of the languages of these translations (to refresh their language statistics). */
export async function languagesOfTranslations(
  db: Kysely<Database>,
  translationIds: readonly number[],
): Promise<number[]> {
  if (translationIds.length === 0) return [];
  const result = await sql<{ id: number }>`
    select distinct l.id from weblate.translations t
    join weblate.languages l on l.id = t.language_id or (t.language_id is null and l.code = t.language_code)
    where t.id = any(${`{${translationIds.join(',')}}`}::bigint[])`.execute(db);
  return result.rows.map((r) => r.id);
}

/**
 * An object that is gone (a listed object that now answers 404, a configured project that
 * does): marks it deleted, with what it contains, in one transaction. Nothing when it was
 * deleted already.
 */
export async function markGone(
  db: Kysely<Database>,
  table: ContainerTable,
  id: number,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const result = await sql<{ id: number }>`
      update ${sql.table(`weblate.${table}`)} set deleted_at = now(), updated_at = now()
      where id = ${id} and deleted_at is null returning id`.execute(trx);
    await carryDeletion(
      trx,
      table,
      result.rows.map((r) => Number(r.id)),
    );
  });
}

/**
 * Carries the deletion of these just-deleted objects down the containment chain, in the
 * transaction that marked them: the components of projects, the translations of components,
 * the units of translations, each with its container's deleted_at. No state of the mirror
 * then shows a live child under a deleted object. The languages of the translations deleted
 * are noted as pending (their statistics changed).
 */
async function carryDeletion(
  trx: Kysely<Database>,
  table: ContainerTable,
  ids: readonly number[],
): Promise<void> {
  if (ids.length === 0) return;
  if (table === 'projects') {
    await deleteContained(trx, 'categories', 'project_id', 'projects', ids);
    await deleteContained(trx, 'labels', 'project_id', 'projects', ids);
  }
  const components =
    table === 'projects'
      ? await deleteContained(trx, 'components', 'project_id', 'projects', ids)
      : table === 'components'
        ? ids
        : [];
  const translations =
    table === 'translations'
      ? ids
      : await deleteContained(trx, 'translations', 'component_id', 'components', components);
  await deleteContained(trx, 'units', 'translation_id', 'translations', translations);
  const languages = await languagesOfTranslations(trx, translations);
  await applyTransitions(trx, translationsDeleted(languages));
}

/** Marks the live rows of `table` in the given containers deleted as they are; their ids. */
async function deleteContained(
  trx: Kysely<Database>,
  table: 'components' | 'categories' | 'labels' | 'translations' | 'units',
  column: string,
  container: ContainerTable,
  containerIds: readonly number[],
): Promise<number[]> {
  if (containerIds.length === 0) return [];
  const result = await sql<{ id: string }>`
    update ${sql.table(`weblate.${table}`)} as t set deleted_at = c.deleted_at, updated_at = now()
    from ${sql.table(`weblate.${container}`)} as c
    where t.${sql.ref(column)} = c.id and c.id = any(${`{${containerIds.join(',')}}`}::bigint[])
      and c.deleted_at is not null and t.deleted_at is null
    returning t.id`.execute(trx);
  return table === 'components' || table === 'translations'
    ? result.rows.map((r) => Number(r.id))
    : [];
}

/** Units a walk covers: everything, one project's, or one translation's. */
export type UnitScope = { projectSlug: string } | { translationId: number } | null;

function unitScopeCondition(scope: UnitScope) {
  if (scope === null) return sql`true`;
  if ('translationId' in scope) return sql`u.translation_id = ${scope.translationId}`;
  return sql`u.translation_id in (select id from weblate.translations where project_slug = ${scope.projectSlug})`;
}

/**
 * A page of an id-ordered walk covers every unit with an id in (after, through] (through
 * null: to the end). A live mirrored unit in that range and scope that the page does not
 * contain no longer exists upstream.
 */
export async function markUnitsMissingInRange(
  db: Kysely<Database>,
  scope: UnitScope,
  range: { after: string | null; through: string | null },
  seenIds: readonly string[],
): Promise<number> {
  const result = await sql`
    update weblate.units u set deleted_at = now(), updated_at = now()
    where u.deleted_at is null and ${unitScopeCondition(scope)}
      and (${range.after}::bigint is null or u.id > ${range.after}::bigint)
      and (${range.through}::bigint is null or u.id <= ${range.through}::bigint)
      and not (u.id = any(${`{${seenIds.join(',')}}`}::bigint[]))`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}

/** Marks the given units deleted (asked for by id, and the server no longer has them). */
export async function markUnitsDeleted(
  db: Kysely<Database>,
  ids: readonly string[],
): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await sql`
    update weblate.units set deleted_at = now(), updated_at = now()
    where deleted_at is null and id = any(${`{${ids.join(',')}}`}::bigint[])`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}
