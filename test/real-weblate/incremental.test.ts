import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import type { Database } from '../../src/db/database.ts';
import type { SyncResult } from '../../src/sync/run-sync.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { captureLogger } from '../helpers/logs.ts';
import type { TierApi } from './harness/api.ts';
import { compareWithWeblate } from './harness/compare.ts';
import { approveAndMarkForEditing } from './harness/edits.ts';
import { useWeblate } from './harness/instance.ts';
import { expectEqualToFreshSync, requestsOf, syncWeblate } from './harness/mirror.ts';
import { TIER_RELEASE } from './harness/release.ts';
import { findUnit, SEED, STATE, unitsOf } from './harness/seed.ts';
import { uploadAppFile } from './harness/seed-files.ts';

const weblate = useWeblate('incremental');
const USERS = [...SEED.users];

/**
 * A mirror kept up to date by incremental syncs through rounds of edits made with Weblate's
 * API (and its bulk edit), compared after each round with a fresh full sync of the same state.
 */
describe(`incremental syncs of a real Weblate ${TIER_RELEASE}`, () => {
  let kept: TestDatabase;
  let db: Kysely<Database>;

  beforeAll(async () => {
    kept = await createTestDatabase();
    db = (await kept.migrated()).db;
    const first = await syncWeblate(weblate.current, db);
    expect([first.mode, first.status, first.error]).toEqual(['full', 'succeeded', null]);
  });
  afterAll(async () => {
    await kept.drop();
  });

  let before: TranslationStates;
  let laggingBefore: string[];
  beforeEach(async () => {
    before = await translationStates(weblate.current.admin);
    laggingBefore = await laggingLanguages(db);
  });

  /**
   * An incremental sync of the kept mirror, which must equal a fresh full sync and make only the
   * requests the round’s edits justify: the discovery lists (one page each here, labels one per
   * project), one page of
   * the global change list, the unit-list capability check and one unit page, `namedReads` reads of
   * units by id (units a change named whose last_changed did not move), `unitSweeps`
   * per-translation unit lists, statistics of each component and language whose translations
   * moved (and of languages whose statistics lagged their translations last time), and the
   * subscriptions of both users. The seed is a day old (see harness/template.ts), so no seeded
   * unit falls within the sync's lookback.
   */
  async function syncAndCompare({ unitSweeps = 0, namedReads = 0 } = {}): Promise<SyncResult> {
    weblate.current.takeRequests();
    const { log, lines } = captureLogger('info');
    const result = await syncWeblate(weblate.current, db, { log });
    expect([result.mode, result.status, result.error]).toEqual(['incremental', 'succeeded', null]);
    // Named in the assertion's message, so that a count off by one says which request it was.
    const made = {
      units: weblate.current
        .takeRequests()
        .filter((r) => /\/api\/(units|translations\/[^?]*\/units)\//.test(r.target))
        .map((r) => r.target),
      log: lines,
    };
    const moved = movedTranslations(before, await translationStates(weblate.current.admin));
    const projects = await db
      .selectFrom('weblate.projects')
      .select('id')
      .where('deleted_at', 'is', null)
      .execute();
    // People the run's changes named for the first time: one read each.
    const newPeople = await sql<{ n: number }>`
      select count(*)::int as n from weblate.users u, weblate.sync_runs r
      where r.id = ${result.runId} and u.first_seen_at >= r.started_at`.execute(db);
    expect(requestsOf(result), JSON.stringify(made, null, 1)).toEqual({
      languages: 1,
      projects: 1,
      components: 1,
      translations: 1,
      categories: 1,
      // Weblate has no global label list: one per project.
      labels: projects.length,
      changes: 1,
      units: 2 + namedReads + unitSweeps,
      translation_statistics: moved.components.size,
      language_statistics: new Set([...moved.languages, ...laggingBefore]).size,
      notification_subscriptions: USERS.length,
      // requestsOf leaves out what was not asked for.
      ...(newPeople.rows[0]!.n > 0 ? { users: newPeople.rows[0]!.n } : {}),
    });
    await expectEqualToFreshAndWeblate();
    return result;
  }

  async function expectEqualToFreshAndWeblate(): Promise<void> {
    const gone = await changesOfDeletedObjects(db);
    await expectEqualToFreshSync(weblate.current, db, (id) => gone.has(id));
    expect(
      await compareWithWeblate(db, weblate.current.admin, { projects: null, users: USERS }),
    ).toEqual([]);
  }

  it('follows translating, approving and marking for editing', async () => {
    const api = weblate.current.admin;
    const de = await unitsOf(api, 'aurora/app/de');
    await weblate.current.as('alice').patch(`units/${findUnit(de, 'Last synced {date}').id}/`, {
      target: ['Zuletzt synchronisiert {date}'],
      state: STATE.translated,
    });
    await approveAndMarkForEditing(api);
    await syncAndCompare();
  });

  it('follows a bulk state edit', async () => {
    const since = new Date(Date.now() - 1000).toISOString();
    const [edited] = await weblate.current.ops([
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
    expect(edited).toBeGreaterThan(2);
    // In 5.14.3 a bulk edit moves each unit's last_changed (see docs/weblate-compatibility.md).
    const q = encodeURIComponent(`last_changed:>=${since} AND project:borealis`);
    expect(await weblate.current.admin.listAll(`units/?q=${q}`)).toHaveLength(edited as number);
    await syncAndCompare();
  });

  it('follows suggestions, comments and an uploaded translation file', async () => {
    const api = weblate.current.admin;
    await uploadAppFile(api, 'aurora/app/de', {
      plural: 'nplurals=2; plural=(n != 1);',
      targets: { 'Rocket 🚀 launch in %s seconds': 'Rakete 🚀 startet in %s Sekunden' },
      method: 'suggest',
      fields: { author_email: 'bob@example.org' },
    });
    const sk = await unitsOf(api, 'aurora/app/sk');
    await weblate.current.as('bob').post(`units/${findUnit(sk, 'Save').id}/comments/`, {
      scope: 'translation',
      comment: 'Slovak needs “Uložiť” here.',
    });
    await uploadAppFile(api, 'aurora/app/sk', {
      plural: 'nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;',
      targets: { Save: 'Uložiť', Cancel: 'Zrušiť' },
      method: 'translate',
    });
    // A suggestion leaves its unit's last_changed where it was, yet the unit's record changes
    // (has_suggestion): the change that names it brings one read by id. The commented unit
    // is also translated by the upload, so the unit page brings it.
    await syncAndCompare({ namedReads: 1 });
  });

  it('follows new and removed strings', async () => {
    const api = weblate.current.admin;
    await api.post('translations/aurora/android/en/units/', {
      key: 'new_feature',
      value: ['Brand new ✨ feature'],
    });
    await api.post('translations/aurora/app/en/units/', { source: ['A string added later'] });
    const source = await unitsOf(api, 'aurora/app/en');
    await api.delete(`units/${findUnit(source, 'Open', 'door').id}/`);
    // Removing a string leaves no unit to find by last_changed: each translation of the
    // component then counts one unit less than the mirror and gets an id sweep (six languages).
    await syncAndCompare({ unitSweeps: 6 });
  });

  it('discovers a new translation and edits from their changes between complete discoveries', async () => {
    const api = weblate.current.admin;
    await api.post('components/borealis/web/translations/', { language_code: 'it' });
    const cs = await unitsOf(api, 'aurora/app/cs');
    await api.patch(`units/${findUnit(cs, 'Save').id}/`, {
      target: ['Uložit změny'],
      state: STATE.translated,
    });
    // The last sync read the complete lists; within the hour, this one follows the changes.
    const result = await syncWeblate(weblate.current, db, { discoveryIntervalSeconds: 3600 });
    expect([result.mode, result.status, result.error]).toEqual(['incremental', 'succeeded', null]);
    const lists = ['languages', 'projects', 'components'].filter((r) => r in requestsOf(result));
    expect(lists).toEqual([]);
    // One translation list per component that the run's new changes name (borealis/web and
    // aurora/app, and any other that Weblate logged a change on meanwhile).
    const named = await sql<{ id: number }>`
      select distinct component_id as id from weblate.changes
      where component_id is not null
        and first_seen_at >= (select started_at from weblate.sync_runs where id = ${result.runId})`.execute(
      db,
    );
    expect(named.rows.length).toBeGreaterThanOrEqual(2);
    expect(requestsOf(result).translations).toBe(named.rows.length);
    expect(requestsOf(result).changes).toBe(1);
    await expectEqualToFreshAndWeblate();
  });

  it('follows a new language and a removed translation, component and project', async () => {
    const api = weblate.current.admin;
    await api.post('components/aurora/app/translations/', { language_code: 'it' });
    await api.delete('translations/aurora/app/ja/');
    await api.delete('components/borealis/web/');
    await api.delete('projects/cirrus/');
    await syncAndCompare();
    const removed = await sql<{ what: string; deleted: boolean }>`
      select 'translation aurora/app/ja' as what, deleted_at is not null as deleted from weblate.translations
        where project_slug = 'aurora' and component_slug = 'app' and language_code = 'ja'
      union all select 'component borealis/web', deleted_at is not null from weblate.components
        where project_slug = 'borealis' and slug = 'web'
      union all select 'project cirrus', deleted_at is not null from weblate.projects where slug = 'cirrus'
      order by 1`.execute(db);
    expect(removed.rows).toEqual([
      { what: 'component borealis/web', deleted: true },
      { what: 'project cirrus', deleted: true },
      { what: 'translation aurora/app/ja', deleted: true },
    ]);
  });
});

/** Changes the kept mirror holds of objects deleted upstream (Weblate deletes them too). */
async function changesOfDeletedObjects(db: Kysely<Database>): Promise<Set<string>> {
  const rows = await sql<{ id: string }>`
    select c.id::text as id from weblate.changes c
    where exists (select 1 from weblate.units u where u.id = c.unit_id and u.deleted_at is not null)
       or exists (select 1 from weblate.translations t where t.id = c.translation_id and t.deleted_at is not null)
       or exists (select 1 from weblate.components m where m.id = c.component_id and m.deleted_at is not null)
       or exists (select 1 from weblate.projects p where p.slug = c.project_slug and p.deleted_at is not null)
       -- A project-level change of the global list names no project: it may be a deleted one's.
       or (c.project_slug is null and exists (select 1 from weblate.projects p where p.deleted_at is not null))`.execute(
    db,
  );
  return new Set(rows.rows.map((r) => r.id));
}

type TranslationStates = Map<number, { text: string; component: string; language: string }>;

async function translationStates(api: TierApi): Promise<TranslationStates> {
  const records = await api.listAll<{
    id: number;
    component: { slug: string; project: { slug: string } };
    language: { code: string };
  }>('translations/');
  return new Map(
    records.map((r) => [
      r.id,
      {
        text: JSON.stringify(r),
        component: `${r.component.project.slug}/${r.component.slug}`,
        language: r.language.code,
      },
    ]),
  );
}

/** Components (still there) and languages of translations that were added, changed or removed. */
function movedTranslations(before: TranslationStates, after: TranslationStates) {
  const components = new Set<string>();
  const languages = new Set<string>();
  for (const [id, state] of after) {
    if (before.get(id)?.text === state.text) continue;
    components.add(state.component);
    languages.add(state.language);
  }
  for (const [id, state] of before) if (!after.has(id)) languages.add(state.language);
  return { components, languages };
}

/** Languages the mirror noted as lagging their translations, to read again. */
async function laggingLanguages(db: Kysely<Database>): Promise<string[]> {
  const rows = await sql<{ code: string }>`
    select l.code from weblate.sync_pending p join weblate.languages l on l.id = p.id
    where p.kind = 'language'`.execute(db);
  return rows.rows.map((r) => r.code);
}
