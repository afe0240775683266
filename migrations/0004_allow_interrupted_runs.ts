import { type Kysely, sql } from 'kysely';

// A run stopped by SIGINT or SIGTERM ends `interrupted` instead of `failed`: it finished the
// statements in flight, and the next run resumes from its cursors. Runs recorded that way
// before (status `failed`, error `interrupted by SIG…`) are relabelled. `kind` has no
// constraint; the worker adds the kind `statistics`. Frozen once merged; add a new migration.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table weblate.sync_runs drop constraint sync_runs_status_check`.execute(db);
  await sql`alter table weblate.sync_runs add constraint sync_runs_status_check
    check (status in ('running', 'succeeded', 'failed', 'interrupted'))`.execute(db);
  await sql`update weblate.sync_runs set status = 'interrupted'
    where status = 'failed' and error like 'interrupted by SIG%'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update weblate.sync_runs set status = 'failed' where status = 'interrupted'`.execute(
    db,
  );
  await sql`alter table weblate.sync_runs drop constraint sync_runs_status_check`.execute(db);
  await sql`alter table weblate.sync_runs add constraint sync_runs_status_check
    check (status in ('running', 'succeeded', 'failed'))`.execute(db);
}
