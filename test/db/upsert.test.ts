import { sql, type Transaction } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { DbHandle } from '../../src/db/client.ts';
import type { CopyInto } from '../../src/db/copy.ts';
import type { Database } from '../../src/db/database.ts';
import { retireReplaced } from '../../src/db/queries/deletions.ts';
import {
  upsertComponents,
  upsertProjects,
  upsertTranslations,
  upsertUnits,
} from '../../src/db/queries/records.ts';
import { recordTranslationStatistics } from '../../src/db/queries/statistics.ts';
import { writeTransaction } from '../../src/db/transactions.ts';
import type { TranslationRef } from '../../src/sync/refs.ts';
import { toComponentRow } from '../../src/sync/streams/components.ts';
import { toProjectRow } from '../../src/sync/streams/projects.ts';
import { toTranslationStatisticsRow } from '../../src/sync/streams/statistics.ts';
import { toTranslationRow } from '../../src/sync/streams/translations.ts';
import { toUnitRow } from '../../src/sync/streams/unit-rows.ts';
import {
  weblateComponent,
  weblateProject,
  weblateStatistics,
  weblateTranslation,
  weblateUnit,
} from '../../src/weblate/schemas.ts';
import { createTestDatabase, DATABASE_KIND, type TestDatabase } from '../helpers/database.ts';
import { item } from '../helpers/items.ts';
import { COMPONENT, PROJECT } from '../helpers/parent-refs.ts';

let database: TestDatabase;
let handle: DbHandle;
const project = PROJECT;
const component = COMPONENT;
const translation: TranslationRef = {
  id: 3,
  url: 'http://w/api/translations/p/c/cs/',
  languageCode: 'cs',
  language: 'cs',
  component,
  unitsUrl: '',
  statisticsUrl: '',
  total: 1,
};

const unitText = (target: string, hash = '-9223372036854775808') =>
  `{"id": 9007199254740993, "translation": "http://w/api/translations/p/c/cs/?format=api",
    "source": ["%1 file\\n<b>open</b>", "%1 files 😀‍👩 ﷽"], "target": [${target}],
    "id_hash": ${hash}, "content_hash": 9223372036854775807, "state": 20, "position": 1,
    "timestamp": "2026-03-01T12:34:56.123456+02:00", "last_updated": "2026-03-01T10:34:56.000001Z",
    "labels": [{"name": "a\\tb", "id": 1}],
    "unknown_new_field": {"big": 12345678901234567890}}`;

beforeAll(async () => {
  database = await createTestDatabase();
  handle = await database.migrated();
  await upsertProjects(handle.db, [
    toProjectRow(...args(item(weblateProject, '{"id": 1, "slug": "p", "name": "P"}'))),
  ]);
  await upsertComponents(handle.db, [
    toComponentRow(...args(item(weblateComponent, '{"id": 2, "slug": "c", "name": "C"}')), project),
  ]);
  const t = item(
    weblateTranslation,
    '{"id": 3, "language_code": "cs", "url": "http://w/api/translations/p/c/cs/", "total": 1, "translated_percent": 33.3, "last_change": null}',
  );
  await upsertTranslations(handle.db, [toTranslationRow(t.record, t.raw, component)]);
});

afterAll(() => database.drop());

function args<R, W>(i: { record: R; raw: W }): [R, W] {
  return [i.record, i.raw];
}

describe('upserts', () => {
  // Both write paths: plain (one JSON parameter) and, in a write transaction, COPY on PostgreSQL.
  for (const path of ['json', 'session'] as const) {
    it(`store int64, microsecond timestamps, plurals and Unicode exactly, and keep raw lossless (${path})`, async () => {
      await sql`delete from weblate.units`.execute(handle.db);
      const u = item(weblateUnit, unitText('"", "🇨🇿 «%1» souborů\\t\\\\"'));
      const write = (db: typeof handle.db, copy: CopyInto | null = null) =>
        upsertUnits(db, [toUnitRow(u.record, u.raw, 3)], copy);
      const staged = await (path === 'json'
        ? write(handle.db).then(() => false)
        : writeTransaction(handle, async (trx, copy) => {
            expect(await write(trx, copy)).toBe(1);
            const stage = await sql<{
              ok: boolean;
            }>`select to_regclass('pg_temp.stage_weblate_units') is not null as ok`.execute(trx);
            return stage.rows[0]!.ok;
          }));
      // COPY is what a session uses on PostgreSQL; the embedded database has only the JSON path.
      expect(staged).toBe(path === 'session' && DATABASE_KIND === 'postgres');
      const row = await sql<Record<string, unknown>>`
        select id::text, id_hash::text, content_hash::text, source, target, labels,
          to_char(timestamp at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') as ts,
          to_char(last_updated at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') as lu,
          (raw->'id_hash')::text as raw_hash, (raw #> '{unknown_new_field,big}')::text as raw_big
        from weblate.units`.execute(handle.db);
      expect(row.rows).toEqual([
        {
          id: '9007199254740993',
          id_hash: '-9223372036854775808',
          content_hash: '9223372036854775807',
          source: ['%1 file\n<b>open</b>', '%1 files 😀‍👩 ﷽'],
          target: ['', '🇨🇿 «%1» souborů\t\\'],
          labels: [{ name: 'a\tb', id: 1 }],
          ts: '2026-03-01T10:34:56.123456',
          lu: '2026-03-01T10:34:56.000001',
          raw_hash: '-9223372036854775808',
          raw_big: '12345678901234567890',
        },
      ]);
    });
  }

  it('write nothing when the same rows come again, and only changed rows otherwise', async () => {
    const same = item(weblateUnit, unitText('"", "🇨🇿 «%1» souborů\\t\\\\"'));
    expect(await upsertUnits(handle.db, [toUnitRow(same.record, same.raw, 3)])).toBe(0);
    const changed = item(weblateUnit, unitText('"x", "y"'));
    expect(
      await upsertUnits(handle.db, [
        toUnitRow(changed.record, changed.raw, 3),
        toUnitRow(changed.record, changed.raw, 3),
      ]),
    ).toBe(1);
    const target = await sql<{ target: string[] }>`select target from weblate.units`.execute(
      handle.db,
    );
    expect(target.rows[0]?.target).toEqual(['x', 'y']);
  });

  it('keep percentages as the exact decimals sent', async () => {
    const result = await sql<{
      p: string;
    }>`select translated_percent::text as p from weblate.translations where id = 3`.execute(
      handle.db,
    );
    expect(result.rows[0]?.p).toBe('33.3');
  });
});

describe('translations', () => {
  const translationRow = (id: number, language: string, extra = '') => {
    const t = item(
      weblateTranslation,
      `{"id": ${id}, "language_code": "${language}", "url": "http://w/api/translations/p/c/${language}/", "total": 2${extra}}`,
    );
    return toTranslationRow(t.record, t.raw, component);
  };
  /** Runs `work` in a write transaction that is rolled back. */
  const rolledBack = async (
    work: (trx: Transaction<Database>, copy: CopyInto | null) => Promise<void>,
  ) => {
    const undo = new Error('roll back');
    await expect(
      writeTransaction(handle, async (trx, copy) => {
        await work(trx, copy);
        throw undo;
      }),
    ).rejects.toBe(undo);
  };

  it('are written by COPY in a write transaction on PostgreSQL, returning the ids that moved, with their component nested in raw', async () => {
    await rolledBack(async (trx, copy) => {
      expect(copy !== null).toBe(DATABASE_KIND === 'postgres');
      const rows = [
        translationRow(40, 'de'),
        translationRow(41, 'fr', ', "translated_percent": 50.0'),
      ];
      const shape = { nestComponent: true } as const;
      expect(await upsertTranslations(trx, rows, shape, copy)).toEqual([40, 41]);
      expect(await upsertTranslations(trx, rows, shape, copy)).toEqual([]);
      const moved = [
        translationRow(40, 'de'),
        translationRow(41, 'fr', ', "translated_percent": 50.5'),
      ];
      expect(await upsertTranslations(trx, moved, shape, copy)).toEqual([41]);
      const stored = await sql<{ id: number; slug: string; percent: string }>`
        select id, raw #>> '{component,slug}' as slug, translated_percent::text as percent
        from weblate.translations where id in (40, 41) order by id`.execute(trx);
      expect(stored.rows).toEqual([
        { id: 40, slug: 'c', percent: null },
        { id: 41, slug: 'c', percent: '50.5' },
      ]);
    });
  });

  it('retire a live row under an incoming key, but never one of the incoming rows', async () => {
    await rolledBack(async (trx) => {
      await upsertTranslations(trx, [translationRow(42, 'de')]);
      // 3 (cs) and 42 (de) swap their languages in one page: both stay live.
      expect(
        await retireReplaced(trx, 'translations', [
          translationRow(3, 'de'),
          translationRow(42, 'cs'),
        ]),
      ).toEqual([]);
      // 43 comes under 42's key (de): Weblate deleted 42 and created 43.
      expect(await retireReplaced(trx, 'translations', [translationRow(43, 'de')])).toEqual([42]);
    });
  });
});

describe('statistics snapshots', () => {
  const stats = (translated: number) =>
    item(
      weblateStatistics,
      `{"total": 4, "translated": ${translated}, "translated_percent": ${(translated * 25).toFixed(1)}, "last_change": "2026-01-02T03:04:05.678901Z", "code": "cs"}`,
    );
  const snapshot = (translated: number, at: string) => {
    const s = stats(translated);
    return recordTranslationStatistics(handle.db, [
      toTranslationStatisticsRow(s.record, s.raw, translation, { capturedAt: at, runId: null }),
    ]);
  };
  const history = async () =>
    (
      await sql<{ translated: number; captured: string; seen: string }>`
        select translated, to_char(captured_at at time zone 'UTC', 'HH24:MI') as captured, to_char(last_seen_at at time zone 'UTC', 'HH24:MI') as seen
        from weblate.translation_statistics where translation_id = 3 order by captured_at`.execute(
        handle.db,
      )
    ).rows;

  it('append a row only when a value changes, and otherwise mark the latest row as seen', async () => {
    expect(await snapshot(1, '2026-01-01T10:00:00Z')).toEqual({ appended: 1, unchanged: 0 });
    expect(await snapshot(1, '2026-01-01T11:00:00Z')).toEqual({ appended: 0, unchanged: 1 });
    expect(await snapshot(2, '2026-01-01T12:00:00Z')).toEqual({ appended: 1, unchanged: 0 });
    expect(await snapshot(2, '2026-01-01T13:00:00Z')).toEqual({ appended: 0, unchanged: 1 });
    expect(await snapshot(1, '2026-01-01T14:00:00Z')).toEqual({ appended: 1, unchanged: 0 });
    expect(await history()).toEqual([
      { translated: 1, captured: '10:00', seen: '11:00' },
      { translated: 2, captured: '12:00', seen: '13:00' },
      { translated: 1, captured: '14:00', seen: '14:00' },
    ]);
  });
});
