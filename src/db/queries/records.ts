import { type Kysely, sql } from 'kysely';

import type { CopyInto } from '../copy.ts';
import type {
  Database,
  NewCategory,
  NewChange,
  NewComponent,
  NewLabel,
  NewLanguage,
  NewNotificationSubscription,
  NewProject,
  NewTranslation,
  NewUnit,
  NewUser,
} from '../database.ts';
import {
  type CompleteRow,
  type RawShape,
  upsertJsonRows,
  upsertJsonRowsReturning,
  upsertRowsByCopy,
} from './upsert.ts';

/** Rows of the mirrored API records, complete (every column set) as transforms produce them. */
export type LanguageRow = CompleteRow<NewLanguage>;
export type ProjectRow = CompleteRow<NewProject>;
export type ComponentRow = CompleteRow<NewComponent>;
export type CategoryRow = CompleteRow<NewCategory>;
export type LabelRow = CompleteRow<NewLabel>;
export type TranslationRow = CompleteRow<NewTranslation>;
export type UnitRow = CompleteRow<NewUnit>;
export type ChangeRow = CompleteRow<NewChange>;
export type SubscriptionRow = CompleteRow<NewNotificationSubscription>;
export type UserRow = CompleteRow<NewUser>;

/** Upserts languages by code; returns the number of rows inserted or changed. */
export function upsertLanguages(db: Kysely<Database>, rows: LanguageRow[]): Promise<number> {
  return upsertJsonRows(db, 'weblate.languages', ['code'], rows);
}

/** Upserts projects by id. */
export function upsertProjects(db: Kysely<Database>, rows: ProjectRow[]): Promise<number> {
  return upsertJsonRows(db, 'weblate.projects', ['id'], rows);
}

/** Upserts components by id (see RawShape for `shape`). */
export function upsertComponents(
  db: Kysely<Database>,
  rows: ComponentRow[],
  shape: RawShape = null,
): Promise<number> {
  return upsertJsonRows(db, 'weblate.components', ['id'], rows, shape);
}

/** Upserts categories by id. */
export function upsertCategories(db: Kysely<Database>, rows: CategoryRow[]): Promise<number> {
  return upsertJsonRows(db, 'weblate.categories', ['id'], rows);
}

/** Upserts labels by id. */
export function upsertLabels(db: Kysely<Database>, rows: LabelRow[]): Promise<number> {
  return upsertJsonRows(db, 'weblate.labels', ['id'], rows);
}

/** Upserts translations by id; returns the ids of those inserted or changed in any value. */
export async function upsertTranslations(
  db: Kysely<Database>,
  rows: TranslationRow[],
  shape: RawShape = null,
  copy: CopyInto | null = null,
): Promise<number[]> {
  // By COPY where the transaction has it: a translation of the global list carries its
  // whole component in `raw`, and as one JSON parameter a page took the server as long to
  // parse as to store.
  const staging = copy === null ? null : { copy, kinds: TRANSLATION_KINDS };
  const keys = await upsertJsonRowsReturning(
    db,
    'weblate.translations',
    ['id'],
    rows,
    shape,
    staging,
  );
  return keys.map(Number);
}

const TRANSLATION_KINDS = { raw: 'json' } as const;

const UNIT_KINDS = { source: 'text[]', target: 'text[]', labels: 'json', raw: 'json' } as const;
const CHANGE_KINDS = { details: 'json', raw: 'json' } as const;

/** Upserts units by id (by COPY where the transaction has it: they are the bulk of a sync). */
export function upsertUnits(
  db: Kysely<Database>,
  rows: UnitRow[],
  copy: CopyInto | null = null,
): Promise<number> {
  return upsertRowsByCopy(db, copy, 'weblate.units', ['id'], rows, UNIT_KINDS);
}

/** Upserts changes by id (by COPY where the transaction has it); a change that disappears upstream is never removed here. */
export function upsertChanges(
  db: Kysely<Database>,
  rows: ChangeRow[],
  copy: CopyInto | null = null,
): Promise<number> {
  // A change read again from the global list (which names no project) keeps the project a
  // project's list attributed it to.
  return upsertRowsByCopy(db, copy, 'weblate.changes', ['id'], rows, CHANGE_KINDS, [
    'project_slug',
  ]);
}

/** Which of these change ids the mirror does not hold yet. */
export async function changesNotMirrored(
  db: Kysely<Database>,
  ids: readonly string[],
): Promise<Set<string>> {
  const missing = new Set(ids);
  if (ids.length === 0) return missing;
  const held = await db.selectFrom('weblate.changes').select('id').where('id', 'in', ids).execute();
  for (const row of held) missing.delete(String(row.id));
  return missing;
}

/** Upserts notification subscriptions by id. */
export function upsertSubscriptions(
  db: Kysely<Database>,
  rows: SubscriptionRow[],
): Promise<number> {
  return upsertJsonRows(db, 'weblate.notification_subscriptions', ['id'], rows);
}

/** Upserts users by username. */
export function upsertUsers(db: Kysely<Database>, rows: UserRow[]): Promise<number> {
  return upsertJsonRows(db, 'weblate.users', ['username'], rows);
}

/**
 * Usernames the changes named that no sync has read yet, at most `limit`: those the trigger
 * noted since the last call join weblate.users first.
 */
export async function unreadUsers(db: Kysely<Database>, limit: number): Promise<string[]> {
  await sql`
    with noted as (delete from weblate.users_due returning username)
    insert into weblate.users (username) select distinct username from noted
    on conflict do nothing`.execute(db);
  const rows = await db
    .selectFrom('weblate.users')
    .select('username')
    .where('answered', 'is', null)
    .orderBy('username')
    .limit(limit)
    .execute();
  return rows.map((r) => r.username);
}
