import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { DbHandle } from '../../src/db/client.ts';
import { type Release, type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { useTestDatabases } from '../helpers/database.ts';
import { SMALL_INSTANCE } from '../helpers/simulator-mirror.ts';
import { syncSimulator } from '../helpers/sync.ts';

/**
 * Weblate before 5.15 nests a subscription's project or component as an object; 5.15 and
 * later send its API URL (weblate/api/serializers.py, NotificationSerializer). Either way the
 * typed columns name the same objects.
 */
const databases = useTestDatabases();
let sim: RunningSimulator;

beforeAll(async () => {
  // Four full syncs: strings and changes are incidental, the subscriptions are the users'.
  sim = await startSimulator({ ...SMALL_INSTANCE, units: 60, changes: 30, users: 3 });
});
afterAll(async () => {
  await sim.close();
});

interface Target {
  id: number;
  scope: number;
  project: string | null;
  component: string | null;
  project_id: number | null;
  component_id: number | null;
}

async function targets(handle: DbHandle): Promise<Target[]> {
  const result = await sql<Target>`
    select id, scope, project, component, project_id, component_id
    from weblate.notification_subscriptions where deleted_at is null order by id`.execute(
    handle.db,
  );
  return result.rows;
}

/** A fresh mirror of the simulator answering as `release`, in `projects` (null: all). */
async function mirrorAs(release: Release, projects: string[] | null = null): Promise<DbHandle> {
  const handle = await databases.migrated();
  sim.setCompat({ release });
  try {
    const result = await syncSimulator(sim, handle, { projects });
    expect([result.status, result.summary.rejected]).toEqual(['succeeded', 0]);
  } finally {
    sim.setCompat({});
  }
  return handle;
}

/** What the generated subscriptions name: slugs and ids of their project or component. */
function expected(): Target[] {
  const { index } = sim.instance;
  return sim.instance.users
    .filter((u) => u.subscriptions.length > 0)
    .flatMap((u) => u.subscriptions)
    .map((s) => {
      const component = s.componentId === null ? undefined : index.componentById.get(s.componentId);
      const projectId = s.projectId ?? component?.projectId ?? null;
      return {
        id: s.id,
        scope: s.scope,
        project: projectId === null ? null : index.projectById.get(projectId)!.slug,
        component: component?.slug ?? null,
        project_id: s.projectId,
        component_id: s.componentId,
      };
    })
    .sort((a, b) => a.id - b.id);
}

describe('the project and component of a notification subscription', () => {
  it('are the same slugs and ids whether the server nests them (5.14) or links them (5.15, 2026)', async () => {
    const want = expected();
    expect(want.some((t) => t.scope === 30)).toBe(true);
    expect(want.some((t) => t.scope === 40)).toBe(true);
    for (const release of ['5.14', '5.15', '2026'] as const) {
      expect(await targets(await mirrorAs(release)), release).toEqual(want);
    }
  });

  it('keep the slugs of a linked object the mirror does not hold, without an id', async () => {
    const want = expected();
    const named = want.find((t) => t.scope === 30)!;
    const others = sim.instance.projects.map((p) => p.slug).filter((s) => s !== named.project);
    const mirrored = await targets(await mirrorAs('2026', others));
    const outside = new Set(
      sim.instance.projects.map((p) => p.slug).filter((s) => !others.includes(s)),
    );
    expect(mirrored).toEqual(
      want.map((t) =>
        t.project !== null && outside.has(t.project)
          ? { ...t, project_id: null, component_id: null }
          : t,
      ),
    );
  });
});
