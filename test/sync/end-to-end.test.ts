import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { DbHandle } from '../../src/db/client.ts';
import { type Database, MIRRORED_TABLES } from '../../src/db/database.ts';
import { countRows } from '../../src/db/queries/status.ts';
import {
  renderTranslation,
  type RunningSimulator,
  siteLinks,
  startSimulator,
} from '../../src/simulator/index.ts';
import type { SyncResult } from '../../src/sync/run-sync.ts';
import { createTestClient } from '../helpers/client.ts';
import { firstMismatch } from '../helpers/compare.ts';
import { createTestDatabase, handleOf, type TestDatabase } from '../helpers/database.ts';
import { captureLogger } from '../helpers/logs.ts';
import { tableDigestQuery } from '../helpers/mirror-compare.ts';
import { rawMismatchesByTable } from '../helpers/raw-compare.ts';
import {
  expectServedRequests,
  requestsAsked,
  requestsByResource,
  syncAsWriter,
} from '../helpers/sync.ts';
import { subscribedUsers } from '../helpers/sync.ts';
import { toUtcMicros, UTC_MICROS_FORMAT } from '../helpers/timestamps.ts';

let sim: RunningSimulator;
let database: TestDatabase;
let db: Kysely<Database>;
let handle: DbHandle;
let first: SyncResult;
let usernames: string[];

async function syncAll(): Promise<SyncResult> {
  const { log } = captureLogger('info');
  return syncAsWriter(handleOf(db), {
    log,
    scope: { projects: null, users: usernames },
    client: () => createTestClient(sim.url, { token: 'wlu_e2e', concurrency: 4, log }),
  });
}

beforeAll(async () => {
  sim = await startSimulator({
    seed: 11,
    projects: 2,
    components: 5,
    languages: 6,
    // Strings enough for every hard case the units test checks the data has (hashes beyond
    // 2^53 either way, every state, plurals, both timestamp forms).
    units: 1500,
    changes: 750,
    users: 3,
  });
  usernames = subscribedUsers(sim);
  database = await createTestDatabase();
  handle = await database.migrated();
  db = handle.db;
  first = await syncAll();
});

afterAll(async () => {
  await sim.close();
  await database.drop();
});

describe('a full sync of the simulated instance', () => {
  it('succeeds and mirrors every record of every resource', async () => {
    expect(first.error).toBeNull();
    expect(first.status).toBe('succeeded');
    expect(first.summary.warnings).toEqual([]);
    const { instance } = sim;
    const subscriptions = instance.users.reduce((n, u) => n + u.subscriptions.length, 0);
    const languagesWithTranslations = new Set(instance.translations.map((t) => t.languageId)).size;
    expect(await countRows(db)).toMatchObject({
      languages: instance.languages.length,
      projects: instance.projects.length,
      components: instance.components.length,
      translations: instance.translations.length,
      units: instance.units.length,
      changes: instance.changes.length,
      translation_statistics: instance.translations.length,
      language_statistics: languagesWithTranslations,
      notification_subscriptions: subscriptions,
      sync_runs: 1,
    });
  });

  it('keeps each record in raw exactly as the server sent it', async () => {
    const mismatches = await rawMismatchesByTable(db, sim, siteLinks(sim.url));
    expect(mismatches).toEqual(Object.fromEntries(Object.keys(mismatches).map((k) => [k, []])));
  });

  it('types units exactly: 64-bit hashes, plural texts, states and microsecond timestamps', async () => {
    const rows = await sql<Record<string, unknown>>`
      select id::text as id, translation_id, id_hash::text as id_hash, content_hash::text as content_hash, source, target,
        state, fuzzy, translated, approved, position, context, num_words, source_unit_id::text as source_unit_id,
        to_char(timestamp at time zone 'UTC', ${sql.raw(UTC_MICROS_FORMAT)}) as timestamp,
        to_char(last_updated at time zone 'UTC', ${sql.raw(UTC_MICROS_FORMAT)}) as last_updated
      from weblate.units u order by u.id`.execute(db);
    const expected = sim.instance.units.map((u) => ({
      id: String(u.id),
      translation_id: u.translationId,
      id_hash: u.idHash.toString(),
      content_hash: u.contentHash.toString(),
      source: u.source,
      target: u.target,
      state: u.state,
      fuzzy: u.state >= 10 && u.state < 20,
      translated: u.state >= 20,
      approved: u.state === 30,
      position: u.position,
      context: u.context,
      num_words: u.numWords,
      source_unit_id: String(u.sourceUnitId),
      timestamp: toUtcMicros(u.timestamp),
      last_updated: toUtcMicros(u.lastUpdated),
    }));
    expect(firstMismatch(rows.rows, expected)).toBeNull();
    // The data really exercises the hard cases.
    const limit = 2n ** 53n;
    expect(
      sim.instance.units.some((u) => u.idHash > limit) &&
        sim.instance.units.some((u) => u.idHash < -limit),
    ).toBe(true);
    expect(new Set(sim.instance.units.map((u) => u.state))).toEqual(
      new Set([0, 10, 11, 12, 20, 30, 100]),
    );
    expect(sim.instance.units.some((u) => u.source.length > 1 && u.target.length > 2)).toBe(true);
    expect(
      sim.instance.units.some((u) => /[+-]\d{2}:\d{2}$/.test(u.timestamp)) &&
        sim.instance.units.some((u) => u.timestamp.endsWith('Z')),
    ).toBe(true);
  });

  it('types translations, changes, subscriptions and statistics from the same records', async () => {
    const { instance } = sim;
    const translations = await sql<Record<string, unknown>>`
      select id, project_slug, component_slug, language_code, is_source, total, translated, translated_percent::text as pct,
        revision, to_char(last_change at time zone 'UTC', ${sql.raw(UTC_MICROS_FORMAT)}) as last_change, last_author
      from weblate.translations order by id`.execute(db);
    expect(
      firstMismatch(
        translations.rows,
        instance.translations.map((t) => {
          const r = renderTranslation(instance, siteLinks(sim.url), t);
          const component = r.component as Record<string, unknown>;
          return {
            id: t.id,
            project_slug: (component.project as Record<string, unknown>).slug,
            component_slug: component.slug,
            language_code: r.language_code,
            is_source: t.isSource,
            total: r.total,
            translated: r.translated,
            pct: String(r.translated_percent).includes('.')
              ? String(r.translated_percent)
              : `${String(r.translated_percent)}`,
            revision: t.revision,
            last_change: r.last_change === null ? null : toUtcMicros(r.last_change as string),
            last_author: r.last_author,
          };
        }),
      ),
    ).toBeNull();
    const changes = await sql<Record<string, unknown>>`
      select id::text as id, action, action_name, unit_id::text as unit_id, translation_id, project_slug, component_slug,
        language_code, user_name, author_name, target, to_char(timestamp at time zone 'UTC', ${sql.raw(UTC_MICROS_FORMAT)}) as ts
      from weblate.changes c order by c.id`.execute(db);
    expect(
      firstMismatch(
        changes.rows,
        instance.changes.map((c) => {
          const translation =
            c.translationId === null
              ? undefined
              : instance.index.translationById.get(c.translationId);
          const component =
            c.componentId === null ? undefined : instance.index.componentById.get(c.componentId);
          return {
            id: String(c.id),
            action: c.action,
            action_name: c.actionName,
            unit_id: c.unitId === null ? null : String(c.unitId),
            translation_id: c.translationId,
            // The global change list names no project: a change without a translation or
            // component (a user added to a project, …) has none.
            project_slug:
              c.componentId === null && c.translationId === null
                ? null
                : instance.index.projectById.get(c.projectId)?.slug,
            component_slug: component?.slug ?? null,
            language_code: translation
              ? (instance.index.languageById.get(translation.languageId)?.code ?? null)
              : null,
            user_name: c.user,
            author_name: c.author,
            target: c.target,
            ts: toUtcMicros(c.timestamp),
          };
        }),
      ),
    ).toBeNull();
    const actions = await sql<{
      action: number;
    }>`select action from weblate.change_actions where last_seen_at is not null order by action`.execute(
      db,
    );
    expect(actions.rows.map((r) => r.action)).toEqual(
      [...new Set(instance.changes.map((c) => c.action))].sort((a, b) => a - b),
    );
    const subscriptions = await sql<Record<string, unknown>>`
      select id, username, notification, scope, frequency, project, component from weblate.notification_subscriptions order by id`.execute(
      db,
    );
    expect(
      firstMismatch(
        subscriptions.rows,
        instance.users
          .flatMap((u) => u.subscriptions.map((s) => ({ s, username: u.username })))
          .sort((a, b) => a.s.id - b.s.id)
          .map(({ s, username }) => ({
            id: s.id,
            username,
            notification: s.notification,
            scope: s.scope,
            frequency: s.frequency,
            // A component-scope subscription names its component's project too.
            project:
              instance.index.projectById.get(
                s.projectId ??
                  (s.componentId === null
                    ? 0
                    : (instance.index.componentById.get(s.componentId)?.projectId ?? 0)),
              )?.slug ?? null,
            component:
              s.componentId === null
                ? null
                : (instance.index.componentById.get(s.componentId)?.slug ?? null),
          })),
      ),
    ).toBeNull();
  });

  it('keeps statistics in typed columns equal to the record that was sent', async () => {
    const columns = [
      'total',
      'total_words',
      'total_chars',
      'translated',
      'translated_words',
      'translated_chars',
      'fuzzy',
      'approved',
      'readonly',
      'failing',
      'suggestions',
      'comments',
      'recent_changes',
    ];
    const percents = [
      'translated_percent',
      'translated_words_percent',
      'translated_chars_percent',
      'fuzzy_percent',
      'approved_percent',
      'readonly_percent',
      'failing_percent',
    ];
    for (const table of ['translation_statistics', 'language_statistics']) {
      const result = await sql<{ n: number }>`
        select count(*)::int as n from ${sql.table(`weblate.${table}`)} s
        where ${sql.join(
          [...columns, ...percents].map(
            (c) => sql`s.${sql.ref(c)} is distinct from (s.raw->>${c})::numeric`,
          ),
          sql` or `,
        )}
           or s.last_change is distinct from (s.raw->>'last_change')::timestamptz`.execute(db);
      expect(result.rows[0]?.n, table).toBe(0);
    }
  });

  it('holds the API rules: units belong to their translation and a translation has `total` units', async () => {
    const result = await sql<{ id: number; total: number; units: number; foreign: number }>`
      select t.id, t.total, count(u.id)::int as units,
        count(*) filter (where u.raw->>'translation' not like split_part(t.url, '?', 1) || '%')::int as foreign
      from weblate.translations t left join weblate.units u on u.translation_id = t.id
      group by t.id, t.total having count(u.id) <> t.total
        or count(*) filter (where u.raw->>'translation' not like split_part(t.url, '?', 1) || '%') > 0`.execute(
      db,
    );
    expect(result.rows).toEqual([]);
  });

  it('records the run with its requests and rows', async () => {
    const run = await sql<
      Record<string, unknown>
    >`select status, kind, requests, rows_written::int as rows, error, finished_at is not null as finished from weblate.sync_runs`.execute(
      db,
    );
    expect(run.rows).toEqual([
      {
        status: 'succeeded',
        kind: 'full',
        requests: first.summary.requests,
        rows: first.summary.rowsWritten,
        error: null,
        finished: true,
      },
    ]);
    expectServedRequests(first, sim.requests.total);
  });

  it('changes nothing when run again, reading only the discovery lists and one page of the global change list', async () => {
    const fingerprint = async (): Promise<Record<string, string | undefined>> =>
      Object.fromEntries(
        await Promise.all(
          [...MIRRORED_TABLES, 'change_actions'].map(async (table) => {
            const r = await sql.raw<{ digest: string }>(tableDigestQuery(table)).execute(db);
            return [table, r.rows[0]?.digest] as const;
          }),
        ),
      );
    const before = await fingerprint();
    sim.requests.reset();
    const second = await syncAll();
    expect(second.status).toBe('succeeded');
    expect(second.mode).toBe('incremental');
    expect(second.summary.rowsWritten).toBe(0);
    expect(await fingerprint()).toEqual(before);
    expect(await countRows(db)).toMatchObject({ sync_runs: 2 });
    expect(requestsByResource(second)).toEqual({
      languages: 1,
      projects: 1,
      components: 1,
      // Every project is in scope: one page of the global category list, each project's labels.
      categories: 1,
      labels: sim.instance.projects.length,
      translations: 1,
      // Every project is in scope: one page of the global change list.
      changes: 1,
      units: 0,
      translation_statistics: 0,
      language_statistics: 0,
      notification_subscriptions: usernames.length,
      users: 0,
    });
    expect(requestsAsked(second)).toBe(6 + sim.instance.projects.length + usernames.length);
    expectServedRequests(second, sim.requests.total);
  });
});
