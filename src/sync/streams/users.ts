import type { RawJson } from '../../db/database.ts';
import { unreadUsers, upsertUsers, type UserRow } from '../../db/queries/records.ts';
import type { Rejection } from '../../db/queries/rejections.ts';
import { toError } from '../../errors.ts';
import { forEachConcurrently } from '../../lib/task-group.ts';
import { describeIssues, weblateUser } from '../../weblate/schemas.ts';
import { commitPage } from '../commit.ts';
import type { SyncContext } from '../context.ts';
import { isNotFound } from '../not-found.ts';

// The people the change history names, read once each: Weblate's changes name users by
// username only, and any signed-in token may read /api/users/<username>/ (id, full name,
// username). New usernames come from the changes as they are written (migration 0013), so
// a run reads only the people new to the mirror.

/** Users read in one run at most; the rest wait for the next runs. */
export const USERS_PER_RUN = 1000;

/** An unread user's row once the server answered `status` (404: not shown to the token). */
function unanswered(username: string, status: number): UserRow {
  return { username, id: null, full_name: null, answered: status, raw: 'null' as RawJson };
}

/**
 * Reads the users the changes named since the last run. A user the server does not show
 * (404) is recorded as such and not asked again; any other failure leaves the rest for the
 * next run with one warning, since names are no reason to fail a sync.
 */
export async function syncUsers(ctx: SyncContext, controller: AbortController): Promise<void> {
  const usernames = await unreadUsers(ctx.db, USERS_PER_RUN);
  if (usernames.length === 0) return;
  ctx.tally.begin('users');
  ctx.tally.expectPages(usernames.length);
  const rows: UserRow[] = [];
  const rejected: Rejection[] = [];
  let failure: Error | null = null;
  await forEachConcurrently(usernames, controller, async (username) => {
    if (failure !== null) return;
    const path = `users/${encodeURIComponent(username)}/`;
    try {
      const response = await ctx.client.getJson(path, 'users', ctx.signal);
      ctx.tally.pageRead('users', 1);
      const parsed = weblateUser.safeParse(response.value);
      if (!parsed.success || parsed.data.username !== username) {
        const reason = parsed.success
          ? `the server answered for ${JSON.stringify(parsed.data.username)}`
          : describeIssues(parsed.error);
        rejected.push({ resource: 'users', url: response.url, reason, raw: response.text });
        rows.push(unanswered(username, 200));
        return;
      }
      const { id, full_name } = parsed.data;
      rows.push({
        username,
        id,
        full_name: full_name ?? null,
        answered: 200,
        raw: response.text as RawJson,
      });
    } catch (err) {
      if (isNotFound(err)) {
        ctx.tally.pageRead('users', 0);
        rows.push(unanswered(username, 404));
      } else if (ctx.signal.aborted) throw err;
      else failure ??= toError(err);
    }
  });
  if (failure !== null) {
    const { message } = failure as Error;
    ctx.warn('users not read', `user names not read, left for the next run: ${message}`);
  }
  await commitPage(ctx, 'users', rejected, async (trx) => ({
    written: await upsertUsers(trx, rows),
  }));
}
