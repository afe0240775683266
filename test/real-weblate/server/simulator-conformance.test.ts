import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type RunningSimulator, startSimulator } from '../../../src/simulator/index.ts';
import {
  addLinkForms,
  addShape,
  compareLinkForms,
  compareShapes,
  type Shape,
  type ShapeRules,
} from '../../helpers/json-shape.ts';
import {
  type Answer,
  type ChangeRecord,
  compareErrorBodies,
  compareHeaders,
  displayName,
  fetchAnswer,
  listAll,
  orderOf,
  pageSize,
  prepareWeblate,
  relativeLink,
  type Side,
  simulatorSide,
  type TranslationRecord,
  walkPages,
} from '../harness/conformance-sides.ts';
import { useWeblate } from '../harness/instance.ts';
import { TIER_RELEASE, TIER_SIM_RELEASE } from '../harness/release.ts';

/**
 * The simulator against a real Weblate (test/real-weblate/versions), side by side, on every endpoint the mirror
 * reads: the same shapes (fields and their JSON types, recursively), the same link forms,
 * the same paging (default and largest page sizes, order, next links), the same headers
 * and the same error answers. The data differs; what the server does with it must not.
 */
const weblate = useWeblate('simulator-conformance');
const SIM_TOKEN = 'wlu_conformance_simulator_token';

let sim: RunningSimulator;
let real: Side;
let simulated: Side;

beforeAll(async () => {
  // Configured like the tier's Weblate: a token's budget of 5,000 requests an hour, one token.
  sim = await startSimulator({
    seed: 12,
    projects: 2,
    components: 4,
    languages: 4,
    units: 800,
    changes: 1500,
    users: 3,
    rateLimit: { limit: 5000, windowSeconds: 3600, headers: true },
    token: SIM_TOKEN,
    compat: { release: TIER_SIM_RELEASE },
    // The seed labels source strings: the simulator's units carry labels too.
    categoriesAndLabels: true,
  });
  real = await prepareWeblate(weblate.current);
  simulated = simulatorSide(sim, SIM_TOKEN);
  // An alert in the compared project, as prepareWeblate raises one (changes carry it since 2026).
  const { index, projects } = sim.instance;
  const project = projects.find((p) => p.slug === simulated.project)!;
  const component = index.componentsByProject
    .get(project.id)!
    .find((c) => `${project.slug}/${c.slug}` === simulated.component)!;
  sim.mutate.addChanges(index.translationsByComponent.get(component.id)![0]!.id, 1, {
    action: 47,
    user: null,
    details: { alert: 'BrokenProjectURL' },
  });
});

afterAll(async () => {
  await sim?.close();
});

/**
 * Where the two may differ and why: fields null on one side and a value on the other where
 * that depends on the data, free-form objects, and links whose form is data.
 */
const SHAPE_RULES: ShapeRules = {
  nullable: {
    next: 'null on the last page',
    previous: 'null on the first page',
    last_change: 'null for a translation (or language) without any change yet',
    last_author: 'null when the newest change has no author (a scan, an upload by the system)',
    license_url: 'null unless the component has a license Weblate knows',
    linked_component: 'a link only for a component that shares another’s repository',
    task_url: 'a link only while a background task of the component runs',
    unit: 'null for a change of a translation, component or project, not of a string',
    translation: 'null for a change of a component or project',
    component: 'null for a change of a project; set only for component-scope subscriptions',
    project: 'set only for project-scope subscriptions',
    user: 'null for a change Weblate made itself',
    author: 'null for a change Weblate made itself',
    addon: 'a link only for a change of an add-on the token may see (2026)',
    alert: 'an object only for a change of an alert (2026)',
    translation_parent: 'a link only for a translation from a parent language (2026)',
    category: 'a link only for a component in a category',
  },
  opaque: {
    details: 'a change’s details: free-form, keys depend on the action',
    file_format_params: 'per-format settings, keys depend on the file format',
  },
  linkData: {
    git_export: 'stored when the component was created: the tier seeded it under another port',
    // Weblate addresses a component in a category by its path, one more segment per
    // category; the simulator's web links leave the categories out.
    web_url: 'one more path segment per category that holds the component',
    translate_url: 'one more path segment per category that holds the component',
  },
};

/** Lists the mirror walks (all their pages are compared), by the paths each side has. */
const LISTS: ReadonlyArray<[string, (side: Side) => string]> = [
  ['languages', () => 'languages/'],
  ['projects', () => 'projects/'],
  ['a project’s components', (s) => `projects/${s.project}/components/`],
  ['components', () => 'components/'],
  ['a component’s translations', (s) => `components/${s.component}/translations/`],
  ['translations', () => 'translations/'],
  ['units', () => 'units/'],
  ['units by id', () => `units/?q=${encodeURIComponent('id:>5')}`],
  ['a translation’s units', (s) => `translations/${s.target}/units/`],
  ['a project’s changes', (s) => `projects/${s.project}/changes/`],
  [
    'changes in a window',
    () => 'changes/?timestamp_after=2000-01-01T00:00:00Z&timestamp_before=2100-01-01T00:00:00Z',
  ],
  ['component statistics', (s) => `components/${s.component}/statistics/`],
  ['notification subscriptions', (s) => `users/${s.user}/notifications/`],
];

/** Single objects the mirror reads. */
const OBJECTS: ReadonlyArray<[string, (side: Side) => string]> = [
  ['source translation statistics', (s) => `translations/${s.source}/statistics/`],
  ['translation statistics', (s) => `translations/${s.target}/statistics/`],
  ['source language statistics', (s) => `languages/${s.sourceCode}/statistics/`],
  ['language statistics', (s) => `languages/${s.targetCode}/statistics/`],
];

async function shapesOf(side: Side, path: string) {
  const shape: Shape = new Map();
  const links = new Map<string, Set<string>>();
  const answers =
    path.includes('statistics/') && !path.startsWith('components/')
      ? [await fetchAnswer(side, path)]
      : await walkPages(side, path, 1000);
  for (const answer of answers) {
    addShape(answer.json, shape);
    addLinkForms(answer.json, side.site, links);
  }
  return { shape, links, answers };
}

describe(`the simulator beside a real Weblate ${TIER_RELEASE}`, () => {
  it('answers every endpoint the mirror reads with the same fields, types and link forms', async () => {
    const differences: string[] = [];
    const unverified: string[] = [];
    for (const [name, pathOf] of [...LISTS, ...OBJECTS]) {
      const [a, b] = [
        await shapesOf(real, pathOf(real)),
        await shapesOf(simulated, pathOf(simulated)),
      ];
      const unseen = new Set<string>();
      const found = [
        ...compareShapes(a.shape, b.shape, SHAPE_RULES, unseen),
        ...compareLinkForms(a.links, b.links, SHAPE_RULES),
        ...compareHeaders(a.answers[0]!, b.answers[0]!),
      ];
      differences.push(...found.map((line) => `${name}: ${line}`));
      unverified.push(...[...unseen].map((path) => `${name}: ${path}`));
    }
    expect(differences).toEqual([]);
    // What neither side could show (always-empty arrays, always-null objects) stays in view.
    expect(unverified).toEqual(EXPECTED_UNVERIFIED);
  });

  it('answers the errors the mirror handles alike', async () => {
    const cases: ReadonlyArray<[string, (side: Side) => Promise<Answer>]> = [
      ['unknown project', (s) => fetchAnswer(s, 'projects/no-such-project/')],
      [
        'unknown project’s components',
        (s) => fetchAnswer(s, 'projects/no-such-project/components/'),
      ],
      ['malformed q', (s) => fetchAnswer(s, `units/?q=${encodeURIComponent('(((')}`)],
      ['page past the end', (s) => fetchAnswer(s, 'projects/?page=99')],
      [
        'wrong token',
        (s) => fetchAnswer({ ...s, token: 'wlu_not_a_token_of_this_instance' }, 'projects/'),
      ],
    ];
    const differences: string[] = [];
    for (const [name, ask] of cases) {
      const [a, b] = [await ask(real), await ask(simulated)];
      const found = [
        ...(a.status === b.status ? [] : [`status: real ${a.status}, simulator ${b.status}`]),
        ...compareShapes(addShape(a.json, new Map()), addShape(b.json, new Map()), SHAPE_RULES),
        ...compareHeaders(a, b),
        ...compareErrorBodies(name, a.json, b.json),
      ];
      differences.push(...found.map((line) => `${name}: ${line}`));
    }
    expect(differences).toEqual([]);
  });

  it('pages alike: default and largest page sizes, order, and the links to other pages', async () => {
    const differences: string[] = [];
    const note = (what: string, a: unknown, b: unknown) => {
      const [x, y] = [JSON.stringify(a), JSON.stringify(b)];
      if (x !== y) differences.push(`${what}: real ${x}, simulator ${y}`);
    };
    for (const path of PAGE_SIZE_PATHS) {
      const [a, b] = [await pageSize(real, path), await pageSize(simulated, path)];
      // Only a list longer than the page shows the size the server chose.
      expect(Math.min(a.count, b.count), path).toBeGreaterThan(Math.max(a.size, b.size));
      note(`page size of ${path}`, a.size, b.size);
    }
    for (const [name, pathOf] of LISTS)
      note(
        `order of ${name}`,
        await orderOf(real, pathOf(real)),
        await orderOf(simulated, pathOf(simulated)),
      );
    for (const path of LINK_PATHS) {
      const [a, b] = [await fetchAnswer(real, path), await fetchAnswer(simulated, path)];
      for (const key of ['next', 'previous'] as const)
        note(`${key} of ${path}`, relativeLink(real, a, key), relativeLink(simulated, b, key));
    }
    expect(differences).toEqual([]);
  });

  it('dates a translation by its newest change of any kind, the source one included', async () => {
    const wrong: string[] = [];
    for (const side of [real, simulated]) {
      for (const translation of await listAll<TranslationRecord>(side, 'translations/')) {
        const changes = await fetchAnswer(side, `${translation.changes_list_url}?page_size=1`);
        const newest = (changes.json as { results: ChangeRecord[] }).results[0];
        const expected = [newest?.timestamp ?? null, await displayName(side, newest?.author)];
        const found = [translation.last_change, translation.last_author];
        if (JSON.stringify(found) !== JSON.stringify(expected))
          wrong.push(
            `${side.site} ${translation.url}: ${JSON.stringify(found)}, newest change ${JSON.stringify(expected)}`,
          );
      }
    }
    expect(wrong).toEqual([]);
  });

  it('writes links from its own site address, whatever Host the client sent', async () => {
    const wrong: string[] = [];
    for (const [name, side] of [
      ['real', real],
      ['simulator', simulated],
    ] as const) {
      const host = `localhost:${new URL(side.site).port}`;
      const answer = await fetchAnswer(side, 'projects/?page_size=1', { host });
      const body = answer.json as { next: string; results: Array<{ url: string }> };
      for (const link of [body.next, body.results[0]!.url])
        if (!link.startsWith(side.site)) wrong.push(`${name}: ${link}`);
    }
    expect(wrong).toEqual([]);
  });
});

/**
 * Lists longer than a page, asked without a size, above the largest, and with bad sizes:
 * changes for the standard pagination (50, at most 1,000), units for the large one (200).
 * The large one's maximum (10,000) would need a longer list than the tier's Weblate holds.
 */
const PAGE_SIZE_PATHS = [
  'changes/',
  'changes/?page_size=5000',
  'changes/?page_size=0',
  'changes/?page_size=-3',
  'changes/?page_size=abc',
  'units/',
];

/** Requests whose parameters are out of order, repeated, unknown or encoded. */
const LINK_PATHS = [
  'changes/',
  'changes/?timestamp_before=2100-01-01T00:00:00Z&timestamp_after=2000-01-01T00:00:00.000Z&page_size=2&action=0&action=5&zeta=1&alpha=%20x+y&page=2',
  `units/?q=${encodeURIComponent('id:>5')}&page_size=3&page=2`,
  'changes/?page=2&page_size=1&format=json',
];

/**
 * Paths whose shape one side could not show (an array always empty, an object always null
 * there): none, since the preparation adds an enforced check and scoped subscriptions.
 */
const EXPECTED_UNVERIFIED: string[] = [];
