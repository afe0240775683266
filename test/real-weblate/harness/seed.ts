import { FormData, TierApi } from './api.ts';
import {
  ANDROID_SOURCE,
  ANDROID_TRANSLATIONS,
  androidStrings,
  APP_ENTRIES,
  APP_TRANSLATIONS,
  DOCS_ENTRIES,
  DOCS_TRANSLATIONS,
  poFile,
  WEB_SOURCE,
  WEB_TRANSLATIONS,
} from './seed-files.ts';
import type { TierOp } from './weblate.ts';
import { zipFiles } from './zip.ts';

/** Unit states as Weblate numbers them. */
export const STATE = { empty: 0, fuzzy: 10, translated: 20, approved: 30, readonly: 100 } as const;

/** A label of the seed: the source strings and the translation units that carry it. */
export interface SeedLabel {
  name: string;
  color: string;
  /** Source texts (first form) by component slug (`category/…/slug` in a category). */
  sources: Record<string, readonly string[]>;
  /** Source texts of translation units that carry it themselves, by `project/component/language`. */
  units: Record<string, readonly string[]>;
}

/** What the seeded instance holds: projects and their components, by slug. */
export const SEED = {
  /** The main project: gettext PO with plurals, Android resources, its glossary; review on. */
  aurora: { slug: 'aurora', components: ['app', 'android', 'glossary'] },
  /** Nested JSON. */
  borealis: { slug: 'borealis', components: ['web', 'glossary'] },
  /** Small: the scoped test mirrors it alone. */
  cirrus: { slug: 'cirrus', components: ['docs', 'glossary'] },
  users: ['alice', 'bob'],
  /**
   * Labels by project: each on source strings (so every translation of those strings carries
   * it), by component and source text, and on translation units alone, by translation and
   * source text. Borealis has a label of the same name as one of Aurora's.
   */
  labels: {
    aurora: [
      {
        name: 'Release blocker',
        color: 'red',
        sources: {
          app: ['Hello, world!', '%d file', 'Save', 'Cancel'],
          android: ['Settings'],
        },
        // Its source string carries it too: the unit counts once.
        units: { 'aurora/app/ja': ['Save'] },
      },
      {
        name: 'Überprüfung – Menü ✓',
        color: 'blue',
        sources: {
          app: ['Settings', 'Welcome, {name}!', 'Last synced {date}'],
          android: ['Good morning, %1$s!'],
        },
        units: {},
      },
      {
        name: 'Frage an Übersetzer',
        color: 'orange',
        sources: {},
        // On translation units alone, as Weblate 5.14's automatic translation puts its label.
        units: {
          'aurora/app/ja': [
            'Rocket 🚀 launch in %s seconds',
            '<b>Bold</b> &amp; <i>italic</i> markup',
          ],
        },
      },
    ],
    borealis: [
      {
        name: 'Release blocker',
        color: 'green',
        sources: {
          web: ['Home'],
          'handbooks/guide': ['Installation'],
          'handbooks/howto/faq': ['Chapter %d'],
        },
        units: {},
      },
    ],
  } as Record<'aurora' | 'borealis', readonly SeedLabel[]>,
  /**
   * Borealis's categories: `handbooks` holds the component `guide` and the category `howto`,
   * which holds `faq` (both uploaded into them, from the docs component's files).
   */
  categories: [
    { path: 'handbooks', name: 'Handbücher', component: 'guide' },
    { path: 'handbooks/howto', name: 'How-to ❓', component: 'faq' },
  ],
} as const;

interface Unit {
  id: number;
  source: string[];
  target: string[];
  context: string;
  state: number;
}

/**
 * Creates the tier's data through Weblate's own API, as `admin` (and the other users where a
 * contributor acts): projects, components from uploaded archives (Weblate keeps them in its
 * `local` VCS, no remote needed), languages, edits in every state, suggestions, comments,
 * glossary terms, users and notification subscriptions.
 */
export async function seedWeblate(
  admin: TierApi,
  tokensOf: (usernames: string[]) => Promise<Record<string, string>>,
  ops: (list: TierOp[]) => Promise<unknown[]>,
): Promise<Record<string, string>> {
  await createUsers(admin);
  const tokens = await tokensOf([...SEED.users]);
  const base = admin.apiRoot.href.replace(/api\/$/, '');
  const users = Object.fromEntries(
    Object.entries(tokens).map(([name, token]) => [name, new TierApi(base, token)]),
  );
  await admin.post('projects/', {
    name: 'Aurora',
    slug: 'aurora',
    web: 'https://aurora.example.org/',
    translation_review: true,
    instructions: 'Keep placeholders like {name} and %s.',
  });
  await admin.post('projects/', {
    name: 'Borealis',
    slug: 'borealis',
    web: 'https://borealis.example.org/',
  });
  await admin.post('projects/', {
    name: 'Cirrus ☁',
    slug: 'cirrus',
    web: 'https://cirrus.example.org/',
  });

  await uploadComponent(admin, 'aurora', {
    name: 'App',
    slug: 'app',
    file_format: 'po',
    filemask: 'po/*.po',
    new_base: 'po/app.pot',
    files: {
      'po/app.pot': poFile(APP_ENTRIES, null),
      ...Object.fromEntries(
        Object.entries(APP_TRANSLATIONS).map(([lang, t]) => [
          `po/${lang}.po`,
          poFile(APP_ENTRIES, lang, t),
        ]),
      ),
    },
  });
  await uploadComponent(admin, 'aurora', {
    name: 'Android',
    slug: 'android',
    file_format: 'aresource',
    filemask: 'res/values-*/strings.xml',
    template: 'res/values/strings.xml',
    files: {
      'res/values/strings.xml': androidStrings(ANDROID_SOURCE, {
        key: 'songs',
        forms: { one: '%d song', other: '%d songs' },
      }),
      ...Object.fromEntries(
        Object.entries(ANDROID_TRANSLATIONS).map(([lang, strings]) => [
          `res/values-${lang}/strings.xml`,
          androidStrings(strings, null),
        ]),
      ),
    },
  });
  await uploadComponent(admin, 'borealis', {
    name: 'Web',
    slug: 'web',
    file_format: 'json',
    filemask: 'locales/*.json',
    template: 'locales/en.json',
    files: {
      'locales/en.json': JSON.stringify(WEB_SOURCE, null, 2),
      ...Object.fromEntries(
        Object.entries(WEB_TRANSLATIONS).map(([lang, tree]) => [
          `locales/${lang}.json`,
          JSON.stringify(tree, null, 2),
        ]),
      ),
    },
  });
  await uploadComponent(admin, 'cirrus', {
    name: 'Docs',
    slug: 'docs',
    file_format: 'po',
    filemask: 'docs/*.po',
    new_base: 'docs/docs.pot',
    files: {
      'docs/docs.pot': poFile(DOCS_ENTRIES, null),
      ...Object.fromEntries(
        Object.entries(DOCS_TRANSLATIONS).map(([lang, t]) => [
          `docs/${lang}.po`,
          poFile(DOCS_ENTRIES, lang, t),
        ]),
      ),
    },
  });

  // Languages added afterwards, as a coordinator would.
  await admin.post('components/aurora/app/translations/', { language_code: 'sk' });
  await admin.post('components/aurora/android/translations/', { language_code: 'fr' });
  await admin.post('components/borealis/web/translations/', { language_code: 'pt_BR' });

  await editStrings(admin, users);
  await addGlossaryTerms(admin);
  await addSubscriptions(admin);
  await addCategories(admin);
  await addLabels(admin, ops);
  return tokens;
}

async function createUsers(admin: TierApi): Promise<void> {
  for (const [username, fullName] of [
    ['alice', 'Alice Ålander'],
    ['bob', 'Bob Bäcker'],
  ] as const) {
    await admin.post('users/', {
      username,
      full_name: fullName,
      email: `${username}@example.org`,
      is_active: true,
    });
  }
}

interface UploadSpec {
  name: string;
  slug: string;
  file_format: string;
  filemask: string;
  new_base?: string;
  template?: string;
  /** URL of the category to create the component in. */
  category?: string;
  files: Record<string, string>;
}

async function uploadComponent(admin: TierApi, project: string, spec: UploadSpec): Promise<void> {
  const form = new FormData();
  for (const [key, value] of Object.entries(spec)) {
    if (key !== 'files' && typeof value === 'string') form.set(key, value);
  }
  form.set('source_language', 'en');
  // A multipart form leaves out booleans, which DRF then reads as false: say them.
  form.set('enable_suggestions', 'true');
  form.set('manage_units', 'true');
  if (spec.template !== undefined) form.set('edit_template', 'true');
  form.set(
    'zipfile',
    new Blob([zipFiles(spec.files)], { type: 'application/zip' }),
    `${spec.slug}.zip`,
  );
  await admin.postForm(`projects/${project}/components/`, form);
}

/** Units of one translation, by source text (first form) and context. */
export async function unitsOf(api: TierApi, translation: string): Promise<Unit[]> {
  return api.listAll<Unit>(`translations/${translation}/units/`);
}

export function findUnit(units: Unit[], source: string, context = ''): Unit {
  const unit = units.find((u) => u.source[0] === source && u.context === context);
  if (unit === undefined)
    throw new Error(`no unit with source ${JSON.stringify(source)} (context ${context})`);
  return unit;
}

async function editStrings(admin: TierApi, users: Record<string, TierApi>): Promise<void> {
  const alice = users.alice!;
  const bob = users.bob!;
  // Czech: a contributor translates, a reviewer approves, another string needs editing again.
  const cs = await unitsOf(admin, 'aurora/app/cs');
  await alice.patch(`units/${findUnit(cs, '<b>Bold</b> &amp; <i>italic</i> markup').id}/`, {
    target: ['<b>Tučně</b> &amp; <i>kurzíva</i>'],
    state: STATE.translated,
  });
  await alice.patch(`units/${findUnit(cs, 'Cancel').id}/`, {
    target: ['Zrušit'],
    state: STATE.translated,
  });
  await admin.patch(`units/${findUnit(cs, 'Hello, world!').id}/`, {
    target: ['Ahoj, světe!'],
    state: STATE.approved,
  });
  await admin.patch(`units/${findUnit(cs, 'Save').id}/`, {
    target: ['Uložit'],
    state: STATE.approved,
  });
  await admin.patch(`units/${findUnit(cs, 'Settings').id}/`, {
    target: ['Nastavení'],
    state: STATE.fuzzy,
  });
  // Arabic, right to left, with all six plural forms.
  const ar = await unitsOf(admin, 'aurora/app/ar');
  await bob.patch(`units/${findUnit(ar, '%d file').id}/`, {
    target: ['لا ملفات', 'ملف واحد', 'ملفان', '%d ملفات', '%d ملفًا', '%d ملف'],
    state: STATE.translated,
  });
  await bob.patch(`units/${findUnit(ar, 'Last synced {date}').id}/`, {
    target: ['آخر مزامنة {date}'],
    state: STATE.translated,
  });
  // Suggestions (an upload in suggestion mode), and comments on units.
  const suggestions = new FormData();
  suggestions.set(
    'file',
    new Blob([
      poFile(APP_ENTRIES, 'ja', {
        plural: 'nplurals=1; plural=0;',
        units: APP_ENTRIES.map((entry) =>
          entry.source === 'First line\nSecond line\nThird line'
            ? { target: '一行目\n二行目\n三行目' }
            : entry.source === 'Tab\there, quotes "double" and \'single\', backslash \\ done'
              ? { target: 'タブ\tここ、「二重」と『一重』、バックスラッシュ \\ 完了' }
              : { target: '' },
        ),
      }),
    ]),
    'ja.po',
  );
  suggestions.set('method', 'suggest');
  suggestions.set('author_email', 'bob@example.org');
  suggestions.set('author_name', 'Bob Bäcker');
  // Uploading needs more than a contributor's rights: the admin uploads in Bob's name.
  await admin.postForm('translations/aurora/app/ja/file/', suggestions);
  const ja = await unitsOf(admin, 'aurora/app/ja');
  await alice.post(`units/${findUnit(ja, 'Save').id}/comments/`, {
    scope: 'translation',
    comment: 'Is 保存 right here? 🤔\nSecond line of the comment.',
  });
  await admin.post(`units/${findUnit(cs, 'Welcome, {name}!').id}/comments/`, {
    scope: 'global',
    comment: 'Keep {name} untouched — it is a placeholder.',
  });
  // A monolingual string added to Android, translated in German.
  await admin.post('translations/aurora/android/en/units/', {
    key: 'farewell',
    value: ['See you soon 👋'],
  });
  const de = await unitsOf(admin, 'aurora/android/de');
  await alice.patch(`units/${findUnit(de, 'See you soon 👋', 'farewell').id}/`, {
    target: ['Bis bald 👋'],
    state: STATE.translated,
  });
}

/** Borealis's nested categories (SEED.categories), each with a component uploaded into it. */
async function addCategories(admin: TierApi): Promise<void> {
  const project = admin.url('projects/borealis/').href;
  const urls = new Map<string, string>();
  for (const { path, name, component } of SEED.categories) {
    const parent = urls.get(path.split('/').slice(0, -1).join('/'));
    const created = await admin.post<{ url: string }>('categories/', {
      name,
      slug: path.split('/').at(-1)!,
      project,
      ...(parent === undefined ? {} : { category: parent }),
    });
    urls.set(path, created.url);
    await uploadComponent(admin, 'borealis', {
      name: component[0]!.toUpperCase() + component.slice(1),
      slug: component,
      file_format: 'po',
      filemask: 'docs/*.po',
      new_base: 'docs/docs.pot',
      category: created.url,
      files: {
        'docs/docs.pot': poFile(DOCS_ENTRIES, null),
        ...Object.fromEntries(
          Object.entries(DOCS_TRANSLATIONS).map(([lang, t]) => [
            `docs/${lang}.po`,
            poFile(DOCS_ENTRIES, lang, t),
          ]),
        ),
      },
    });
  }
}

/**
 * The labels of SEED.labels: created through the API, put on source strings with a unit
 * PATCH (`labels`, which takes source strings only), and on translation units inside Weblate.
 */
async function addLabels(
  admin: TierApi,
  ops: (list: TierOp[]) => Promise<unknown[]>,
): Promise<void> {
  const onUnits: TierOp[] = [];
  for (const [project, labels] of Object.entries(SEED.labels)) {
    const ids = new Map<string, number>();
    for (const { name, color } of labels) {
      const created = await admin.post<{ id: number }>(`projects/${project}/labels/`, {
        name,
        color,
        description: `${name}: set by the tier's seed`,
      });
      ids.set(name, created.id);
    }
    // Every label of a source string in one PATCH: `labels` replaces the string's set.
    const bySource = new Map<number, number[]>();
    for (const { name, sources, units } of labels) {
      for (const [component, texts] of Object.entries(sources)) {
        const source = await unitsOf(admin, translationPath(project, component));
        for (const text of texts) {
          const id = findUnitByText(source, text).id;
          bySource.set(id, [...(bySource.get(id) ?? []), ids.get(name)!]);
        }
      }
      for (const [translation, texts] of Object.entries(units)) {
        const found = await unitsOf(admin, translation);
        onUnits.push({
          op: 'label_units',
          args: { unit_ids: texts.map((t) => findUnitByText(found, t).id), label: name },
        });
      }
    }
    for (const [id, labelIds] of bySource) await admin.patch(`units/${id}/`, { labels: labelIds });
  }
  if (onUnits.length > 0) await ops(onUnits);
}

/**
 * `project/component/language` (the source language by default), a component in a category
 * named by its path as Weblate's API links write it: the categories' slugs and its own joined
 * by `%2F`, escaped once more (`%252F`) because the server decodes the path before routing it.
 */
export function translationPath(project: string, component: string, language = 'en'): string {
  return `${project}/${component.replaceAll('/', '%252F')}/${language}`;
}

/** A unit by its source text (first form), or by its target for monolingual sources by key. */
function findUnitByText(units: Unit[], text: string): Unit {
  const unit = units.find((u) => u.source[0] === text);
  if (unit === undefined) throw new Error(`no unit with source ${JSON.stringify(text)}`);
  return unit;
}

async function addGlossaryTerms(admin: TierApi): Promise<void> {
  await admin.post('translations/aurora/glossary/en/units/', {
    source: ['release manager'],
    target: ['release manager'],
  });
  const cs = await unitsOf(admin, 'aurora/glossary/cs');
  const term = cs.find((u) => u.source[0] === 'release manager');
  if (term !== undefined)
    await admin.patch(`units/${term.id}/`, { target: ['správce vydání'], state: STATE.translated });
}

/**
 * Subscriptions to one project and to one component: made inside Weblate, as its API cannot
 * make them since 2026 (harness/template.ts runs them after the seed).
 */
export const SCOPED_SUBSCRIPTIONS: TierOp[] = [
  {
    op: 'subscribe',
    args: {
      username: 'bob',
      notification: 'NewCommentNotificaton',
      scope: 30,
      frequency: 1,
      project: 'borealis',
    },
  },
  {
    op: 'subscribe',
    args: {
      username: 'bob',
      notification: 'NewSuggestionNotificaton',
      scope: 40,
      frequency: 2,
      project: 'cirrus',
      component: 'docs',
    },
  },
];

async function addSubscriptions(admin: TierApi): Promise<void> {
  // Every user starts with Weblate's default subscriptions; these add one more each. Only a
  // token that may manage users can (a user cannot add their own through the API).
  await admin.post('users/alice/notifications/', {
    notification: 'NewStringNotificaton',
    scope: 0,
    frequency: 1,
  });
  await admin.post('users/bob/notifications/', {
    notification: 'NewContributorNotificaton',
    scope: 20,
    frequency: 2,
  });
}
