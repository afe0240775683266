import { request } from 'node:http';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  renderChange,
  renderComponent,
  renderSubscription,
  renderTranslation,
  renderUnit,
  type RunningSimulator,
  type SimTranslation,
  siteLinks,
  startSimulator,
  toJsonText,
} from '../../src/simulator/index.ts';
import { LARGE_PAGINATION, pageSizeOf } from '../../src/simulator/pagination.ts';
import type { SimRequest } from '../../src/simulator/responses.ts';

let sim: RunningSimulator;
let cs: SimTranslation;

beforeAll(async () => {
  sim = await startSimulator({ seed: 1 });
  cs = sim.instance.index.translationByPath.get('hello/core/cs')!;
});
afterAll(async () => {
  await sim.close();
});

interface Reply {
  status: number;
  headers: Headers;
  text: string;
  body: Record<string, unknown>;
}

async function get(path: string, init?: RequestInit): Promise<Reply> {
  const response = await fetch(`${sim.url}${path}`, init);
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>),
  };
}

const NOT_FOUND = {
  type: 'client_error',
  errors: [{ code: 'not_found', detail: 'Not found.', attr: null }],
};
const INVALID_PAGE = {
  type: 'client_error',
  errors: [{ code: 'not_found', detail: 'Invalid page.', attr: null }],
};

describe('pagination', () => {
  it('pages a translation unit list like DRF, in id order, matching the translation total', async () => {
    const path = 'api/translations/hello/core/cs/units/';
    const first = await get(path);
    expect(first.body.previous).toBeNull();
    expect(first.body.next).toBe(`${sim.url}${path}?page=2`);
    expect(first.body.results).toHaveLength(50);
    const second = await get(`${path}?page=2`);
    expect(second.body.previous).toBe(`${sim.url}${path}`);
    expect(second.body.next).toBe(`${sim.url}${path}?page=3`);
    const ids: number[] = [];
    let next: unknown = `${sim.url}${path}?page_size=60`;
    while (typeof next === 'string') {
      const page = await get(next.slice(sim.url.length));
      const results = page.body.results as { id: number; translation: string }[];
      for (const unit of results)
        expect(unit.translation).toBe(`${sim.url}api/translations/hello/core/cs/`);
      ids.push(...results.map((u) => u.id));
      next = page.body.next;
    }
    const expected = sim.instance.index.unitsByTranslation.get(cs.id)!.map((u) => u.id);
    expect(ids).toEqual(expected);
    expect(first.body.count).toBe(expected.length);
    expect((await get('api/translations/hello/core/cs/')).body.total).toBe(expected.length);
  });

  it('keeps the parameters sorted in page links, and format in every API link only when asked', async () => {
    const page = await get('api/units/?page_size=1000&q=id%3A%3E5&format=json');
    expect(page.body.next).toBe(
      `${sim.url}api/units/?format=json&page=2&page_size=1000&q=id%3A%3E5`,
    );
    const first = (page.body.results as Array<Record<string, string>>)[0]!;
    expect([first.url, first.web_url]).toEqual([
      `${sim.url}api/units/${first.id}/?format=json`,
      expect.not.stringContaining('format='),
    ]);
    const last = await get('api/units/?page=last&page_size=1000');
    const count = last.body.count as number;
    expect(last.body.next).toBeNull();
    expect(last.body.previous).toBe(
      `${sim.url}api/units/?page=${Math.ceil(count / 1000) - 1}&page_size=1000`,
    );
    const unit = (last.body.results as Array<Record<string, string>>)[0]!;
    expect(unit.url).toBe(`${sim.url}api/units/${unit.id}/`);
  });

  it('uses default page sizes and caps large ones', async () => {
    expect((await get('api/changes/')).body.results).toHaveLength(50);
    expect((await get('api/changes/?page_size=5000')).body.results).toHaveLength(1000);
    expect((await get('api/units/')).body.results).toHaveLength(200);
    expect((await get('api/units/?page_size=20000')).body.results).toHaveLength(10_000);
    for (const invalid of ['0', '-3', 'abc', '']) {
      expect((await get(`api/changes/?page_size=${invalid}`)).body.results).toHaveLength(50);
    }
    const request = (query: string): SimRequest => ({
      method: 'GET',
      url: new URL(`http://x/api/units/?${query}`),
      baseUrl: 'http://x/',
      headers: {},
    });
    expect(pageSizeOf(request('page_size=20000'), LARGE_PAGINATION)).toBe(10_000);
    expect(pageSizeOf(request('page_size=7&page_size=9'), LARGE_PAGINATION)).toBe(9);
  });

  it('answers 404 "Invalid page." past the end or for a bad page', async () => {
    const count = (await get('api/translations/hello/core/cs/units/')).body.count as number;
    for (const page of [String(Math.ceil(count / 50) + 1), '0', 'abc', '1.5']) {
      const reply = await get(`api/translations/hello/core/cs/units/?page=${page}`);
      expect(reply.status).toBe(404);
      expect(reply.body).toEqual(INVALID_PAGE);
    }
  });
});

describe('errors, methods and paths', () => {
  it('answers 404 with Weblate 5.10 bodies for unknown objects and paths', async () => {
    for (const path of [
      'api/projects/nope/',
      'api/units/999999999/',
      'api/units/abc/',
      'api/translations/hello/core/xx/units/',
      'api/users/nobody/',
      'api/changes/0/',
      'api/nothing/',
    ]) {
      const reply = await get(path);
      expect(reply.status, path).toBe(404);
      expect(reply.body, path).toEqual(NOT_FOUND);
      expect(reply.headers.get('content-type')).toBe('application/json');
    }
  });

  it('requires the trailing slash', async () => {
    for (const path of [
      'api',
      'api/projects',
      'api/translations/hello/core/cs/units',
      'api/users/alice',
    ]) {
      expect((await get(path)).status, path).toBe(404);
    }
  });

  it('sends Content-Type, Vary and the Allow header of each view', async () => {
    const allow = {
      'api/translations/hello/core/cs/': 'GET, DELETE, HEAD, OPTIONS',
      'api/translations/hello/core/cs/units/': 'GET, POST, HEAD, OPTIONS',
      'api/translations/hello/core/cs/changes/': 'GET, HEAD, OPTIONS',
      'api/translations/hello/core/cs/statistics/': 'GET, HEAD, OPTIONS',
      'api/languages/cs/statistics/': 'GET, HEAD, OPTIONS',
      'api/users/alice/notifications/': 'GET, POST, HEAD, OPTIONS',
      'api/projects/hello/components/': 'GET, POST, HEAD, OPTIONS',
    };
    for (const [path, methods] of Object.entries(allow)) {
      const reply = await get(`${path}?format=api`);
      expect(reply.status, path).toBe(200);
      expect(reply.headers.get('allow'), path).toBe(methods);
      expect(reply.headers.get('vary')).toBe('Accept, Cookie, origin');
      expect(reply.headers.get('content-type')).toBe('application/json');
    }
  });

  it('answers HEAD without a body and refuses writes with 405', async () => {
    const head = await fetch(`${sim.url}api/projects/`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(0);
    const post = await get('api/translations/hello/core/cs/units/', { method: 'POST', body: '{}' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, POST, HEAD, OPTIONS');
    expect(post.body).toEqual({
      type: 'client_error',
      errors: [{ code: 'method_not_allowed', detail: 'Method "POST" not allowed.', attr: null }],
    });
  });

  it('counts requests by path and resets', async () => {
    sim.requests.reset();
    await get('api/projects/?page=1');
    await get('api/projects/?page_size=2');
    await get('api/languages/');
    expect(sim.requests.total).toBe(3);
    expect(sim.requests.byPath.get('/api/projects/')).toBe(2);
    expect(sim.requests.byPath.get('/api/languages/')).toBe(1);
  });

  it('refuses non-loopback hosts', async () => {
    await expect(startSimulator({ host: '0.0.0.0', units: 10, changes: 1 })).rejects.toThrow(
      /loopback/,
    );
  });
});

describe('serialisation', () => {
  it('sends exactly the rendered objects, with hashes exact on the wire', async () => {
    const unit = sim.instance.units.find((u) => u.idHash > 2n ** 53n)!;
    const reply = await get(`api/units/${unit.id}/`);
    expect(reply.text).toBe(toJsonText(renderUnit(sim.instance, siteLinks(sim.url), unit)));
    expect(reply.text).toContain(`"id_hash":${unit.idHash}`);
    const change = sim.instance.changes[42]!;
    expect((await get(`api/changes/${change.id}/`)).text).toBe(
      toJsonText(renderChange(sim.instance, siteLinks(sim.url), change)),
    );
  });

  it('nests the project in global component lists and leaves it out in project lists', async () => {
    const component = sim.instance.index.componentByPath.get('hello/core')!;
    const global = (await get('api/components/')).body.results as Record<string, unknown>[];
    expect(global[0]).toHaveProperty('project.slug');
    const scoped = (await get('api/projects/hello/components/')).body.results as Record<
      string,
      unknown
    >[];
    expect(scoped[0]).not.toHaveProperty('project');
    const detail = await get('api/components/hello/core/');
    expect(detail.text).toBe(
      toJsonText(renderComponent(sim.instance, siteLinks(sim.url), component)),
    );
  });

  it('nests the component in global translation lists and leaves it out in component lists', async () => {
    const global = (await get('api/translations/')).body.results as Record<string, unknown>[];
    expect(global[0]).toHaveProperty('component.project.slug');
    const scoped = await get('api/components/hello/core/translations/');
    const results = scoped.body.results as Record<string, unknown>[];
    expect(results[0]).not.toHaveProperty('component');
    const expected = toJsonText(
      renderTranslation(sim.instance, siteLinks(sim.url), cs, 'without-component'),
    );
    expect(scoped.text).toContain(expected);
    expect(expected).toMatch(/"translated_percent":\d+\.\d/);
  });

  it('serves users, subscriptions and languages', async () => {
    expect((await get('api/users/alice/')).body).toEqual({
      id: 2,
      full_name: 'Alice Anderson',
      username: 'alice',
    });
    const alice = sim.instance.index.userByUsername.get('alice')!;
    const page = await get('api/users/alice/notifications/');
    expect(page.body.count).toBe(alice.subscriptions.length);
    for (const subscription of alice.subscriptions.slice(0, 50)) {
      expect(page.text).toContain(
        toJsonText(renderSubscription(sim.instance, siteLinks(sim.url), subscription)),
      );
    }
    expect((await get('api/users/anonymous/notifications/')).body.count).toBe(0);
    const languages = await get('api/languages/?page_size=1000');
    expect(languages.body.count).toBe(sim.instance.languages.length);
    expect((await get('api/languages/pt_BR/')).body).toMatchObject({
      code: 'pt_BR',
      plural: { number: 2 },
    });
  });

  it('builds links from its site URL whatever Host the client sent, as Weblate does', async () => {
    const links = async (host: string) => {
      const body = await new Promise<string>((resolve, reject) => {
        const asked = request(
          `${sim.url}api/projects/?page_size=1`,
          { headers: { host } },
          (res) => {
            let text = '';
            res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
            res.on('end', () => resolve(text));
          },
        );
        asked.on('error', reject).end();
      });
      const page = JSON.parse(body) as { next: string; results: Array<{ url: string }> };
      return [page.next, page.results[0]!.url];
    };
    const expected = [
      `${sim.url}api/projects/?page=2&page_size=1`,
      `${sim.url}api/projects/hello/`,
    ];
    expect(await links('localhost:9')).toEqual(expected);
    sim.setSiteUrl('https://weblate.example:8443/');
    try {
      expect(await links('localhost:9')).toEqual(
        expected.map((url) => url.replace(sim.url, 'https://weblate.example:8443/')),
      );
    } finally {
      sim.setSiteUrl(null);
    }
    expect(await links(new URL(sim.url).host)).toEqual(expected);
    expect(() => sim.setSiteUrl('https://weblate.example/sub/')).toThrow(/origin/);
  });
});

describe('unit filters', () => {
  it('filters by id bounds joined with AND', async () => {
    const units = sim.instance.index.unitsByTranslation.get(cs.id)!;
    const pivot = units[20]!.id;
    const reply = await get(
      `api/translations/hello/core/cs/units/?q=${encodeURIComponent(`id:>${pivot} AND id:<=${pivot + 30}`)}`,
    );
    const expected = units.filter((u) => u.id > pivot && u.id <= pivot + 30).map((u) => u.id);
    expect((reply.body.results as { id: number }[]).map((u) => u.id)).toEqual(expected);
    expect(reply.body.count).toBe(expected.length);
  });

  it('filters by last_changed with an offset, and by project, component and language', async () => {
    const since = '2025-01-01T02:00:00+02:00';
    const cutoff = Date.UTC(2025, 0, 1) * 1000;
    const expected = sim.instance.units
      .filter(
        (u) =>
          u.lastUpdatedUs >= cutoff &&
          sim.instance.index.translationById.get(u.translationId)!.languageId === cs.languageId,
      )
      .map((u) => u.id);
    expect(expected.length).toBeGreaterThan(0);
    const q = encodeURIComponent(`last_changed:>=${since} AND language:cs`);
    const reply = await get(`api/units/?page_size=10000&q=${q}`);
    expect((reply.body.results as { id: number }[]).map((u) => u.id)).toEqual(expected);
    const scoped = await get(
      `api/units/?q=${encodeURIComponent('project:hello component:core language:cs')}`,
    );
    expect(scoped.body.count).toBe(sim.instance.index.unitsByTranslation.get(cs.id)!.length);
  });

  it('rejects queries it cannot parse with a validation error on q', async () => {
    const reply = await get(`api/units/?q=${encodeURIComponent('state:>=translated')}`);
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({
      type: 'validation_error',
      errors: [{ code: 'invalid', attr: 'q' }],
    });
    const errors = reply.body.errors as { detail: string }[];
    expect(errors[0]!.detail).toMatch(/^Could not parse query string: /);
  });
});

describe('change filters', () => {
  const changes = (): RunningSimulator['instance']['index']['changesNewestFirst'] =>
    sim.instance.index.changesNewestFirst;

  it('lists newest first, ties broken by id descending', async () => {
    const reply = await get('api/changes/?page_size=1000');
    const ids = (reply.body.results as { id: number }[]).map((c) => c.id);
    expect(ids).toEqual(
      changes()
        .slice(0, 1000)
        .map((c) => c.id),
    );
    const list = changes();
    for (let i = 1; i < list.length; i += 1) {
      const [a, b] = [list[i - 1]!, list[i]!];
      expect(
        a.timestampUs > b.timestampUs || (a.timestampUs === b.timestampUs && a.id > b.id),
      ).toBe(true);
    }
  });

  it('treats timestamp_after and timestamp_before as inclusive', async () => {
    const oldest = changes().at(-1)!;
    expect(
      (await get(`api/changes/?timestamp_after=${encodeURIComponent(oldest.timestamp)}`)).body
        .count,
    ).toBe(changes().length);
    const tie = sim.instance.changes.find(
      (c, i) => i > 0 && c.timestamp === sim.instance.changes[i - 1]!.timestamp,
    )!;
    const both = encodeURIComponent(tie.timestamp);
    const reply = await get(`api/changes/?timestamp_after=${both}&timestamp_before=${both}`);
    const expected = changes()
      .filter((c) => c.timestampUs === tie.timestampUs)
      .map((c) => c.id);
    expect(expected.length).toBeGreaterThanOrEqual(2);
    expect((reply.body.results as { id: number }[]).map((c) => c.id)).toEqual(expected);
  });

  it('filters by repeated action and by acting user within a scope', async () => {
    const reply = await get('api/projects/hello/changes/?action=59&action=0&user=&page_size=1000');
    const expected = changes().filter(
      (c) => c.projectId === 1 && (c.action === 59 || c.action === 0),
    );
    expect(reply.body.count).toBe(expected.length);
    const byUser = await get(`api/translations/hello/core/cs/changes/?user=alice&page_size=1000`);
    const aliceIds = changes()
      .filter((c) => c.translationId === cs.id && c.user === 'alice')
      .map((c) => c.id);
    expect((byUser.body.results as { id: number }[]).map((c) => c.id)).toEqual(aliceIds);
    const future = await get('api/changes/?action=150');
    expect(future.body.results).toMatchObject([{ action: 150, action_name: 'Future action' }]);
  });

  it('rejects unknown actions and invalid timestamps', async () => {
    const action = await get('api/changes/?action=999');
    expect(action.status).toBe(400);
    expect(action.body).toEqual({
      type: 'validation_error',
      errors: [
        {
          code: 'invalid_choice',
          detail: 'Select a valid choice. 999 is not one of the available choices.',
          attr: 'action',
        },
      ],
    });
    // An unencoded "+" arrives as a space, which is not a valid date/time.
    const plus = await get('api/changes/?timestamp_after=2024-06-01T10:00:00+02:00');
    expect(plus.status).toBe(400);
    expect(plus.body).toMatchObject({ errors: [{ attr: 'timestamp', code: 'invalid' }] });
  });
});
