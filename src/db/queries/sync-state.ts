import { type Kysely, sql } from 'kysely';
import { z } from 'zod';

import { SyncError } from '../../errors.ts';
import type { Database } from '../database.ts';

/**
 * Everything a sync keeps between runs besides the mirrored rows: where each stream stands
 * (its cursors, weblate.sync_cursors) and the work it noticed but has not finished (its
 * pending steps, weblate.sync_pending). Both are written in the transaction of the rows they
 * describe, so a crash loses neither.
 */

// ---- Cursors ------------------------------------------------------------------------------

const timestamp = z.string().min(1);
const id = z.string().regex(/^\d+$/, 'a decimal id');

const unitCursor = z.object({
  /** Server time at the start of the last complete walk. */
  mark: timestamp.nullable(),
  /** Highest unit id mirrored. */
  maxId: id.nullable(),
  /** The walk in progress: its query parameters and the last id committed. */
  walk: z
    .object({
      full: z.boolean(),
      since: timestamp.nullable(),
      maxIdBefore: id.nullable(),
      after: id.nullable(),
      end: timestamp,
    })
    .nullable(),
});

const changeCursor = z.object({
  /** The end of the last window read completely. */
  mark: timestamp.nullable(),
  /** The window being read; its upper bound narrows page by page. */
  window: z.object({ after: timestamp.nullable(), end: timestamp, before: timestamp }).nullable(),
});

const discoveryCursor = z.object({
  /** When the run that last read the discovery lists completely started (its clock). */
  at: timestamp,
  /** The project scope it covered: WEBLATE_PROJECTS, or null for every project. */
  projects: z.array(z.string()).nullable(),
});

const CURSORS = {
  units: unitCursor,
  changes: changeCursor,
  discovery: discoveryCursor,
} as const;

/** Where the unit walk of one scope (every project: '', or one project's slug) stands. */
export type UnitCursor = z.infer<typeof unitCursor>;
/** Where a change list (every project's: '', or one project's slug) stands. */
export type ChangeCursor = z.infer<typeof changeCursor>;
/** The last complete discovery (scope ''). */
export type DiscoveryCursor = z.infer<typeof discoveryCursor>;
export type CursorStream = keyof typeof CURSORS;
type CursorOf<S extends CursorStream> = z.infer<(typeof CURSORS)[S]>;

/**
 * A stream's cursor for one scope, checked against its shape, or null when it has none yet.
 * A cursor of another shape (written by hand, or by another version) stops the sync with a
 * message rather than steering it wrong.
 */
export async function readCursor<S extends CursorStream>(
  db: Kysely<Database>,
  stream: S,
  scope: string,
): Promise<CursorOf<S> | null> {
  const row = await db
    .selectFrom('weblate.sync_cursors')
    .select('value')
    .where('stream', '=', stream)
    .where('scope', '=', scope)
    .executeTakeFirst();
  return row === undefined ? null : checkedCursor(stream, scope, row.value);
}

/** Every cursor of a stream, by scope, each checked as readCursor checks one. */
export async function readCursors<S extends CursorStream>(
  db: Kysely<Database>,
  stream: S,
): Promise<Map<string, CursorOf<S>>> {
  const rows = await db
    .selectFrom('weblate.sync_cursors')
    .select(['scope', 'value'])
    .where('stream', '=', stream)
    .execute();
  return new Map(rows.map((row) => [row.scope, checkedCursor(stream, row.scope, row.value)]));
}

function checkedCursor<S extends CursorStream>(
  stream: S,
  scope: string,
  value: unknown,
): CursorOf<S> {
  const parsed = CURSORS[stream].safeParse(value);
  if (parsed.success) return parsed.data as CursorOf<S>;
  const problem = parsed.error.issues
    .map((issue) => `${issue.path.join('.') || 'value'}: ${issue.message}`)
    .join('; ');
  throw new SyncError(
    `the ${stream} cursor of scope "${scope}" in weblate.sync_cursors is not one this version understands (${problem}): delete that row and run \`weblate-mirror sync --full\``,
  );
}

/** Writes a cursor; call it in the transaction of the rows it covers. */
async function writeCursor<S extends CursorStream>(
  db: Kysely<Database>,
  stream: S,
  scope: string,
  value: CursorOf<S>,
): Promise<void> {
  const json = JSON.stringify(CURSORS[stream].parse(value));
  await db
    .insertInto('weblate.sync_cursors')
    .values({ stream, scope, value: json })
    .onConflict((oc) =>
      oc
        .columns(['stream', 'scope'])
        // The database's clock, as on insert.
        .doUpdateSet({ value: json, updated_at: sql`now()` }),
    )
    .execute();
}

// ---- Pending steps ------------------------------------------------------------------------

/**
 * One kind of pending work, as stages read it: `list` when the stage that does it starts.
 * Noting and settling are transitions (below), applied in the transaction of what they
 * describe. Noting an id already pending changes nothing.
 */
export interface PendingStep {
  /** Every pending id, as decimal strings, in id order. */
  list(db: Kysely<Database>): Promise<string[]>;
  has(db: Kysely<Database>): Promise<boolean>;
}

interface PendingWrites {
  note(db: Kysely<Database>, ids: ReadonlyArray<string | number>): Promise<void>;
  settle(db: Kysely<Database>, ids: ReadonlyArray<string | number>): Promise<void>;
  settleAll(db: Kysely<Database>): Promise<void>;
}

/**
 * The named steps a sync may owe; who notes and who settles each is in docs/architecture.md
 * (Sync state).
 */
const steps = {
  movedTranslations: pendingStep('translation'),
  namedUnits: pendingStep('unit'),
  staleLanguages: pendingStep('language'),
  newChanges: pendingStep('change'),
  owedSnapshots: pendingStep('snapshot'),
  recheckTranslations: pendingStep('recheck'),
} as const;

export type PendingName = keyof typeof steps;

export const pending: Readonly<Record<PendingName, PendingStep>> = steps;

type PendingKind = 'translation' | 'unit' | 'language' | 'change' | 'snapshot' | 'recheck';

function pendingStep(kind: PendingKind): PendingStep & PendingWrites {
  const list = async (db: Kysely<Database>) => {
    const rows = await db
      .selectFrom('weblate.sync_pending')
      .select('id')
      .where('kind', '=', kind)
      .orderBy('id')
      .execute();
    return rows.map((r) => r.id);
  };
  return {
    async note(db, ids) {
      const unique = [...new Set(ids.map(String))];
      for (let i = 0; i < unique.length; i += 5000) {
        const chunk = unique.slice(i, i + 5000).map((value) => ({ kind, id: value }));
        await db
          .insertInto('weblate.sync_pending')
          .values(chunk)
          .onConflict((oc) => oc.doNothing())
          .execute();
      }
    },
    list,
    async has(db) {
      const row = await db
        .selectFrom('weblate.sync_pending')
        .select('id')
        .where('kind', '=', kind)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },
    async settle(db, ids) {
      for (let i = 0; i < ids.length; i += 5000) {
        const chunk = ids.slice(i, i + 5000).map(String);
        await db
          .deleteFrom('weblate.sync_pending')
          .where('kind', '=', kind)
          .where('id', 'in', chunk)
          .execute();
      }
    },
    async settleAll(db) {
      await db.deleteFrom('weblate.sync_pending').where('kind', '=', kind).execute();
    },
  };
}

// ---- Transitions --------------------------------------------------------------------------

type Ids = ReadonlyArray<string | number>;

/**
 * A change of sync state that a commit carries, as data: stages return them, and only
 * applyTransitions interprets them, in the transaction of the rows they describe.
 */
export type Transition =
  | { op: 'note' | 'settle'; step: PendingName; ids: Ids }
  | { op: 'settleAll'; step: PendingName }
  | { op: 'cursor'; stream: CursorStream; scope: string; value: unknown };

export const transition = {
  note: (step: PendingName, ids: Ids): Transition => ({ op: 'note', step, ids }),
  settle: (step: PendingName, ids: Ids): Transition => ({ op: 'settle', step, ids }),
  settleAll: (step: PendingName): Transition => ({ op: 'settleAll', step }),
  cursor: <S extends CursorStream>(stream: S, scope: string, value: CursorOf<S>): Transition => ({
    op: 'cursor',
    stream,
    scope,
    value,
  }),
};

/** Applies transitions in order; call it in the transaction of what they describe. */
export async function applyTransitions(
  db: Kysely<Database>,
  transitions: readonly Transition[],
): Promise<void> {
  for (const t of transitions) {
    switch (t.op) {
      case 'note':
        if (t.ids.length > 0) await steps[t.step].note(db, t.ids);
        break;
      case 'settle':
        if (t.ids.length > 0) await steps[t.step].settle(db, t.ids);
        break;
      case 'settleAll':
        await steps[t.step].settleAll(db);
        break;
      case 'cursor':
        await writeCursor(db, t.stream, t.scope, t.value as CursorOf<typeof t.stream>);
        break;
    }
  }
}
