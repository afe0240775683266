/**
 * Creating projects and components, with a slug the caller chooses: a test can create an
 * object under the natural key of one it deleted, as Weblate allows. New objects get ids
 * above every id ever handed out; the index is rebuilt (these are rare).
 */
import { formatPaths } from './generate-catalog.ts';
import { reindexInstance } from './indexes.ts';
import type { FileFormat, SimComponent, SimLanguage, SimProject, SimTranslation } from './model.ts';
import { addTranslation, addUnits } from './mutate-catalog.ts';
import {
  actingUser,
  bumpRevision,
  type MutationContext,
  nextId,
  recordChanges,
} from './mutation-context.ts';

export interface AddProjectResult {
  projectId: number;
  changeIds: number[];
}

function requireFreeSlug(taken: boolean, what: string): void {
  if (taken) throw new Error(`${what} is taken`);
}

/**
 * Adds a language to the instance, as an administrator does in Weblate's language list: no
 * change is logged (languages belong to no project). Its plural is a copy of the first
 * language's, under a new id.
 */
export function addLanguage(
  context: MutationContext,
  code: string,
  options: { name?: string } = {},
): { languageId: number } {
  const { instance } = context;
  requireFreeSlug(instance.index.languageByCode.has(code), `language code "${code}"`);
  const template = instance.languages[0];
  if (template === undefined) throw new Error('the instance has no language to copy a plural from');
  const id = Math.max(...instance.languages.map((l) => l.id)) + 1;
  const pluralId = Math.max(...instance.languages.map((l) => l.plural.id)) + 1;
  const language: SimLanguage = {
    id,
    code,
    name: options.name ?? code,
    direction: 'ltr',
    population: 0,
    aliases: [],
    plural: { ...template.plural, id: pluralId },
  };
  instance.languages.push(language);
  reindexInstance(instance);
  return { languageId: id };
}

/** Creates an empty project; records action 50 "Project created" on it. */
export function addProject(
  context: MutationContext,
  slug: string,
  options: { name?: string; user?: string | null } = {},
): AddProjectResult {
  const { instance } = context;
  requireFreeSlug(instance.index.projectBySlug.has(slug), `project slug "${slug}"`);
  const user = actingUser(instance, options.user);
  const project: SimProject = {
    id: nextId(instance, 'project'),
    slug,
    name: options.name ?? slug,
    web: `https://${slug}.example.org/`,
    instructions: '',
    translationReview: false,
    sourceReview: false,
    setLanguageTeam: false,
    enableHooks: true,
    languageAliases: '',
  };
  instance.projects.push(project);
  reindexInstance(instance);
  const changes = recordChanges(context, [
    { action: 50, projectId: project.id, user, author: user, target: slug },
  ]);
  return { projectId: project.id, changeIds: changes.map((c) => c.id) };
}

export interface AddComponentOptions {
  name?: string;
  /** Default po (bilingual). */
  fileFormat?: FileFormat;
  /** Source strings to start with (default 3). */
  strings?: number;
  /** Codes of the target languages to translate into (default none). */
  languages?: readonly string[];
  user?: string | null;
}

export interface AddComponentResult {
  componentId: number;
  /** The source translation first, then one per target language. */
  translationIds: number[];
  unitIds: number[];
  changeIds: number[];
}

function newComponent(
  context: MutationContext,
  project: SimProject,
  slug: string,
  options: AddComponentOptions,
): SimComponent {
  const fileFormat = options.fileFormat ?? 'po';
  return {
    id: nextId(context.instance, 'component'),
    projectId: project.id,
    slug,
    name: options.name ?? slug,
    sourceLanguageId: 1,
    fileFormat,
    ...formatPaths(fileFormat, slug),
    repo: `git@github.com:example/${project.slug}.git`,
    branch: 'main',
    pushBranch: '',
    license: 'MIT',
    licenseUrl: null,
    agreement: '',
    taskId: null,
    checkFlags: '',
    enforcedChecks: [],
    restricted: false,
    isGlossary: false,
    linkedComponentId: null,
    languageRegex: '^[^.]+$',
    priority: 100,
  };
}

function sourceTranslation(context: MutationContext, component: SimComponent): SimTranslation {
  const { instance } = context;
  const language = instance.index.languageById.get(component.sourceLanguageId);
  const isMonolingual = component.template !== '';
  const translation: SimTranslation = {
    id: nextId(instance, 'translation'),
    componentId: component.id,
    languageId: component.sourceLanguageId,
    isSource: true,
    isTemplate: isMonolingual,
    filename: isMonolingual
      ? component.template
      : component.filemask.replace('*', language?.code ?? 'en'),
    revision: '',
  };
  bumpRevision(instance, translation, true);
  return translation;
}

/**
 * Creates a component in a project, as Weblate's "Add new translation component": its
 * source translation with `strings` source strings, then a translation into each of
 * `languages` (see addUnits and addTranslation for their changes). Records action 51
 * "Component created" first.
 */
export function addComponent(
  context: MutationContext,
  projectId: number,
  slug: string,
  options: AddComponentOptions = {},
): AddComponentResult {
  const { instance } = context;
  const project = instance.index.projectById.get(projectId);
  if (project === undefined) throw new Error(`unknown project ${projectId}`);
  requireFreeSlug(
    instance.index.componentByPath.has(`${project.slug}/${slug}`),
    `component slug "${project.slug}/${slug}"`,
  );
  const user = actingUser(instance, options.user);
  const component = newComponent(context, project, slug, options);
  const source = sourceTranslation(context, component);
  instance.components.push(component);
  instance.translations.push(source);
  reindexInstance(instance);
  const created = recordChanges(context, [
    { action: 51, projectId, componentId: component.id, user, author: user, target: slug },
  ]);
  const strings = addUnits(context, component.id, options.strings ?? 3, { user });
  const targets = (options.languages ?? []).map((code) =>
    addTranslation(context, component.id, code, { user }),
  );
  return {
    componentId: component.id,
    translationIds: [source.id, ...targets.map((t) => t.translationId)],
    unitIds: [...strings.unitIds, ...targets.flatMap((t) => t.unitIds)].sort((a, b) => a - b),
    changeIds: [
      ...created.map((c) => c.id),
      ...strings.changeIds,
      ...targets.flatMap((t) => t.changeIds),
    ],
  };
}
