import type { Kysely } from 'kysely';

import type { Database, RawJson } from '../../db/database.ts';
import { liveIdsBySlug } from '../../db/queries/live-objects.ts';
import { type SubscriptionRow, upsertSubscriptions } from '../../db/queries/records.ts';
import { HttpError } from '../../errors.ts';
import { type WeblateSubscription, weblateSubscription } from '../../weblate/schemas.ts';
import { componentPathFromUrl, projectSlugFromUrl } from '../../weblate/urls.ts';
import { upsertIsolating } from '../commit.ts';
import type { SyncContext } from '../context.ts';
import { Listing, markUnlisted } from '../listing.ts';
import { listRead, PAGE_SIZE } from '../reads.ts';
import { runStream } from '../run-stream.ts';

type Ref = WeblateSubscription['project'];

/** What a subscription's `project` or `component` names: slugs, and an id where it has one. */
interface Target {
  project: string | null;
  component: string | null;
  id: number | null;
}

const NONE: Target = { project: null, component: null, id: null };

/**
 * Weblate before 5.15 nests the project or component as an object (with its id); 5.15 and
 * later send its API URL. A string that is not a URL is taken as the slug itself.
 */
function targetOf(ref: Ref, kind: 'project' | 'component'): Target {
  if (ref === null || ref === undefined) return NONE;
  if (typeof ref !== 'string') {
    const project = kind === 'project' ? ref.slug : (ref.project?.slug ?? null);
    const component = kind === 'component' ? ref.slug : null;
    return { project, component, id: ref.id ?? null };
  }
  if (!URL.canParse(ref)) {
    return kind === 'project' ? { ...NONE, project: ref } : { ...NONE, component: ref };
  }
  if (kind === 'project') return { ...NONE, project: projectSlugFromUrl(ref) };
  const path = componentPathFromUrl(ref);
  return { ...NONE, project: path?.project ?? null, component: path?.component ?? null };
}

/**
 * Transforms one notification subscription of `username` into its row (pure). The project
 * is that of a project-scope subscription, or the component's for a component-scope one.
 * Ids come from the record where it nests the object; resolveTargetIds fills in the others.
 */
export function toSubscriptionRow(
  record: WeblateSubscription,
  raw: RawJson,
  username: string,
): SubscriptionRow {
  const project = targetOf(record.project, 'project');
  const component = targetOf(record.component, 'component');
  return {
    id: record.id,
    username,
    notification: record.notification,
    scope: record.scope,
    frequency: record.frequency,
    project: project.project ?? component.project,
    component: component.component,
    project_id: project.id,
    component_id: component.id,
    deleted_at: null,
    raw,
  };
}

/**
 * The ids of the projects and components that subscriptions name by link only (Weblate 5.15
 * and later), from the live objects the mirror holds; null where it holds none.
 */
async function resolveTargetIds(
  db: Kysely<Database>,
  rows: SubscriptionRow[],
): Promise<SubscriptionRow[]> {
  const projects = rows.flatMap((r) =>
    r.project_id === null && r.component === null && r.project !== null ? [r.project] : [],
  );
  const components = rows.flatMap((r) =>
    r.component_id === null && r.component !== null && r.project !== null
      ? [{ project: r.project, component: r.component }]
      : [],
  );
  if (projects.length === 0 && components.length === 0) return rows;
  const ids = await liveIdsBySlug(db, projects, components);
  return rows.map((r) => ({
    ...r,
    project_id:
      r.project_id ?? (r.component === null ? (ids.projects.get(r.project ?? '') ?? null) : null),
    component_id: r.component_id ?? ids.components.get(`${r.project}/${r.component}`) ?? null,
  }));
}

/**
 * Mirrors the notification subscriptions of one user; those no longer listed are marked
 * deleted. A user whose list the token may not read (403, Weblate 5.15 and later) is
 * warned about and skipped: the subscriptions mirrored before stay as they are.
 */
export async function syncSubscriptions(ctx: SyncContext, username: string): Promise<void> {
  const url = `users/${encodeURIComponent(username)}/notifications/`;
  const listing = new Listing();
  let complete: boolean;
  try {
    complete = await runStream(ctx, listRead(url, PAGE_SIZE.standard), {
      resource: 'notification_subscriptions',
      schema: weblateSubscription,
      listing,
      prepare: ({ items }) => items.map((i) => toSubscriptionRow(i.record, i.raw, username)),
      write: async (trx, rows, { page }) =>
        upsertIsolating(trx, await resolveTargetIds(trx, rows), upsertSubscriptions, () => ({
          resource: 'notification_subscriptions',
          url: page.url,
        })),
      notFound: {
        refuse: () =>
          Promise.resolve(
            `WEBLATE_USERS names "${username}", but the server shows no such user to this token ` +
              "(reading other users' subscriptions needs an admin token)",
          ),
      },
    });
  } catch (err) {
    if (!(err instanceof HttpError && err.status === 403)) throw err;
    warnDenied(ctx, username, err);
    return;
  }
  const scope = { column: 'username', value: username };
  if (complete) await markUnlisted(ctx, listing, 'notification_subscriptions', scope);
}

/**
 * Since Weblate 5.15, reading another user's subscriptions needs the permission to manage
 * users. Nothing is marked deleted: the list was not seen, so nothing is known to be gone.
 */
function warnDenied(ctx: SyncContext, username: string, err: HttpError): void {
  ctx.warn(
    'subscriptions not readable with this token: kept as mirrored',
    `WEBLATE_USERS names "${username}", but the server denies this token that user's notification ` +
      'subscriptions (403: since Weblate 5.15 only a token that may manage users reads them); ' +
      'the subscriptions mirrored before are kept as they were. Remove the user from WEBLATE_USERS ' +
      'or use such a token.',
    { username, url: err.url, status: err.status },
  );
}
