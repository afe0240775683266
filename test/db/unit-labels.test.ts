import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { DbHandle } from '../../src/db/client.ts';
import {
  upsertComponents,
  upsertProjects,
  upsertTranslations,
  upsertUnits,
} from '../../src/db/queries/records.ts';
import { writeTransaction } from '../../src/db/transactions.ts';
import { toComponentRow } from '../../src/sync/streams/components.ts';
import { toProjectRow } from '../../src/sync/streams/projects.ts';
import { toTranslationRow } from '../../src/sync/streams/translations.ts';
import { toUnitRow } from '../../src/sync/streams/unit-rows.ts';
import {
  weblateComponent,
  weblateProject,
  weblateTranslation,
  weblateUnit,
} from '../../src/weblate/schemas.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { item } from '../helpers/items.ts';
import { COMPONENT, PROJECT } from '../helpers/parent-refs.ts';

let database: TestDatabase;
let handle: DbHandle;
const project = PROJECT;
const component = COMPONENT;

beforeAll(async () => {
  database = await createTestDatabase();
  handle = await database.migrated();
  const p = item(weblateProject, '{"id": 1, "slug": "p", "name": "P"}');
  await upsertProjects(handle.db, [toProjectRow(p.record, p.raw)]);
  const c = item(
    weblateComponent,
    '{"id": 2, "slug": "c", "name": "C", "category": "http://w/api/categories/7/?format=api"}',
  );
  await upsertComponents(handle.db, [toComponentRow(c.record, c.raw, project)]);
  const t = item(weblateTranslation, '{"id": 3, "language_code": "cs", "url": "http://w/t/"}');
  await upsertTranslations(handle.db, [toTranslationRow(t.record, t.raw, component)]);
});

afterAll(() => database.drop());

/** Writes the unit `id` with `labels` (JSON text) the way a sync does, COPY where it can. */
async function writeUnit(id: string, labels: string): Promise<void> {
  const u = item(
    weblateUnit,
    `{"id": ${id}, "translation": "http://w/t/", "source": ["s"], "target": ["t"],
      "id_hash": 1, "content_hash": 2, "state": 20, "labels": ${labels}}`,
  );
  await writeTransaction(handle, (trx, copy) =>
    upsertUnits(trx, [toUnitRow(u.record, u.raw, 3)], copy),
  );
}

async function links(): Promise<Array<[string, number, boolean]>> {
  const result = await sql<{ unit_id: string; label_id: number; live: boolean }>`
    select unit_id::text, label_id, deleted_at is null as live from weblate.unit_labels
    order by unit_id, label_id`.execute(handle.db);
  return result.rows.map((r) => [r.unit_id, r.label_id, r.live]);
}

describe('unit_labels', () => {
  it('follows the labels of every unit row written, keeping links a unit no longer has', async () => {
    const big = '9007199254740993';
    await writeUnit(big, '[{"id": 1, "name": "a", "color": "navy"}, {"id": 2, "name": "b"}]');
    await writeUnit('10', '[]');
    expect(await links()).toEqual([
      [big, 1, true],
      [big, 2, true],
    ]);
    await writeUnit(big, '[{"id": 2, "name": "b"}]');
    await writeUnit('10', '[5]');
    expect(await links()).toEqual([
      ['10', 5, true],
      [big, 1, false],
      [big, 2, true],
    ]);
    await writeUnit(big, '[{"id": 1, "name": "a"}, {"id": 2, "name": "b"}]');
    await writeUnit('10', 'null');
    expect(await links()).toEqual([
      ['10', 5, false],
      [big, 1, true],
      [big, 2, true],
    ]);
  });
});

describe('components', () => {
  it('take the id of the category their link names', async () => {
    const row = await handle.db
      .selectFrom('weblate.components')
      .select(['category', 'category_id'])
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ category: 'http://w/api/categories/7/?format=api', category_id: 7 });
  });
});

describe('weblate_reader', () => {
  it('may read the tables of categories and labels', async () => {
    const result = await sql<{ name: string; readable: boolean }>`
      select name, has_table_privilege('weblate_reader', 'weblate.' || name, 'select') as readable
      from unnest(array['categories', 'labels', 'unit_labels']) as name`.execute(handle.db);
    expect(result.rows.filter((r) => !r.readable)).toEqual([]);
  });
});
