import type {
  SimComponent,
  SimInstance,
  SimLanguage,
  SimProject,
  SimTranslation,
} from './model.ts';
import { isAtLeast } from './release.ts';
import { countTranslation, translationPercent } from './statistics.ts';
import {
  apiUrl,
  componentPath,
  languagePath,
  type LinkBase,
  projectPath,
  translationPath,
} from './urls.ts';

/** Weblate's default message templates (double-brace variables, weblate/trans/models/_conf.py). */
const MESSAGES = {
  commit_message:
    'Translated using Weblate ({{ language_name }})\n\nCurrently translated at {{ stats.translated_percent }}% ({{ stats.translated }} of {{ stats.all }} strings)\n\nTranslation: {{ project_name }}/{{ component_name }}\nTranslate-URL: {{ url }}',
  add_message: 'Added translation using Weblate ({{ language_name }})\n\n',
  delete_message: 'Deleted translation using Weblate ({{ language_name }})\n\n',
  merge_message: "Merge branch '{{ component_remote_branch }}' into Weblate.\n\n",
  addon_message:
    'Update translation files\n\nUpdated by "{{ hook_name }}" add-on in Weblate.\n\nTranslation: {{ project_name }}/{{ component_name }}\nTranslate-URL: {{ url }}',
  pull_message:
    'Translations update from {{ site_title }}\n\nTranslations update from [{{ site_title }}]({{ site_url }}) for [{{ project_name }}/{{ component_name }}]({{url}}).\n\n{% if component_linked_childs %}It also includes following components:\n{% for linked in component_linked_childs %}\n* [{{ linked.project.name }}/{{ linked.name }}]({{ linked|object_url }})\n{% endfor %}{% endif %}\n\nCurrent translation status:\n\n![Weblate translation status]({{ widget_url }})\n',
};

export function renderLanguage(
  _instance: SimInstance,
  base: LinkBase,
  language: SimLanguage,
): Record<string, unknown> {
  const path = `languages/${languagePath(language)}`;
  return {
    id: language.id,
    code: language.code,
    name: language.name,
    plural: { ...language.plural },
    aliases: [...language.aliases],
    direction: language.direction,
    population: language.population,
    web_url: `${base.site}${path}`,
    url: apiUrl(base, path),
    statistics_url: apiUrl(base, `${path}statistics/`),
  };
}

/**
 * ProjectSerializer's fields in Weblate 5.14.3 (weblate/api/serializers.py); 2026 drops
 * `credits_url` and `set_language_team` (see projectIn2026).
 */
export function renderProject(
  _instance: SimInstance,
  base: LinkBase,
  project: SimProject,
): Record<string, unknown> {
  const api = (suffix: string): string => apiUrl(base, `projects/${projectPath(project)}${suffix}`);
  const record = {
    name: project.name,
    slug: project.slug,
    id: project.id,
    web: project.web,
    web_url: `${base.site}projects/${projectPath(project)}`,
    url: api(''),
    check_flags: '',
    components_list_url: api('components/'),
    repository_url: api('repository/'),
    statistics_url: api('statistics/'),
    categories_url: api('categories/'),
    changes_list_url: api('changes/'),
    languages_url: api('languages/'),
    labels_url: api('labels/'),
    credits_url: api('credits/'),
    lock_url: api('lock/'),
    translation_review: project.translationReview,
    source_review: project.sourceReview,
    commit_policy: 0,
    set_language_team: project.setLanguageTeam,
    instructions: project.instructions,
    enable_hooks: project.enableHooks,
    language_aliases: project.languageAliases,
    secondary_language: null,
    enforced_2fa: false,
    machinery_settings: api('machinery_settings/'),
    locked: false,
  };
  return isAtLeast(base.release, '2026') ? projectIn2026(record, api) : record;
}

/**
 * A project record as Weblate 2026 sends it: without `credits_url` (reports replaced
 * credits) and `set_language_team` (now a file format parameter of components), with some of
 * the links and settings it added (it adds some 45; these stand for them).
 */
function projectIn2026(
  record: Record<string, unknown>,
  api: (suffix: string) => string,
): Record<string, unknown> {
  const kept = { ...record };
  delete kept.credits_url;
  delete kept.set_language_team;
  return {
    ...kept,
    workspace: null,
    metrics_url: api('metrics/'),
    reports_url: api('reports/'),
    announcements_url: api('announcements/'),
    access_control: 0,
    use_shared_tm: true,
    contribute_shared_tm: true,
  };
}

export type ComponentShape = 'full' | 'without-project';

function componentRepository(
  instance: SimInstance,
  base: LinkBase,
  component: SimComponent,
): Record<string, unknown> {
  const linkedId = component.linkedComponentId;
  const isLinked = linkedId !== null;
  const linked = isLinked ? instance.index.componentById.get(linkedId) : undefined;
  const project = instance.index.projectById.get(component.projectId);
  return {
    vcs: 'git',
    repo: component.repo,
    git_export: `${base.site}git/${componentPath(instance, component)}`,
    branch: component.branch,
    push_branch: component.pushBranch,
    filemask: component.filemask,
    screenshot_filemask: '',
    template: component.template,
    edit_template: component.template !== '',
    intermediate: '',
    new_base: component.newBase,
    file_format: component.fileFormat,
    file_format_params: {},
    license: component.license,
    license_url: component.licenseUrl,
    agreement: component.agreement,
    linked:
      linked === undefined ? null : apiUrl(base, `components/${componentPath(instance, linked)}`),
    push: isLinked ? '' : component.repo,
    repoweb: `https://github.com/example/${project?.slug ?? ''}/blob/{{branch}}/{{filename}}#L{{line}}`,
  };
}

function componentUrls(
  instance: SimInstance,
  base: LinkBase,
  component: SimComponent,
): Record<string, unknown> {
  const api = (suffix: string): string =>
    apiUrl(base, `components/${componentPath(instance, component)}${suffix}`);
  return {
    web_url: `${base.site}projects/${componentPath(instance, component)}`,
    url: api(''),
    repository_url: api('repository/'),
    translations_url: api('translations/'),
    statistics_url: api('statistics/'),
    lock_url: api('lock/'),
    links_url: api('links/'),
    changes_list_url: api('changes/'),
    task_url: component.taskId === null ? null : apiUrl(base, `tasks/${component.taskId}/`),
    ...(isAtLeast(base.release, '2026') ? {} : { credits_url: api('credits/') }),
  };
}

/** Workflow settings; Weblate's defaults except where the component says otherwise. */
function componentSettings(base: LinkBase, component: SimComponent): Record<string, unknown> {
  return {
    allow_translation_propagation: true,
    manage_units: component.template !== '',
    enable_suggestions: true,
    suggestion_voting: false,
    suggestion_autoaccept: 0,
    push_on_commit: true,
    commit_pending_age: 24,
    auto_lock_error: true,
    language_regex: component.languageRegex,
    key_filter: '',
    secondary_language: null,
    variant_regex: '',
    // Links to installed add-ons (api:addon-detail); which add-ons is beyond what the mirror
    // reads, so every fourth component shows one, numbered after it.
    addons: component.id % 4 === 0 ? [apiUrl(base, `addons/${component.id}/`)] : [],
    is_glossary: component.isGlossary,
    glossary_color: 'silver',
    category: null,
  };
}

export function renderComponent(
  instance: SimInstance,
  base: LinkBase,
  component: SimComponent,
  shape: ComponentShape = 'full',
): Record<string, unknown> {
  const sourceLanguage = instance.index.languageById.get(component.sourceLanguageId);
  const project = instance.index.projectById.get(component.projectId);
  const { linked, push, repoweb, ...repository } = componentRepository(instance, base, component);
  return {
    name: component.name,
    slug: component.slug,
    id: component.id,
    source_language: sourceLanguage && renderLanguage(instance, base, sourceLanguage),
    ...(shape === 'full' && project ? { project: renderProject(instance, base, project) } : {}),
    ...repository,
    ...componentUrls(instance, base, component),
    new_lang: 'add',
    language_code_style: '',
    push,
    check_flags: component.checkFlags,
    priority: component.priority,
    enforced_checks: [...component.enforcedChecks],
    restricted: component.restricted,
    repoweb,
    report_source_bugs: component.id % 3 === 0 ? 'i18n@example.org' : '',
    merge_style: 'merge',
    ...MESSAGES,
    ...componentSettings(base, component),
    linked_component: linked,
    locked: false,
    // 2026 replaced credits by reports and added announcements.
    ...(isAtLeast(base.release, '2026')
      ? { reports_url: apiUrl(base, `components/${componentPath(instance, component)}reports/`) }
      : {}),
  };
}

export type TranslationShape = 'full' | 'without-component';

function displayName(instance: SimInstance, username: string | null): string | null {
  return username === null ? null : (instance.index.userByUsername.get(username)?.fullName ?? null);
}

/** The counting fields of a translation record; approved and read-only are not among them. */
function translationCounts(
  instance: SimInstance,
  translation: SimTranslation,
): Record<string, unknown> {
  const component = instance.index.componentById.get(translation.componentId);
  const project = instance.index.projectById.get(component?.projectId ?? 0);
  const counts = countTranslation(instance, translation);
  const percent = (done: number, zeroComplete: boolean): number =>
    translationPercent(done, counts.all.count, zeroComplete);
  return {
    total: counts.all.count,
    total_words: counts.all.words,
    translated: counts.translated.count,
    translated_words: counts.translated.words,
    // With review on, "approved" is the metric that is complete when there is nothing.
    translated_percent: percent(counts.translated.count, !(project?.translationReview ?? false)),
    fuzzy: counts.fuzzy.count,
    fuzzy_words: counts.fuzzy.words,
    fuzzy_percent: percent(counts.fuzzy.count, false),
    failing_checks: counts.failing.count,
    failing_checks_words: counts.failing.words,
    failing_checks_percent: percent(counts.failing.count, false),
    have_suggestion: counts.suggestions,
    have_comment: counts.comments,
    last_change: counts.lastChange,
    last_author: displayName(instance, counts.lastAuthor),
  };
}

export function renderTranslation(
  instance: SimInstance,
  base: LinkBase,
  translation: SimTranslation,
  shape: TranslationShape = 'full',
): Record<string, unknown> {
  const component = instance.index.componentById.get(translation.componentId);
  const language = instance.index.languageById.get(translation.languageId);
  const path = translationPath(instance, translation);
  const { url, ...links } = translationLinks(instance, base, translation);
  const nested =
    shape === 'full' && component ? { component: renderComponent(instance, base, component) } : {};
  return {
    language: language && renderLanguage(instance, base, language),
    ...nested,
    language_code: language?.code,
    id: translation.id,
    filename: translation.filename,
    revision: translation.revision,
    web_url: `${base.site}projects/${path}`,
    // Weblate's engage URL takes a path of project, `-` (any component) and language.
    share_url: `${base.site}engage/${path.split('/')[0] ?? ''}/-/${language?.code ?? ''}/`,
    translate_url: `${base.site}translate/${path}`,
    url,
    is_template: translation.isTemplate,
    is_source: translation.isSource,
    ...translationCounts(instance, translation),
    ...links,
  };
}

function translationLinks(
  instance: SimInstance,
  base: LinkBase,
  translation: SimTranslation,
): Record<string, string> {
  const api = (suffix: string): string =>
    apiUrl(base, `translations/${translationPath(instance, translation)}${suffix}`);
  return {
    url: api(''),
    repository_url: api('repository/'),
    file_url: api('file/'),
    statistics_url: api('statistics/'),
    changes_list_url: api('changes/'),
    units_list_url: api('units/'),
  };
}
