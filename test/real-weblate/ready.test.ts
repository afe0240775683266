import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { readyCommand } from '../../src/cli/commands/ready.ts';
import { databaseFlags, runCommand } from '../helpers/commands.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import type { TierApi } from './harness/api.ts';
import { approveAndMarkForEditing } from './harness/edits.ts';
import { useWeblate } from './harness/instance.ts';
import { syncWeblate } from './harness/mirror.ts';
import { TIER_RELEASE } from './harness/release.ts';
import { SEED, STATE, unitsOf } from './harness/seed.ts';

const weblate = useWeblate('ready');
const PROJECTS = [SEED.aurora.slug, SEED.borealis.slug, SEED.cirrus.slug];
const THRESHOLDS = [80, 90, 95];

/**
 * Translates through Weblate's API every string of `project` into `language` that is not
 * translated yet, but the last `leave`: the seed has no language above 80 %.
 */
async function translateAllBut(
  api: TierApi,
  project: string,
  language: string,
  leave: number,
): Promise<void> {
  const components = await api.listAll<{ slug: string }>(`projects/${project}/components/`);
  const open = [];
  for (const { slug } of components) {
    const units = await unitsOf(api, `${project}/${slug}/${language}`).catch(() => []);
    open.push(...units.filter((u) => u.state < STATE.translated));
  }
  for (const unit of open.slice(0, Math.max(0, open.length - leave)))
    await api.patch(`units/${unit.id}/`, {
      target: unit.target.map((_, i) => `${unit.source[Math.min(i, unit.source.length - 1)]} ✓`),
      state: STATE.translated,
    });
}

interface LanguageRow {
  code: string;
  translated_percent: number;
}

/**
 * `ready` against Weblate's own statistics at the same moment: for each project and
 * threshold, the ready set is the languages whose translated_percent in
 * /api/projects/<p>/languages/ is at or above it, less the project's source language, whose
 * row counts the source translations (docs/metrics.md, translated_percent).
 */
describe(`ready, against a real Weblate ${TIER_RELEASE}`, () => {
  let database: TestDatabase;
  /** Weblate's rows of each project's languages, and its components' source languages. */
  const weblateRows = new Map<string, LanguageRow[]>();
  const sources = new Map<string, Set<string>>();
  const compared: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    const handle = await database.migrated();
    try {
      // A few edits of the tier's own, so that languages move off their seeded percentages.
      const api = weblate.current.admin;
      await approveAndMarkForEditing(api);
      await translateAllBut(api, SEED.cirrus.slug, 'fr', 0);
      await translateAllBut(api, SEED.aurora.slug, 'de', 2);
      await translateAllBut(api, SEED.borealis.slug, 'uk', 1);
      const result = await syncWeblate(weblate.current, handle.db);
      expect([result.status, result.error]).toEqual(['succeeded', null]);
    } finally {
      await handle.close();
    }
    const api = weblate.current.admin;
    for (const project of PROJECTS) {
      weblateRows.set(project, await api.get<LanguageRow[]>(`projects/${project}/languages/`));
      const components = await api.listAll<{ source_language: { code: string } }>(
        `projects/${project}/components/`,
      );
      sources.set(project, new Set(components.map((c) => c.source_language.code)));
    }
  });

  afterAll(async () => {
    process.stdout.write(`ready against Weblate ${TIER_RELEASE}: ${compared.join('; ')}\n`);
    await database?.drop();
  });

  it('has languages on each side of 90 %, so that the thresholds decide something', () => {
    const percents = PROJECTS.flatMap((p) =>
      weblateRows
        .get(p)!
        .filter((l) => !sources.get(p)!.has(l.code))
        .map((l) => l.translated_percent),
    );
    expect(percents.some((p) => p >= 90)).toBe(true);
    expect(percents.some((p) => p < 90)).toBe(true);
  });

  it.each(PROJECTS.flatMap((p) => THRESHOLDS.map((min) => [p, min] as const)))(
    'lists for %s at --min %i the languages Weblate says are at or above it',
    async (project, min) => {
      const result = await runCommand(readyCommand, {
        ...databaseFlags(database),
        min: String(min),
        project: [project],
        format: 'json',
      });
      expect(result.error).toBeNull();
      expect(result.code).toBe(0);
      const doc = JSON.parse(result.stdout) as { ready: string[]; not_ready: string[] };
      const rows = weblateRows.get(project)!.filter((l) => !sources.get(project)!.has(l.code));
      const expected = rows
        .filter((l) => l.translated_percent >= min)
        .map((l) => l.code)
        .sort();
      expect(doc.ready).toEqual(expected);
      expect([...doc.ready, ...doc.not_ready].sort()).toEqual(rows.map((l) => l.code).sort());
      compared.push(`${project} ≥${min}: ${doc.ready.length} of ${rows.length}`);
    },
  );
});
