import { type Kysely, sql, type Transaction } from 'kysely';

import type { CopyInto } from '../../db/copy.ts';
import type { Database, RawJson } from '../../db/database.ts';
import { recordChangeActions, type SeenAction } from '../../db/queries/change-actions.ts';
import { changesStored } from '../../db/queries/pending-lifecycle.ts';
import { type ChangeRow, changesNotMirrored, upsertChanges } from '../../db/queries/records.ts';
import {
  type ChangeCursor,
  readCursor,
  readCursors,
  transition,
} from '../../db/queries/sync-state.ts';
import { editDistance } from '../../lib/edit-distance.ts';
import { shiftSeconds, toEpochMicros, toUtcMicros } from '../../lib/timestamps.ts';
import { type WeblateChange, weblateChange } from '../../weblate/schemas.ts';
import {
  componentPathFromUrl,
  translationPathFromUrl,
  unitIdFromUrl,
  urlKey,
  usernameFromUrl,
} from '../../weblate/urls.ts';
import { upsertIsolating } from '../commit.ts';
import type { SyncContext, WindowedContext } from '../context.ts';
import { CoveredTimes } from '../covered.ts';
import type { Item } from '../read.ts';
import { PAGE_SIZE, timeWindowRead } from '../reads.ts';
import type { Lookup, ProjectRef } from '../refs.ts';
import { runStream } from '../run-stream.ts';

/** What a change row says about the objects of the change, from its URLs. */
export type ChangeAttribution = Pick<
  ChangeRow,
  'translation_id' | 'component_id' | 'project_slug' | 'component_slug' | 'language_code'
>;

/**
 * Attributes a change to its objects (pure). Changes carry no project field: a project's
 * list gives it (`project`); the global list (`project` null) attributes each change through
 * its translation or component, looked up by URL or read from the URL when the object is not
 * (or no longer) mirrored. A change with neither keeps a null project.
 */
export function attributeChange(
  urls: { translation: string | null; component: string | null },
  project: ProjectRef | null,
  lookup: Lookup,
): ChangeAttribution {
  const translation = urls.translation
    ? lookup.translationsByUrl.get(urlKey(urls.translation))
    : undefined;
  const component = urls.component ? lookup.componentsByUrl.get(urlKey(urls.component)) : undefined;
  const path = translation ? null : translationPathFromUrl(urls.translation);
  const componentPath = componentPathFromUrl(urls.component);
  return {
    translation_id: translation?.id ?? null,
    component_id: translation?.component.id ?? component?.id ?? null,
    project_slug:
      project?.slug ??
      translation?.component.projectSlug ??
      component?.projectSlug ??
      path?.project ??
      componentPath?.project ??
      null,
    component_slug:
      translation?.component.slug ??
      component?.slug ??
      path?.component ??
      componentPath?.component ??
      null,
    language_code: translation?.languageCode ?? path?.language ?? null,
  };
}

/** Transforms one change into its row (pure); see attributeChange. */
export function toChangeRow(
  record: WeblateChange,
  raw: RawJson,
  project: ProjectRef | null,
  lookup: Lookup,
): ChangeRow {
  const urls = { translation: record.translation ?? null, component: record.component ?? null };
  return {
    id: record.id,
    action: record.action,
    action_name: record.action_name ?? null,
    unit_id: unitIdFromUrl(record.unit),
    ...attributeChange(urls, project, lookup),
    user_name: usernameFromUrl(record.user),
    author_name: usernameFromUrl(record.author),
    target: record.target ?? null,
    old: record.old ?? null,
    details: record.details ?? null,
    timestamp: record.timestamp,
    url: record.url ?? null,
    unit_url: record.unit ?? null,
    translation_url: record.translation ?? null,
    component_url: record.component ?? null,
    raw,
    edit_distance:
      record.old == null || record.target == null ? null : editDistance(record.old, record.target),
  };
}

export type { ChangeCursor } from '../../db/queries/sync-state.ts';

/**
 * A change list and where its cursor lives: the global /api/changes/ (scope '') when every
 * project is in scope, else each project's own list (scope: its slug).
 */
export interface ChangeFeed {
  scope: string;
  url: string;
  project: ProjectRef | null;
}

export const GLOBAL_CHANGES: ChangeFeed = { scope: '', url: 'changes/', project: null };

export function projectChanges(project: ProjectRef): ChangeFeed {
  return { scope: project.slug, url: project.changesUrl, project };
}

/**
 * Mirrors a feed's changes in [mark − lookback, the run's server time], resuming page by page
 * (docs/architecture.md#a-sync-stage-by-stage; why the look-back: docs/schema.md#sync_cursors).
 */
export async function syncChanges(ctx: WindowedContext, feed: ChangeFeed): Promise<void> {
  const cursor = (await readCursor(ctx.db, 'changes', feed.scope)) ?? {
    mark: await firstMark(ctx, feed),
    window: null,
  };
  // A window left unfinished by an earlier run resumes, unless it was incremental and this
  // run must read everything (`sync --full`).
  const resumable =
    cursor.window !== null && (cursor.window.after === null || !ctx.reading.fromScratch);
  const window = resumable && cursor.window !== null ? cursor.window : openWindow(ctx, cursor.mark);
  const source = timeWindowRead(feed.url, {
    after: window.after,
    before: window.before,
    pageSize: PAGE_SIZE.standard,
    // The whole history: read in time windows, so that no request counts all of it; the
    // global one starts with the newest hour of activity rather than counting the instance's
    // history once.
    timeWindows: window.after === null,
    firstWindow:
      feed.project === null && window.after === null
        ? { seconds: 3600, newestHint: await newestActivity(ctx) }
        : null,
    // A window planned beside others cannot start where the one above it ended, so about a
    // third more of them overflow into an extra request. A full sync walks the units beside
    // the changes, which keeps the requests busy anyway: there the windows go one at a time.
    concurrency: ctx.reading.changeWindowsSideBySide ? ctx.client.concurrency : 1,
  });
  // Time windows read side by side commit in the order they arrive: the cursor claims only
  // the gapless stretch below the window's end.
  const covered = new CoveredTimes(window.before);
  const { project } = feed;
  await runStream(ctx, source, {
    resource: 'changes',
    schema: weblateChange,
    prepare: ({ items }) => items,
    write: (trx, items, { page, copy }) => {
      const reach = covered.with(page.at.covers.from, page.at.covers.upTo);
      const next: ChangeCursor = reach.complete
        ? { mark: window.end, window: null }
        : { mark: cursor.mark, window: { ...window, before: reach.through } };
      return storeChanges(ctx, trx, { feed, items, url: page.url, cursor: next, copy });
    },
    committed: (_, page) => covered.add(page.at.covers.from, page.at.covers.upTo),
    ...(project === null
      ? {}
      : {
          notFound: {
            gone: { table: 'projects', id: project.id, label: `project ${project.slug}` },
          },
        }),
  });
}

/**
 * Where a feed without a cursor starts in an incremental sync. The global feed of a mirror
 * that read each project's list so far (its scope was limited before) starts at the
 * earliest of their marks, when every live project has one; otherwise, and for a project
 * new to the mirror, the whole history is read.
 */
async function firstMark(ctx: WindowedContext, feed: ChangeFeed): Promise<string | null> {
  if (feed.project !== null || ctx.reading.fromScratch) return null;
  const marks = await readCursors(ctx.db, 'changes');
  const live = await ctx.db
    .selectFrom('weblate.projects')
    .select('slug')
    .where('deleted_at', 'is', null)
    .execute();
  let earliest: string | null = null;
  for (const { slug } of live) {
    const mark = marks.get(slug)?.mark ?? null;
    if (mark === null) return null;
    if (earliest === null || toEpochMicros(mark) < toEpochMicros(earliest)) earliest = mark;
  }
  return earliest;
}

/** The newest `last_change` of the mirrored translations in scope (canonical UTC), or null. */
async function newestActivity(ctx: SyncContext): Promise<string | null> {
  const result = await sql<{ newest: string | null }>`
    select to_char(max(last_change) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as newest
    from weblate.translations where deleted_at is null`.execute(ctx.db);
  return result.rows[0]?.newest ?? null;
}

function openWindow(
  ctx: WindowedContext,
  mark: string | null,
): NonNullable<ChangeCursor['window']> {
  const after =
    ctx.reading.fromScratch || mark === null ? null : shiftSeconds(mark, -ctx.lookbackSeconds);
  return { after, end: ctx.windowEnd, before: ctx.windowEnd };
}

interface ChangePage {
  feed: ChangeFeed;
  items: Array<Item<WeblateChange>>;
  url: string;
  cursor: ChangeCursor;
  copy: CopyInto | null;
}

async function storeChanges(ctx: WindowedContext, trx: Transaction<Database>, page: ChangePage) {
  const rows = page.items.map((i) => toChangeRow(i.record, i.raw, page.feed.project, ctx.lookup));
  ctx.unitIdHints?.add(rows.map((r) => r.unit_id));
  // Only a change new to the mirror names a unit to read and an object to discover: one read
  // again within the lookback was acted on when it was first stored.
  const ids = rows.map((r) => String(r.id));
  const fresh = ctx.reading.followNewChanges
    ? await changesNotMirrored(trx, ids)
    : new Set<string>();
  const upsert = (db: Kysely<Database>, batch: ChangeRow[]) => upsertChanges(db, batch, page.copy);
  const result = await upsertIsolating(trx, rows, upsert, () => ({
    resource: 'changes',
    url: page.url,
  }));
  await recordChangeActions(trx, actionsSeen(page.items.map((i) => i.record)));
  const stored = rows.map((r, i) => ({ id: ids[i]!, unitId: r.unit_id }));
  const transitions = [
    ...changesStored(stored, fresh),
    transition.cursor('changes', page.feed.scope, page.cursor),
  ];
  return { ...result, transitions };
}

function actionsSeen(changes: WeblateChange[]): SeenAction[] {
  const byAction = new Map<number, SeenAction>();
  for (const change of changes) {
    const at = toUtcMicros(change.timestamp);
    const seen = byAction.get(change.action);
    if (!seen) {
      byAction.set(change.action, {
        action: change.action,
        apiName: change.action_name ?? null,
        firstSeenAt: at,
        lastSeenAt: at,
      });
      continue;
    }
    if (at < seen.firstSeenAt) seen.firstSeenAt = at;
    if (at > seen.lastSeenAt) seen.lastSeenAt = at;
  }
  return [...byAction.values()];
}
