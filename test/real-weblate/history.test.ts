import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Database } from '../../src/db/database.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { acceptGermanSuggestions } from './harness/edits.ts';
import { useWeblate } from './harness/instance.ts';
import { syncWeblate } from './harness/mirror.ts';
import { TIER_RELEASE } from './harness/release.ts';
import { findUnit, STATE, unitsOf } from './harness/seed.ts';
import { uploadAppFile } from './harness/seed-files.ts';

const weblate = useWeblate('history');

const DAY_MS = 86_400_000;

interface TranslationRecord {
  id: number;
  is_source: boolean;
  statistics_url: string;
}

interface Figures {
  total: number;
  translated: number;
  fuzzy: number;
  approved: number;
}

/** What Weblate's statistics say at the end of a phase, per translation. */
type Recorded = Map<number, Figures>;

const FIGURES = ['translated', 'fuzzy', 'approved'] as const;

const percent = (part: number, whole: number) => (whole === 0 ? 100 : (100 * part) / whole);

/**
 * The history estimate against a real Weblate (test/real-weblate/versions). Edits in phases, each through
 * Weblate's own paths (API edits, bulk edit, suggestions accepted, strings added and removed,
 * an uploaded file); after each phase its changes are moved to a UTC day of their own and the
 * statistics are recorded. The first sync then estimates those days from the change log: each
 * phase's day is compared with what Weblate said at its end (docs/history.md).
 */
describe(`history estimated from the change log of a real Weblate ${TIER_RELEASE}`, () => {
  let database: TestDatabase;
  let db: Kysely<Database>;
  const recorded: Array<{ phase: string; day: string; stats: Recorded }> = [];

  /** The UTC day `n` days before today, and noon on it. */
  const today = Date.UTC(
    new Date().getUTCFullYear(),
    new Date().getUTCMonth(),
    new Date().getUTCDate(),
  );
  const dayOf = (n: number) => new Date(today - n * DAY_MS).toISOString().slice(0, 10);

  async function record(phase: string, daysAgo: number): Promise<void> {
    const api = weblate.current.admin;
    const stats: Recorded = new Map();
    for (const t of await api.listAll<TranslationRecord>('translations/')) {
      if (t.is_source) continue;
      const { total, translated, fuzzy, approved } = await api.get<Figures>(t.statistics_url);
      stats.set(t.id, { total, translated, fuzzy, approved });
    }
    recorded.push({ phase, day: dayOf(daysAgo), stats });
  }

  /** Runs a phase's edits, moves their changes to noon `daysAgo` days back, records the statistics. */
  async function phase(name: string, daysAgo: number, edit: () => Promise<void>): Promise<void> {
    const [before] = (await weblate.current.ops([{ op: 'max_change_id', args: {} }])) as [number];
    await edit();
    const noon = new Date(today - daysAgo * DAY_MS + DAY_MS / 2).toISOString();
    await weblate.current.ops([
      { op: 'backdate_after', args: { after_id: before, timestamp: noon } },
    ]);
    await record(name, daysAgo);
  }

  beforeAll(async () => {
    const api = weblate.current.admin;
    // The seed's history a month back, so that each phase below has a day of its own after it.
    await weblate.current.ops([{ op: 'age', args: { seconds: 30 * 86_400 } }]);
    await record('seed', 9);
    await phase('translate', 8, async () => {
      const de = await unitsOf(api, 'aurora/app/de');
      for (const source of ['Last synced {date}', 'Cancel'])
        await weblate.current.as('alice').patch(`units/${findUnit(de, source).id}/`, {
          target: [`${source} (de)`],
          state: STATE.translated,
        });
    });
    await phase('approve', 7, async () => {
      const cs = await unitsOf(api, 'aurora/app/cs');
      await api.patch(`units/${findUnit(cs, 'Cancel').id}/`, {
        target: ['Zrušit'],
        state: STATE.approved,
      });
    });
    await phase('mark for editing', 6, async () => {
      const ja = await unitsOf(api, 'aurora/app/ja');
      await api.patch(`units/${findUnit(ja, 'Settings').id}/`, {
        target: ['設定'],
        state: STATE.fuzzy,
      });
    });
    await phase('bulk edit', 5, async () => {
      await weblate.current.ops([
        {
          op: 'bulk_edit',
          args: {
            username: 'admin',
            project: 'borealis',
            query: 'state:translated',
            state: STATE.fuzzy,
          },
        },
      ]);
    });
    await phase('suggestions accepted', 4, async () => {
      await acceptGermanSuggestions(weblate.current);
    });
    await phase('strings added and removed', 3, async () => {
      await api.post('translations/aurora/app/en/units/', { source: ['A string added later'] });
      const source = await unitsOf(api, 'aurora/app/en');
      await api.delete(`units/${findUnit(source, 'Open', 'door').id}/`);
    });
    await phase('file uploaded', 2, async () => {
      await uploadAppFile(api, 'aurora/app/sk', {
        plural: 'nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;',
        targets: { Save: 'Uložiť', Cancel: 'Zrušiť' },
        method: 'translate',
      });
    });
    database = await createTestDatabase();
    db = (await database.migrated()).db;
    const first = await syncWeblate(weblate.current, db);
    expect([first.mode, first.status, first.error]).toEqual(['full', 'succeeded', null]);
  });
  afterAll(async () => {
    await database?.drop();
  });

  it("estimates each phase's day within a point of what Weblate's statistics said", async () => {
    const rows = (
      await sql<Figures & { translation_id: number; day: string; origin: string }>`
        select translation_id, to_char(day, 'YYYY-MM-DD') as day, total, translated, fuzzy,
               approved, origin
        from weblate.translation_progress_daily`.execute(db)
    ).rows;
    const estimated = new Map(rows.map((r) => [`${r.translation_id} ${r.day}`, r]));
    const gaps: Array<{ phase: string; translation: number; figure: string; gap: number }> = [];
    const missing: string[] = [];
    for (const { phase, day, stats } of recorded) {
      for (const [translation, truth] of stats) {
        const row = estimated.get(`${translation} ${day}`);
        if (row === undefined || row.origin !== 'estimated') {
          missing.push(
            `${phase}: translation ${translation} on ${day} (${row?.origin ?? 'no row'})`,
          );
          continue;
        }
        for (const figure of FIGURES) {
          const gap = Math.abs(
            percent(row[figure], row.total) - percent(truth[figure], truth.total),
          );
          gaps.push({ phase, translation, figure, gap });
        }
      }
    }
    const translated = gaps.filter((g) => g.figure === 'translated');
    const within1 = translated.filter((g) => g.gap <= 1).length / translated.length;
    const largest = (figure: string) =>
      Math.max(...gaps.filter((g) => g.figure === figure).map((g) => g.gap));
    process.stdout.write(
      `backfill accuracy (real Weblate ${TIER_RELEASE}): ${translated.length} translation-days at the ends of ${recorded.length} phases ` +
        `(${recorded.map((r) => r.phase).join(', ')}); translated % within 1 point on ${(within1 * 100).toFixed(1)}%; ` +
        `largest gaps: translated ${largest('translated').toFixed(2)}, needing editing ${largest('fuzzy').toFixed(2)}, ` +
        `approved ${largest('approved').toFixed(2)} points\n`,
    );
    expect(missing).toEqual([]);
    // Every phase moved Weblate's statistics, so that each day compared tells something.
    const still = recorded.slice(1).filter(({ stats }, i) =>
      [...stats].every(([id, s]) => {
        const p = recorded[i]!.stats.get(id);
        return p !== undefined && (['total', ...FIGURES] as const).every((f) => p[f] === s[f]);
      }),
    );
    expect(still.map((r) => r.phase)).toEqual([]);
    const worst = JSON.stringify(gaps.filter((g) => g.gap > 1).slice(0, 10));
    expect(within1, worst).toBeGreaterThanOrEqual(0.95);
    for (const figure of FIGURES) expect(largest(figure), worst).toBeLessThanOrEqual(3);
  });
});
