import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { FormData, type Measurement } from '../harness/api.ts';
import { useWeblate } from '../harness/instance.ts';
import { TIER_RELEASE, tierIsAtLeast } from '../harness/release.ts';
import { type PoEntry, poFile } from '../harness/seed-files.ts';
import { TIER_DIR } from '../harness/weblate.ts';
import { zipFiles } from '../harness/zip.ts';

/**
 * What Weblate 5.14.3 spends serving the lists the mirror reads: service time, SQL queries
 * and bytes of /api/units/ pages of 1,000, 5,000 and 10,000 units with and without `q`, and of
 * change pages, on an instance of over 10,000 units. The figures go to
 * test/artifacts/weblate-measurements-<release>.md (docs/performance.md quotes a run); the assertions
 * check the behaviours they reveal, never speed. WEBLATE_TIER_REPEATS=3 takes medians.
 */
const weblate = useWeblate('measurements');
const STRINGS = 2000;
const LANGUAGES = ['cs', 'de', 'fr', 'ja'];
const CHANGES = 3000;
const REPEATS = Number(process.env.WEBLATE_TIER_REPEATS ?? 1);

const ENTRIES: PoEntry[] = Array.from({ length: STRINGS }, (_, i) => ({
  source: `Bulk string ${i + 1}: the release manager counts %d strings before the freeze.`,
  flags: ['c-format'],
}));
const translated = (language: string) =>
  poFile(ENTRIES, language, {
    plural: 'nplurals=2; plural=(n != 1);',
    units: ENTRIES.map((entry) => ({ target: `[${language}] ${entry.source}` })),
  });

interface Row {
  what: string;
  pageSize: number;
  median: Measurement;
}

describe(`Weblate ${TIER_RELEASE} serving large pages`, () => {
  const rows: Row[] = [];
  const measure = async (what: string, pageSize: number, path: string) => {
    const runs: Measurement[] = [];
    for (let i = 0; i < REPEATS; i++) runs.push(await weblate.current.admin.measure(path));
    const median = [...runs].sort((a, b) => a.serverMs - b.serverMs)[Math.floor(REPEATS / 2)]!;
    rows.push({ what, pageSize, median });
    return median;
  };

  it('holds a component of 10,000 units, translated, and thousands of changes', async () => {
    const api = weblate.current.admin;
    const form = new FormData();
    for (const [key, value] of Object.entries({
      name: 'Bulk',
      slug: 'bulk',
      file_format: 'po',
      filemask: 'bulk/*.po',
      new_base: 'bulk/bulk.pot',
      source_language: 'en',
    }))
      form.set(key, value);
    const files: Record<string, string> = { 'bulk/bulk.pot': poFile(ENTRIES, null) };
    for (const language of LANGUAGES) files[`bulk/${language}.po`] = translated(language);
    form.set('zipfile', new Blob([zipFiles(files)]), 'bulk.zip');
    // Parsing files is Weblate's fast path; uploading translations unit by unit takes minutes.
    await api.postForm('projects/aurora/components/', form);
    const [logged] = await weblate.current.ops([
      { op: 'synthesize_changes', args: { project: 'aurora', component: 'bulk', count: CHANGES } },
    ]);
    expect(logged).toBe(CHANGES);
    const units = await api.measure('units/?page_size=1');
    expect(units.count).toBeGreaterThanOrEqual(STRINGS * (LANGUAGES.length + 1));
    const changes = await api.measure('changes/?page_size=1');
    expect(changes.count).toBeGreaterThan(CHANGES);
  });

  it('runs one SQL query per unit on a unit page before 2026 (a fixed number since), and counts over a DISTINCT whenever q is set', async () => {
    const first = (
      await weblate.current.admin.get<{ results: Array<{ id: number }> }>('units/?page_size=1')
    ).results[0]!.id;
    for (const size of [1000, 5000, 10_000]) {
      await measure('units, no q', size, `units/?page_size=${size}`);
      const window = `id:>${first - 1} AND id:<=${first - 1 + size}`;
      await measure(
        'units, q=id:>a AND id:<=b (bounded window)',
        size,
        `units/?page_size=${size}&q=${encodeURIComponent(window)}`,
      );
    }
    await measure(
      'units, q=id:>K (keyset walk)',
      10_000,
      `units/?page_size=10000&q=${encodeURIComponent(`id:>${first - 1}`)}`,
    );
    const plain = rows.filter((r) => r.what === 'units, no q');
    const [small, , large] = plain.map((r) => r.median);
    // Weblate 5.14.3 asks for each unit's pending state on its own (fixed in 5.16.2); 2026
    // prefetches a page's related rows, whatever its size.
    if (tierIsAtLeast('2026')) expect(large!.queries - small!.queries).toBeLessThan(100);
    else expect(large!.queries - small!.queries).toBeGreaterThan(0.9 * (10_000 - 1000));
    expect(plain.every((r) => !r.median.distinctCount)).toBe(true);
    expect(rows.filter((r) => r.what !== 'units, no q').every((r) => r.median.distinctCount)).toBe(
      true,
    );
    expect(large!.results).toBe(10_000);
  });

  it('clamps page_size above 10,000 on units and above 1,000 on other lists', async () => {
    expect((await weblate.current.admin.measure('units/?page_size=20000')).results).toBe(10_000);
    expect((await weblate.current.admin.measure('changes/?page_size=5000')).results).toBe(1000);
  });

  it('serves change pages of 1,000', async () => {
    await measure('changes, global', 1000, 'changes/?page_size=1000');
    await measure('changes, project', 1000, 'projects/aurora/changes/?page_size=1000');
    const after = new Date(Date.now() - 24 * 3600_000).toISOString();
    await measure(
      'changes, global, time window',
      1000,
      `changes/?page_size=1000&timestamp_after=${after}&timestamp_before=${new Date().toISOString()}`,
    );
    await measure('changes, global, page 5', 1000, 'changes/?page_size=1000&page=5');
    expect(
      rows.filter((r) => r.what.startsWith('changes')).every((r) => r.median.results === 1000),
    ).toBe(true);
    writeResults(rows);
  });
});

function writeResults(rows: Row[]): void {
  const header = '| request | page size | Weblate ms | SQL queries | COUNT over DISTINCT | bytes |';
  const lines = rows.map(
    ({ what, pageSize, median: m }) =>
      `| ${what} | ${pageSize} | ${m.serverMs.toFixed(0)} | ${m.queries} | ${m.distinctCount ? 'yes' : 'no'} | ${m.bytes} |`,
  );
  const table = [header, '|---|---|---|---|---|---|', ...lines].join('\n');
  const artifacts = join(TIER_DIR, '..', 'artifacts');
  mkdirSync(artifacts, { recursive: true });
  writeFileSync(join(artifacts, `weblate-measurements-${TIER_RELEASE}.md`), `${table}\n`);
  process.stdout.write(`Weblate ${TIER_RELEASE}, median of ${REPEATS}:\n${table}\n`);
}
