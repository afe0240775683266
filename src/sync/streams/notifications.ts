import type { RawJson } from '../../db/database.ts';
import { type SubscriptionRow, upsertSubscriptions } from '../../db/queries/records.ts';
import { HttpError } from '../../errors.ts';
import { type WeblateSubscription, weblateSubscription } from '../../weblate/schemas.ts';
import { upsertIsolating } from '../commit.ts';
import type { SyncContext } from '../context.ts';
import { Listing, markUnlisted } from '../listing.ts';
import { runStream } from '../run-stream.ts';
import { listSource, PAGE_SIZE } from '../sources.ts';

type Ref = WeblateSubscription['project'];

function slugOf(ref: Ref): string | null {
  if (ref === null || ref === undefined) return null;
  return typeof ref === 'string' ? ref : ref.slug;
}

function idOf(ref: Ref): number | null {
  return ref !== null && typeof ref === 'object' ? (ref.id ?? null) : null;
}

/** Transforms one notification subscription of `username` into its row (pure). */
export function toSubscriptionRow(
  record: WeblateSubscription,
  raw: RawJson,
  username: string,
): SubscriptionRow {
  return {
    id: record.id,
    username,
    notification: record.notification,
    scope: record.scope,
    frequency: record.frequency,
    project: slugOf(record.project),
    component: slugOf(record.component),
    project_id: idOf(record.project),
    component_id: idOf(record.component),
    deleted_at: null,
    raw,
  };
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
    complete = await runStream(ctx, listSource(url, PAGE_SIZE.standard), {
      resource: 'notification_subscriptions',
      schema: weblateSubscription,
      listing,
      prepare: ({ items }) => items.map((i) => toSubscriptionRow(i.record, i.raw, username)),
      write: (trx, rows, { page }) =>
        upsertIsolating(trx, rows, upsertSubscriptions, () => ({
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
