import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';

let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({ seed: 8, units: 800, changes: 100, users: 3 });
});
afterAll(async () => {
  await sim.close();
});
afterEach(() => {
  sim.setCompat({});
  sim.setSlowUnitPages(null);
});

async function get(path: string): Promise<{ status: number; body: unknown; type: string }> {
  const response = await fetch(`${sim.url}${path}`);
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  return {
    status: response.status,
    body: type.startsWith('application/json') ? JSON.parse(text) : text,
    type,
  };
}

const q = (query: string) => encodeURIComponent(query);

describe('a token of one user on Weblate 5.15 or later (tokenUser)', () => {
  it("answers 403 in Weblate's shape for other users' subscriptions, and 404 for unknown users", async () => {
    const [own, other] = sim.instance.users.filter((u) => u.subscriptions.length > 0);
    sim.setCompat({ tokenUser: own!.username });
    expect((await get(`api/users/${own!.username}/notifications/`)).status).toBe(200);
    expect(await get(`api/users/${other!.username}/notifications/`)).toMatchObject({
      status: 403,
      body: {
        type: 'client_error',
        errors: [
          {
            code: 'permission_denied',
            detail: 'You do not have permission to perform this action.',
            attr: null,
          },
        ],
      },
    });
    expect((await get('api/users/nobody-here/notifications/')).status).toBe(404);
    sim.setCompat({});
    expect((await get(`api/users/${other!.username}/notifications/`)).status).toBe(200);
  });
});

describe('a server before Weblate 5.14 (hasLastChangedSearch: false)', () => {
  it('refuses last_changed in any unit search with 400 on q, and takes id terms', async () => {
    sim.setCompat({ hasLastChangedSearch: false });
    const translation = sim.instance.translations[0]!;
    const path = [
      sim.instance.projects.find(
        (p) => p.id === sim.instance.index.componentById.get(translation.componentId)!.projectId,
      )!.slug,
      sim.instance.index.componentById.get(translation.componentId)!.slug,
      sim.instance.index.languageById.get(translation.languageId)!.code,
    ].join('/');
    for (const list of ['api/units/', `api/translations/${path}/units/`]) {
      expect(await get(`${list}?q=${q('id:<=0 AND last_changed:>=2000-01-01T00:00:00Z')}`)).toEqual(
        {
          status: 400,
          type: 'application/json',
          body: {
            type: 'validation_error',
            errors: [
              {
                code: 'invalid',
                detail: 'Could not parse query string: Unsupported field: last_changed',
                attr: 'q',
              },
            ],
          },
        },
      );
      expect((await get(`${list}?q=${q('id:>0')}`)).status).toBe(200);
    }
    sim.setCompat({});
    expect((await get(`api/units/?q=${q('last_changed:>=2000-01-01T00:00:00Z')}`)).status).toBe(
      200,
    );
  });
});

describe('a server without the global unit list (hasGlobalUnitList: false)', () => {
  it('answers 404 for /api/units/ and keeps single units and translation lists', async () => {
    sim.setCompat({ hasGlobalUnitList: false });
    const unit = sim.instance.units[0]!;
    expect((await get('api/units/')).status).toBe(404);
    expect((await get(`api/units/?q=${q('id:<=0')}`)).status).toBe(404);
    expect((await get(`api/units/${unit.id}/`)).status).toBe(200);
    const translations = (await get('api/translations/')).body as {
      results: Array<{ units_list_url: string }>;
    };
    const units = await fetch(translations.results[0]!.units_list_url);
    expect(units.status).toBe(200);
  });
});

describe('a server before Weblate 5.0.1 (hasObjectIds: false)', () => {
  it('sends languages, projects, components and translations without id, units with theirs', async () => {
    sim.setCompat({ hasObjectIds: false });
    const project = sim.instance.projects[0]!;
    const component = sim.instance.components.find((c) => c.projectId === project.id)!;
    for (const list of [
      'api/languages/',
      'api/projects/',
      `api/projects/${project.slug}/components/`,
      'api/components/',
      `api/components/${project.slug}/${component.slug}/translations/`,
      'api/translations/',
    ]) {
      const body = (await get(list)).body as { results: Array<Record<string, unknown>> };
      expect(body.results.length, list).toBeGreaterThan(0);
      expect(
        body.results.filter((r) => 'id' in r),
        list,
      ).toEqual([]);
      expect(body.results.every((r) => typeof r.url === 'string')).toBe(true);
    }
    const detail = (await get(`api/projects/${project.slug}/`)).body as Record<string, unknown>;
    expect([detail.slug, 'id' in detail]).toEqual([project.slug, false]);
    const units = (await get('api/units/?page_size=5')).body as { results: Array<{ id: number }> };
    expect(units.results.map((u) => typeof u.id)).toEqual(Array(5).fill('number'));
    sim.setCompat({});
    expect((await get(`api/projects/${project.slug}/`)).body).toMatchObject({ id: project.id });
  });
});

describe('unit pages too slow for the proxy (slowUnitPages)', () => {
  it('fail with the proxy’s 504 above the limit and are answered at or below it', async () => {
    sim.setSlowUnitPages({ maxResults: 300, failure: '504' });
    const big = await get('api/units/?page_size=301');
    expect([big.status, big.type]).toEqual([504, 'text/html']);
    expect(big.body).toContain('504 Gateway Time-out');
    expect((await get('api/units/?page_size=300')).status).toBe(200);
    // The results count, not the page size asked: a short last page and an empty page pass.
    const total = sim.instance.units.length;
    expect(total - 600).toBeGreaterThan(0);
    expect(total - 600).toBeLessThanOrEqual(300);
    expect((await get('api/units/?page_size=600')).status).toBe(504);
    expect((await get('api/units/?page_size=600&page=2')).status).toBe(200);
    expect((await get(`api/units/?page_size=10000&q=${q('id:<=0')}`)).status).toBe(200);
    const failed = sim.requests.entries.filter((e) => e.status === 504).length;
    expect(failed).toBeGreaterThanOrEqual(1);
  });

  it('go silent above the limit when the failure is a hang', async () => {
    sim.setSlowUnitPages({ maxResults: 300, failure: 'hang', hangMs: 5000 });
    await expect(
      fetch(`${sim.url}api/units/?page_size=400`, { signal: AbortSignal.timeout(300) }),
    ).rejects.toThrow();
    expect((await get('api/units/?page_size=200')).status).toBe(200);
    sim.setSlowUnitPages(null);
    expect((await get('api/units/?page_size=400')).status).toBe(200);
  });
});
