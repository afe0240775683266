import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';

import { countRows } from '../../src/db/queries/status.ts';
import type { SyncScope } from '../../src/sync/context.ts';
import { createTestClient } from '../helpers/client.ts';
import { captureLogger } from '../helpers/logs.ts';
import { useSimulatorMirror } from '../helpers/simulator-mirror.ts';
import { servedTargets, syncAsWriter } from '../helpers/sync.ts';

const mirror = useSimulatorMirror({
  seed: 5,
  projects: 3,
  components: 5,
  languages: 4,
  units: 1500,
  changes: 900,
  users: 2,
});

async function sync(scope: SyncScope) {
  return syncAsWriter(mirror.handle, {
    log: captureLogger().log,
    scope,
    client: () => createTestClient(mirror.sim.url),
  });
}

describe('the scope of a sync', () => {
  it('limits the mirror to the projects named, reading them by slug', async () => {
    const { instance } = mirror.sim;
    const project = instance.projects[1]!;
    mirror.sim.requests.reset();
    const result = await sync({ projects: [project.slug], users: [] });
    expect(result.error).toBeNull();
    const components = instance.components.filter((c) => c.projectId === project.id);
    const componentIds = new Set(components.map((c) => c.id));
    const translations = instance.translations.filter((t) => componentIds.has(t.componentId));
    const translationIds = new Set(translations.map((t) => t.id));
    expect(await countRows(mirror.handle.db)).toMatchObject({
      projects: 1,
      components: components.length,
      translations: translations.length,
      units: instance.units.filter((u) => translationIds.has(u.translationId)).length,
      changes: instance.changes.filter((c) => c.projectId === project.id).length,
      language_statistics: new Set(translations.map((t) => t.languageId)).size,
    });
    expect(mirror.sim.requests.byPath.get('/api/projects/')).toBeUndefined();
    expect(
      servedTargets(mirror.sim, new RegExp(`^/api/projects/${project.slug}/(\\?|$)`)),
    ).toHaveLength(1);
    const slugs = await sql<{
      slug: string;
    }>`select distinct project_slug as slug from weblate.changes`.execute(mirror.handle.db);
    expect(slugs.rows).toEqual([{ slug: project.slug }]);
  });

  it('fails clearly for a project slug the server does not show', async () => {
    const result = await sync({ projects: ['no-such-project'], users: [] });
    expect(result.status).toBe('failed');
    expect(result.error?.message).toBe(
      `WEBLATE_PROJECTS names "no-such-project", but ${mirror.sim.url}api/ has no such project visible to this token`,
    );
  });

  it('fails clearly for a user the server does not show', async () => {
    const project = mirror.sim.instance.projects[0]!;
    const result = await sync({ projects: [project.slug], users: ['nobody-here'] });
    expect(result.status).toBe('failed');
    expect(result.error?.message).toMatch(
      /^WEBLATE_USERS names "nobody-here", but the server shows no such user to this token/,
    );
  });
});
