import { randomRevision } from './clock.ts';
import { LANGUAGE_TABLE, type LanguageSeed, syntheticLanguage } from './languages.ts';
import type { FileFormat, SimComponent, SimLanguage, SimProject, SimTranslation } from './model.ts';
import type { Rng } from './prng.ts';

const PROJECT_NAMES: readonly (readonly [string, string])[] = [
  ['hello', 'Hello World'],
  ['weblate-2024', 'Weblate 2024'],
  ['android-app', 'Android App'],
  ['k9-mail', 'K-9 Mail'],
  ['docs', 'Documentation'],
  ['desktop-client-3', 'Desktop Client 3'],
];

const COMPONENT_NAMES: readonly (readonly [string, string])[] = [
  ['core', 'Core'],
  ['website', 'Website'],
  ['android-strings', 'Android strings'],
  ['glossary', 'Glossary'],
  ['ui-v2', 'UI v2'],
  ['help', 'Help'],
  ['cli', 'Command line'],
  ['installer', 'Installer'],
  ['api-docs', 'API docs'],
  ['emails', 'E-mails'],
];

const FORMATS: readonly FileFormat[] = ['po', 'strings-utf8', 'json', 'aresource'];
const LICENSES = ['GPL-3.0-or-later', 'MIT', 'Apache-2.0', 'CC-BY-SA-4.0', ''];
const CHECK_FLAGS = ['', 'safe-html', 'safe-html, strict-format', 'regex:"^[^<>]*$"'];

/** Every language of the table (what a token with `language.edit` sees), plus made-up ones. */
export function buildLanguages(targetCount: number): {
  languages: SimLanguage[];
  seeds: Map<number, LanguageSeed>;
} {
  const rows = [...LANGUAGE_TABLE];
  for (let i = rows.length; i <= targetCount; i += 1) rows.push(syntheticLanguage(i));
  const seeds = new Map<number, LanguageSeed>();
  const languages = rows.map((seed, i): SimLanguage => {
    const id = i + 1;
    seeds.set(id, seed);
    const { code, name, direction, population, aliases } = seed;
    const plural = {
      id: 200 + i,
      source: 0,
      number: seed.plurals,
      formula: seed.formula,
      type: seed.pluralType,
    };
    return { id, code, name, direction, population, aliases: [...aliases], plural };
  });
  return { languages, seeds };
}

export function buildProjects(count: number): SimProject[] {
  return Array.from({ length: count }, (_, i): SimProject => {
    const [slug, name] = PROJECT_NAMES[i] ?? [`project-${i + 1}`, `Project ${i + 1}`];
    return {
      id: i + 1,
      slug,
      name,
      web: `https://${slug}.example.org/`,
      instructions: i % 2 === 0 ? `https://${slug}.example.org/translating` : '',
      // Review on for every other project, so both "completed" metrics (approved with review, translated without; weblate/utils/stats.py) occur.
      translationReview: i % 2 === 0,
      sourceReview: i % 3 === 1,
      setLanguageTeam: i % 2 === 1,
      enableHooks: i % 4 !== 3,
      languageAliases: '',
    };
  });
}

/** The template, file mask and base file of a component of this format. */
export function formatPaths(
  format: FileFormat,
  slug: string,
): Pick<SimComponent, 'template' | 'filemask' | 'newBase'> {
  switch (format) {
    case 'po':
      return {
        template: '',
        filemask: `locale/*/LC_MESSAGES/${slug}.po`,
        newBase: `locale/${slug}.pot`,
      };
    case 'strings-utf8':
      return {
        template: `${slug}/en.lproj/Localizable.strings`,
        filemask: `${slug}/*.lproj/Localizable.strings`,
        newBase: `${slug}/en.lproj/Localizable.strings`,
      };
    case 'json':
      return {
        template: `locales/${slug}/en.json`,
        filemask: `locales/${slug}/*.json`,
        newBase: `locales/${slug}/en.json`,
      };
    case 'aresource':
      return {
        template: `${slug}/src/main/res/values/strings.xml`,
        filemask: `${slug}/src/main/res/values-*/strings.xml`,
        newBase: `${slug}/src/main/res/values/strings.xml`,
      };
  }
}

interface ComponentSlot {
  project: SimProject;
  slug: string;
  name: string;
}

/** Each project gets one component, the rest land on random projects; ids interleave. */
function planComponentSlots(
  rng: Rng,
  projects: readonly SimProject[],
  count: number,
): ComponentSlot[] {
  const perProject = new Map<number, number>();
  return Array.from({ length: Math.max(count, projects.length) }, (_, i) => {
    const project = i < projects.length ? (projects[i] as SimProject) : rng.pick(projects);
    const k = perProject.get(project.id) ?? 0;
    perProject.set(project.id, k + 1);
    const [slug, name] = COMPONENT_NAMES[k] ?? [`component-${k + 1}`, `Component ${k + 1}`];
    return { project, slug, name };
  });
}

export function buildComponents(
  rng: Rng,
  projects: readonly SimProject[],
  count: number,
): SimComponent[] {
  const components: SimComponent[] = [];
  for (const [i, slot] of planComponentSlots(rng, projects, count).entries()) {
    const fileFormat = FORMATS[i % FORMATS.length] ?? 'po';
    const sibling = components.find(
      (c) => c.projectId === slot.project.id && c.linkedComponentId === null,
    );
    const isLinked = sibling !== undefined && rng.chance(0.3);
    const license = rng.pick(LICENSES);
    components.push({
      id: i + 1,
      projectId: slot.project.id,
      slug: slot.slug,
      name: slot.name,
      sourceLanguageId: 1,
      fileFormat,
      ...formatPaths(fileFormat, slot.slug),
      repo: isLinked
        ? `weblate://${slot.project.slug}/${sibling.slug}`
        : `git@github.com:example/${slot.project.slug}.git`,
      branch: rng.pick(['main', 'master']),
      pushBranch: rng.chance(0.3) ? 'weblate-translations' : '',
      license,
      licenseUrl:
        license === '' || rng.chance(0.3) ? null : `https://spdx.org/licenses/${license}.html`,
      agreement: i % 5 === 4 ? 'By contributing you agree to the CLA.' : '',
      taskId: rng.chance(0.2) ? randomUuid(rng) : null,
      checkFlags: rng.pick(CHECK_FLAGS),
      enforcedChecks: rng.pick([[], ['placeholders'], ['placeholders', 'same']]),
      restricted: i % 7 === 6,
      isGlossary: slot.slug === 'glossary',
      linkedComponentId: isLinked ? sibling.id : null,
      languageRegex: '^[^.]+$',
      priority: 100,
    });
  }
  return components;
}

function randomUuid(rng: Rng): string {
  const hex = randomRevision(rng);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Target languages of a component: all of `targets`, or (for half of the components) all
 * but up to 30% of them, so the per-language sums in statistics differ between languages.
 */
export function pickComponentLanguages(rng: Rng, targets: readonly SimLanguage[]): SimLanguage[] {
  const droppable = Math.floor(targets.length * 0.3);
  if (droppable === 0 || rng.chance(0.5)) return [...targets];
  const dropped = new Set(rng.shuffled(targets).slice(0, rng.int(1, droppable)));
  return targets.filter((language) => !dropped.has(language));
}

export function buildTranslation(
  rng: Rng,
  id: number,
  component: SimComponent,
  language: SimLanguage,
): SimTranslation {
  const isSource = language.id === component.sourceLanguageId;
  const isMonolingual = component.template !== '';
  let filename = component.filemask.replace('*', language.code);
  if (isSource) filename = component.template;
  let revision = randomRevision(rng);
  // Weblate keeps "file revision,template revision" for monolingual translations.
  if (isMonolingual && !isSource) revision = `${revision},${randomRevision(rng)}`;
  return {
    id,
    componentId: component.id,
    languageId: language.id,
    isSource,
    isTemplate: isSource && isMonolingual,
    filename,
    revision,
  };
}
