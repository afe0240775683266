import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';

import { captureLogger } from '../helpers/logs.ts';
import { SMALL_INSTANCE, useSimulatorMirror } from '../helpers/simulator-mirror.ts';
import { syncSimulator } from '../helpers/sync.ts';

const mirror = useSimulatorMirror({ ...SMALL_INSTANCE, users: 3 });

beforeAll(async () => {
  const first = await syncSimulator(mirror.sim, mirror.handle);
  expect([first.status, first.summary.warnings]).toEqual(['succeeded', []]);
});

/** The mirrored subscription rows of a user, as text, deleted ones included. */
async function rowsOf(username: string): Promise<string[]> {
  const result = await sql<{ row: string }>`
    select to_jsonb(s)::text as row from weblate.notification_subscriptions s
    where username = ${username} order by id`.execute(mirror.handle.db);
  return result.rows.map((r) => r.row);
}

async function liveIdsOf(username: string): Promise<number[]> {
  const result = await sql<{ id: string }>`
    select id from weblate.notification_subscriptions
    where username = ${username} and deleted_at is null order by id`.execute(mirror.handle.db);
  return result.rows.map((r) => Number(r.id));
}

describe("notification subscriptions the token may not read (Weblate 5.15+'s 403)", () => {
  it("keep each such user's mirrored rows untouched, warn once per user naming WEBLATE_USERS, and the run succeeds", async () => {
    const subscribed = mirror.sim.instance.users.filter((u) => u.subscriptions.length > 1);
    const [own, ...denied] = subscribed;
    expect(denied.length).toBeGreaterThanOrEqual(2);
    const deniedRows = await Promise.all(denied.map((u) => rowsOf(u.username)));
    expect(deniedRows.map((rows) => rows.length)).toEqual(
      denied.map((u) => u.subscriptions.length),
    );
    // Upstream, one subscription of each goes away: only a readable list can show it.
    const ownGone = own!.subscriptions.pop()!;
    const deniedGone = denied.map((u) => u.subscriptions.pop()!);
    mirror.sim.setCompat({ tokenUser: own!.username });
    const { log, lines } = captureLogger('info');
    let warnings: string[];
    try {
      const result = await syncSimulator(mirror.sim, mirror.handle, { log });
      expect([result.status, result.error]).toEqual(['succeeded', null]);
      warnings = result.summary.warnings;
    } finally {
      mirror.sim.setCompat({});
    }
    expect(warnings).toEqual(
      denied.map((u): unknown =>
        expect.stringMatching(
          new RegExp(
            `^WEBLATE_USERS names "${u.username}", but the server denies this token that user's notification subscriptions \\(403: since Weblate 5\\.15 only a token that may manage users reads them\\); the subscriptions mirrored before are kept as they were`,
          ),
        ),
      ),
    );
    const logged = lines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.msg === 'subscriptions not readable with this token: kept as mirrored');
    expect(logged.map((l) => [l.level, l.username, l.status])).toEqual(
      denied.map((u) => [40, u.username, 403]),
    );
    // The denied users' rows are exactly as they were; the readable user's list was applied.
    for (const [i, user] of denied.entries()) {
      expect(await rowsOf(user.username)).toEqual(deniedRows[i]);
      expect(await liveIdsOf(user.username)).toContain(deniedGone[i]!.id);
    }
    expect(await liveIdsOf(own!.username)).toEqual(
      own!.subscriptions.map((s) => s.id).sort((a, b) => a - b),
    );
    expect(await liveIdsOf(own!.username)).not.toContain(ownGone.id);
    const run = await sql<{ status: string; summary: { warnings: string[] } }>`
      select status, summary from weblate.sync_runs order by id desc limit 1`.execute(
      mirror.handle.db,
    );
    expect([run.rows[0]!.status, run.rows[0]!.summary.warnings]).toEqual(['succeeded', warnings]);
    // Readable again: the next sync marks what went away.
    const next = await syncSimulator(mirror.sim, mirror.handle);
    expect([next.status, next.summary.warnings]).toEqual(['succeeded', []]);
    for (const [i, user] of denied.entries())
      expect(await liveIdsOf(user.username)).not.toContain(deniedGone[i]!.id);
  });
});
