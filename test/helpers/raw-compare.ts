import { type Kysely, sql } from 'kysely';

import type { Database } from '../../src/db/database.ts';
import {
  type LinkBase,
  renderChange,
  renderComponent,
  renderLanguage,
  renderLanguageStatistics,
  renderProject,
  renderSubscription,
  renderTranslation,
  renderTranslationStatistics,
  renderUnit,
  type RunningSimulator,
  toJsonText,
} from '../../src/simulator/index.ts';

/**
 * Keys of rows of `table` whose `raw` differs from what the simulator renders for that key
 * (or that exist on one side only), compared as jsonb by the database.
 */
async function rawMismatches(
  db: Kysely<Database>,
  table: string,
  keyExpr: string,
  expected: Array<[string, unknown]>,
): Promise<unknown[]> {
  const json = `[${expected.map(([key, value]) => `{"k":${JSON.stringify(key)},"v":${toJsonText(value)}}`).join(',')}]`;
  const result = await sql<{ key: string }>`
    select coalesce(t.key, e.k) as key from
      (select ${sql.raw(keyExpr)} as key, raw from ${sql.table(`weblate.${table}`)}) t
      full join (select x->>'k' as k, x->'v' as v from jsonb_array_elements(${json}::jsonb) x) e on e.k = t.key
    where t.raw is distinct from e.v`.execute(db);
  return result.rows.map((r) => r.key);
}

/**
 * Per mirrored table, the keys whose `raw` is not the record the simulator serves (rendered
 * with `base`: its site and release): all empty for a mirror of a full sync of `sim`.
 */
export async function rawMismatchesByTable(
  db: Kysely<Database>,
  sim: RunningSimulator,
  base: LinkBase,
): Promise<Record<string, unknown[]>> {
  const { instance } = sim;
  const byId = <T extends { id: number }>(items: readonly T[], render: (item: T) => unknown) =>
    items.map((item): [string, unknown] => [String(item.id), render(item)]);
  return {
    languages: await rawMismatches(
      db,
      'languages',
      'code',
      instance.languages.map((l) => [l.code, renderLanguage(instance, base, l)]),
    ),
    projects: await rawMismatches(
      db,
      'projects',
      'id::text',
      byId(instance.projects, (p) => renderProject(instance, base, p)),
    ),
    components: await rawMismatches(
      db,
      'components',
      'id::text',
      byId(instance.components, (c) => renderComponent(instance, base, c)),
    ),
    translations: await rawMismatches(
      db,
      'translations',
      'id::text',
      byId(instance.translations, (t) => renderTranslation(instance, base, t)),
    ),
    units: await rawMismatches(
      db,
      'units',
      'id::text',
      byId(instance.units, (u) => renderUnit(instance, base, u)),
    ),
    changes: await rawMismatches(
      db,
      'changes',
      'id::text',
      byId(instance.changes, (c) => renderChange(instance, base, c)),
    ),
    notification_subscriptions: await rawMismatches(
      db,
      'notification_subscriptions',
      'id::text',
      byId(
        instance.users.flatMap((u) => u.subscriptions),
        (s) => renderSubscription(instance, base, s),
      ),
    ),
    translation_statistics: await rawMismatches(
      db,
      'translation_statistics',
      'translation_id::text',
      byId(instance.translations, (t) => renderTranslationStatistics(instance, base, t)),
    ),
    language_statistics: await rawMismatches(
      db,
      'language_statistics',
      'language_code',
      instance.languages
        .filter((l) => (instance.index.translationsByLanguage.get(l.id) ?? []).length > 0)
        .map((l) => [l.code, renderLanguageStatistics(instance, base, l)]),
    ),
  };
}
