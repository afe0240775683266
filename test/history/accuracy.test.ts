import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { DbHandle } from '../../src/db/client.ts';
import {
  type RunningSimulator,
  startSimulator,
  trueDailyProgress,
} from '../../src/simulator/index.ts';
import { useTestDatabases } from '../helpers/database.ts';
import { syncSimulator } from '../helpers/sync.ts';

/**
 * The estimate against the truth. The simulator's history is coherent (every string's
 * state follows from its moves, logged or not, and strings added and removed along the way),
 * so it knows each translation's true daily series. The first sync estimates the days
 * before it from the change log; every estimated translation-day is compared with the true
 * one. Targets (docs/history.md): the translated percentage within 1 point on at least 95%
 * of translation-days, and within 3 points on all.
 */

const percent = (part: number, whole: number) => (whole === 0 ? 100 : (100 * part) / whole);

describe('backfill accuracy against the simulator', () => {
  const databases = useTestDatabases();
  let sim: RunningSimulator;
  let handle: DbHandle;

  beforeAll(async () => {
    sim = await startSimulator({
      seed: 11,
      projects: 2,
      components: 6,
      languages: 5,
      units: 4000,
      changes: 8000,
    });
    handle = await databases.migrated();
    const result = await syncSimulator(sim, handle);
    expect(result.status).toBe('succeeded');
  });
  afterAll(async () => {
    await sim?.close();
  });

  it('estimates the translated percentage within 1 point on 95% of the days, 3 on all', async () => {
    const rows = (
      await sql<{
        translation_id: number;
        day: string;
        total: number;
        translated: number;
        fuzzy: number;
        approved: number;
      }>`
        select translation_id, to_char(day, 'YYYY-MM-DD') as day, total, translated, fuzzy, approved
        from weblate.translation_progress_daily where origin = 'estimated'
        order by translation_id, day`.execute(handle.db)
    ).rows;
    const byTranslation = new Map<number, typeof rows>();
    for (const row of rows)
      byTranslation.set(row.translation_id, [
        ...(byTranslation.get(row.translation_id) ?? []),
        row,
      ]);
    expect(byTranslation.size).toBeGreaterThan(10);
    const lastDay = rows.reduce((max, r) => (r.day > max ? r.day : max), '');
    const truths = trueDailyProgress(sim.instance, { until: lastDay });
    const gaps: number[] = [];
    // Not targets, for the record: approved and needing-editing percentages, and strings.
    const other = { approved: [] as number[], fuzzy: [] as number[], total: [] as number[] };
    const worst: Array<{ translation: number; day: string; gap: number }> = [];
    for (const [translation, days] of byTranslation) {
      const truth = new Map((truths.get(translation) ?? []).map((d) => [d.day, d]));
      for (const row of days) {
        const real = truth.get(row.day);
        expect(real, `true progress of translation ${translation} on ${row.day}`).toBeDefined();
        const gap = Math.abs(
          percent(row.translated, row.total) - percent(real!.translated, real!.total),
        );
        gaps.push(gap);
        other.approved.push(
          Math.abs(percent(row.approved, row.total) - percent(real!.approved, real!.total)),
        );
        other.fuzzy.push(
          Math.abs(percent(row.fuzzy, row.total) - percent(real!.fuzzy, real!.total)),
        );
        other.total.push(Math.abs(row.total - real!.total) / Math.max(1, real!.total));
        if (gap > 1) worst.push({ translation, day: row.day, gap: Math.round(gap * 10) / 10 });
      }
    }
    const within1 = gaps.filter((g) => g <= 1).length / gaps.length;
    const largest = Math.max(...gaps);
    process.stdout.write(
      `backfill accuracy (simulator, seed 11): ${gaps.length} translation-days of ${byTranslation.size} translations; ` +
        `translated % within 1 point on ${(within1 * 100).toFixed(1)}%, largest gap ${largest.toFixed(2)} points; ` +
        `largest gaps of approved % ${Math.max(...other.approved).toFixed(2)}, needing editing % ${Math.max(...other.fuzzy).toFixed(2)}, ` +
        `strings ${(100 * Math.max(...other.total)).toFixed(1)}%\n`,
    );
    expect(gaps.length).toBeGreaterThan(1000);
    expect(within1, JSON.stringify(worst.slice(0, 10))).toBeGreaterThanOrEqual(0.95);
    expect(largest, JSON.stringify(worst.slice(0, 10))).toBeLessThanOrEqual(3);
  });
});
