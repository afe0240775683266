import {
  COMPONENT_FIELDS_2026,
  INHERITABLE_SETTINGS,
  type InheritableSetting,
  pickFields,
  PROJECT_FIELDS_2026,
  TRANSLATION_FIELDS_2026,
} from './fields-2026.ts';
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

/** Weblate 2026's default message templates (weblate/trans/defaults.py). */
const MESSAGES_2026 = {
  commit_message:
    'chore(l10n): update {{ language_name }} translation\n\nTranslation: {{ project_name }}/{{ component_name }}\nLanguage: {{ language_name }}\nProgress: {{ stats.translated_percent }}% ({{ stats.translated }} of {{ stats.all }} strings)\nTranslate-URL: {{ url }}',
  add_message:
    'chore(l10n): add {{ language_name }} translation\n\nTranslation: {{ project_name }}/{{ component_name }}\nLanguage: {{ language_name }}\nTranslate-URL: {{ url }}',
  delete_message:
    'chore(l10n): remove {{ language_name }} translation\n\nTranslation: {{ project_name }}/{{ component_name }}\nLanguage: {{ language_name }}\nTranslate-URL: {{ url }}',
  merge_message:
    'chore(l10n): merge remote changes\n\nTranslation: {{ project_name }}/{{ component_name }}\nRemote-Branch: {{ component_remote_branch }}\nTranslate-URL: {{ url }}',
  addon_message:
    'chore(l10n): update translation files\n\nAdd-on: {{ addon_name }}\nTranslation: {{ project_name }}/{{ component_name }}\nTranslate-URL: {{ url }}',
  pull_message:
    'chore(l10n): update translations\n\nTranslations updated in [{{ site_title }}]({{ site_url }}) for [{{ project_name }}/{{ component_name }}]({{ url }}).\n\n{% if component_linked_children %}\nIncluded components:\n{% for linked in component_linked_children %}\n* [{{ linked.project_name }}/{{ linked.name }}]({{ linked.url }})\n{% endfor %}\n{% endif %}\n\nTranslation status:\n\n![Weblate translation status]({{widget_url}})\n',
};

type Settings2026 = Record<InheritableSetting, unknown>;

/**
 * The settings a 2026 project holds for its components, as a project without a workspace has
 * them: Weblate's defaults (no license, no agreement, no enforced checks).
 */
const PROJECT_SETTINGS_2026: Settings2026 = {
  license: '',
  agreement: '',
  new_lang: 'add',
  language_code_style: '',
  secondary_language: null,
  ...MESSAGES_2026,
  enforced_checks: [],
};

/**
 * Each setting with `inherit_<setting>` and `effective_<setting>`. An object inherits what it
 * does not set itself (`inherits`), so the effective value is its own either way.
 */
function withInheritance(
  settings: Settings2026,
  inherits: (name: InheritableSetting) => boolean,
): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const name of INHERITABLE_SETTINGS) {
    fields[name] = settings[name];
    fields[`inherit_${name}`] = inherits(name);
    fields[`effective_${name}`] = settings[name];
  }
  return fields;
}

/**
 * The settings of an object that sets none itself (a project without a workspace, a
 * category): Weblate's defaults, each inherited, with `inherit_` and `effective_` forms.
 */
export function inheritedSettings2026(): Record<string, unknown> {
  return withInheritance(PROJECT_SETTINGS_2026, () => true);
}

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
 * ProjectSerializer's fields in Weblate 5.14.3 (weblate/api/serializers.py); 2026's are
 * PROJECT_FIELDS_2026 (see projectIn2026).
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
 * A project record as Weblate 2026 sends it (PROJECT_FIELDS_2026): without `credits_url`
 * (reports replaced credits) and `set_language_team` (now a file format parameter of
 * components), with links to its metrics, reports and announcements, translation memory and
 * access settings (Weblate's defaults), no workspace, and the settings its components
 * inherit, which a project without a workspace holds itself.
 */
function projectIn2026(
  record: Record<string, unknown>,
  api: (suffix: string) => string,
): Record<string, unknown> {
  const values = {
    ...record,
    effective_check_flags: record.check_flags,
    metrics_url: api('metrics/'),
    reports_url: api('reports/'),
    announcements_url: api('announcements/'),
    workspace: null,
    access_control: 0,
    public_sharing: false,
    use_shared_tm: true,
    contribute_shared_tm: true,
    use_workspace_tm: false,
    contribute_workspace_tm: false,
    autoclean_tm: false,
    ...inheritedSettings2026(),
  };
  return pickFields(values, PROJECT_FIELDS_2026);
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
    credits_url: api('credits/'),
  };
}

/**
 * Links to a component's installed add-ons (api:addon-detail); which add-ons is beyond what
 * the mirror reads, so every fourth component shows one, numbered after it.
 */
export function componentAddons(base: LinkBase, componentId: number): string[] {
  return componentId % 4 === 0 ? [apiUrl(base, `addons/${componentId}/`)] : [];
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
    addons: componentAddons(base, component.id),
    is_glossary: component.isGlossary,
    glossary_color: 'silver',
    category:
      component.categoryId == null ? null : apiUrl(base, `categories/${component.categoryId}/`),
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
  const record = {
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
  };
  if (!isAtLeast(base.release, '2026')) return record;
  return pickFields(
    componentValues2026(instance, base, component, record),
    COMPONENT_FIELDS_2026,
    'project' in record ? undefined : 'project',
  );
}

/**
 * The values of a 2026 component record (COMPONENT_FIELDS_2026): reports replaced credits;
 * announcements, VCS parameters and more workflow settings (Weblate's defaults) came; each
 * setting a project holds comes with whether the component inherits it, which it does where
 * it sets nothing of its own.
 */
function componentValues2026(
  instance: SimInstance,
  base: LinkBase,
  component: SimComponent,
  record: Record<string, unknown>,
): Record<string, unknown> {
  const api = (suffix: string): string =>
    apiUrl(base, `components/${componentPath(instance, component)}${suffix}`);
  const settings: Settings2026 = {
    ...PROJECT_SETTINGS_2026,
    license: component.license,
    agreement: component.agreement,
    enforced_checks: [...component.enforcedChecks],
  };
  const own = (name: InheritableSetting): string => JSON.stringify(settings[name]);
  return {
    ...record,
    vcs_params: {},
    announcements_url: api('announcements/'),
    reports_url: api('reports/'),
    effective_check_flags: component.checkFlags,
    repoweb_translations: '',
    hide_glossary_matches: false,
    contribute_project_tm: true,
    push_on_update: true,
    ...withInheritance(
      settings,
      (name) => own(name) === JSON.stringify(PROJECT_SETTINGS_2026[name]),
    ),
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
  const record = {
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
  if (!isAtLeast(base.release, '2026')) return record;
  const announcements = apiUrl(base, `translations/${path}announcements/`);
  return pickFields(
    { ...record, announcements_url: announcements },
    TRANSLATION_FIELDS_2026,
    'component' in record ? undefined : 'component',
  );
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
