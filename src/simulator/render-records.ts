import { AUTOMATICALLY_TRANSLATED, UNIT_SAVING_ACTIONS } from './actions.ts';
import {
  ALERT_FIELDS_2026,
  CHANGE_FIELDS_2026,
  pickFields,
  UNIT_FIELDS_2026,
} from './fields-2026.ts';
import type {
  SimChange,
  SimInstance,
  SimLanguage,
  SimProject,
  SimSubscription,
  SimTranslation,
  SimUnit,
  SimUser,
} from './model.ts';
import { isFuzzyState } from './model.ts';
import { isAtLeast } from './release.ts';
import { componentAddons, renderComponent, renderProject } from './render-catalog.ts';
import { renderUnitLabels } from './render-labels.ts';
import { hashToChecksum } from './siphash.ts';
import {
  type CompletedMetric,
  countTranslation,
  statisticsFields,
  sumCounts,
} from './statistics.ts';
import {
  apiUrl,
  componentPath,
  languagePath,
  type LinkBase,
  projectPath,
  translationPath,
  userApiUrl,
} from './urls.ts';

/** UnitSerializer's fields in Weblate 5.14.3 (weblate/api/serializers.py); 2026's: UNIT_FIELDS_2026. */
export function renderUnit(
  instance: SimInstance,
  base: LinkBase,
  unit: SimUnit,
): Record<string, unknown> {
  const translation = instance.index.translationById.get(unit.translationId);
  const path = translation === undefined ? '' : translationPath(instance, translation);
  const language = instance.index.languageById.get(translation?.languageId ?? 0);
  const record = {
    translation: apiUrl(base, `translations/${path}`),
    language_code: language?.code,
    source: [...unit.source],
    previous_source: unit.previousSource,
    target: [...unit.target],
    id_hash: unit.idHash,
    content_hash: unit.contentHash,
    location: unit.location,
    context: unit.context,
    note: unit.note,
    flags: unit.flags,
    labels: renderUnitLabels(instance, unit),
    state: unit.state,
    fuzzy: isFuzzyState(unit.state),
    translated: unit.state >= 20,
    approved: unit.state === 30,
    position: unit.position,
    has_suggestion: unit.hasSuggestion,
    has_comment: unit.hasComment,
    has_failing_check: unit.hasFailingCheck,
    num_words: unit.numWords,
    source_unit: apiUrl(base, `units/${unit.sourceUnitId}/`),
    priority: unit.priority,
    id: unit.id,
    web_url: `${base.site}translate/${path}?checksum=${hashToChecksum(unit.idHash)}`,
    url: apiUrl(base, `units/${unit.id}/`),
    explanation: unit.explanation,
    extra_flags: unit.extraFlags,
    pending: unit.pending,
    timestamp: unit.timestamp,
    last_updated: unit.lastUpdated,
  };
  if (!isAtLeast(base.release, '2026')) return record;
  return pickFields({ ...record, ...unitFields2026(instance, base, unit) }, UNIT_FIELDS_2026);
}

/** ChangeSerializer's fields in Weblate 5.14.3; 2026's: CHANGE_FIELDS_2026. */
export function renderChange(
  instance: SimInstance,
  base: LinkBase,
  change: SimChange,
): Record<string, unknown> {
  const { index } = instance;
  const component =
    change.componentId === null ? undefined : index.componentById.get(change.componentId);
  const translation =
    change.translationId === null ? undefined : index.translationById.get(change.translationId);
  const record = {
    unit: change.unitId === null ? null : apiUrl(base, `units/${change.unitId}/`),
    component: component ? apiUrl(base, `components/${componentPath(instance, component)}`) : null,
    translation: translation
      ? apiUrl(base, `translations/${translationPath(instance, translation)}`)
      : null,
    user: userApiUrl(base, change.user),
    author: userApiUrl(base, change.author),
    timestamp: change.timestamp,
    action: change.action,
    target: change.target,
    old: change.old,
    details: structuredClone(change.details),
    id: change.id,
    action_name: change.actionName,
    url: apiUrl(base, `changes/${change.id}/`),
  };
  if (!isAtLeast(base.release, '2026')) return record;
  // The component's one add-on stands for the one that made the change, if it has one.
  const addon =
    component && ADDON_ACTIONS.has(change.action)
      ? (componentAddons(base, component.id)[0] ?? null)
      : null;
  return pickFields({ ...record, addon, alert: changeAlert(base, change) }, CHANGE_FIELDS_2026);
}

/**
 * Add-on installed, configuration changed (two of Weblate's ACTIONS_ADDON): such a change
 * links the add-on while it is installed; the third, uninstalled, finds it gone (null).
 */
const ADDON_ACTIONS: ReadonlySet<number> = new Set([60, 61]);

/** Alert triggered, dismissed, reopened: the changes that carry their alert. */
const ALERT_ACTIONS: ReadonlySet<number> = new Set([47, 103, 104]);
const ALERT_DISMISSED = 103;

/**
 * A change's alert as AlertSerializer sends it (ALERT_FIELDS_2026), for an alert change that
 * names it in its details (`alert`), as Weblate logs them; else null. A dismissal carries the
 * alert as it was (`alert_snapshot`), who dismissed it, when, and why (`reason`). Severity and
 * category are those of Weblate's BaseAlert where no snapshot says.
 */
function changeAlert(base: LinkBase, change: SimChange): Record<string, unknown> | null {
  const { details } = change;
  if (!ALERT_ACTIONS.has(change.action) || typeof details.alert !== 'string') return null;
  const snapshot = (details.alert_snapshot ?? {}) as Record<string, unknown>;
  const dismissed = change.action === ALERT_DISMISSED;
  return pickFields(
    {
      name: details.alert,
      timestamp: change.timestamp,
      updated: change.timestamp,
      severity: 100,
      details: {},
      category: 'configuration',
      ...snapshot,
      dismissed_at: dismissed ? change.timestamp : null,
      dismissed_by: dismissed ? userApiUrl(base, change.user) : null,
      dismissal_reason: dismissed && typeof details.reason === 'string' ? details.reason : '',
    },
    ALERT_FIELDS_2026,
  );
}

/** The fields Weblate 2026 added to UnitSerializer (no parent languages, TBX or screenshots here). */
function unitFields2026(
  instance: SimInstance,
  base: LinkBase,
  unit: SimUnit,
): Record<string, unknown> {
  const translation = instance.index.translationById.get(unit.translationId);
  const component = instance.index.componentById.get(translation?.componentId ?? 0);
  const sourceLanguage = instance.index.languageById.get(component?.sourceLanguageId ?? 0);
  return {
    tbx_terms: {},
    screenshots_url: apiUrl(base, `units/${unit.id}/screenshots/`),
    translation_parent: null,
    effective_source: [...unit.source],
    effective_previous_source: [unit.previousSource],
    effective_source_language: sourceLanguage?.code,
    automatically_translated: isAutomaticallyTranslated(instance, unit),
  };
}

/** Whether the newest change that saved the unit was an automatic translation. */
function isAutomaticallyTranslated(instance: SimInstance, unit: SimUnit): boolean {
  const changes = instance.index.changesByTranslation.get(unit.translationId) ?? [];
  const saved = changes.find((c) => c.unitId === unit.id && UNIT_SAVING_ACTIONS.has(c.action));
  return saved?.action === AUTOMATICALLY_TRANSLATED;
}

function completedMetric(instance: SimInstance, translation: SimTranslation): CompletedMetric {
  const component = instance.index.componentById.get(translation.componentId);
  const project = instance.index.projectById.get(component?.projectId ?? 0);
  return project?.translationReview ? 'approved' : 'translated';
}

/** One translation's statistics, also a row of `/api/components/<p>/<c>/statistics/`. */
export function renderTranslationStatistics(
  instance: SimInstance,
  base: LinkBase,
  translation: SimTranslation,
): Record<string, unknown> {
  const language = instance.index.languageById.get(translation.languageId);
  const path = translationPath(instance, translation);
  return {
    ...statisticsFields(
      countTranslation(instance, translation),
      completedMetric(instance, translation),
    ),
    code: language?.code,
    name: language?.name,
    url: `${base.site}projects/${path}`,
    translate_url: `${base.site}translate/${path}`,
  };
}

/** Sums over every translation into the language across all projects (never averaged). */
export function renderLanguageStatistics(
  instance: SimInstance,
  base: LinkBase,
  language: SimLanguage,
): Record<string, unknown> {
  const translations = instance.index.translationsByLanguage.get(language.id) ?? [];
  const counts = sumCounts(translations.map((t) => countTranslation(instance, t)));
  return {
    ...statisticsFields(counts, 'translated'),
    name: language.name,
    url: `${base.site}languages/${languagePath(language)}`,
  };
}

export function renderProjectStatistics(
  instance: SimInstance,
  base: LinkBase,
  project: SimProject,
): Record<string, unknown> {
  const counts = sumCounts(
    (instance.index.componentsByProject.get(project.id) ?? []).flatMap((component) =>
      (instance.index.translationsByComponent.get(component.id) ?? []).map((t) =>
        countTranslation(instance, t),
      ),
    ),
  );
  return {
    ...statisticsFields(counts, project.translationReview ? 'approved' : 'translated'),
    name: project.name,
    url: `${base.site}projects/${projectPath(project)}`,
  };
}

export function renderSubscription(
  instance: SimInstance,
  base: LinkBase,
  subscription: SimSubscription,
): Record<string, unknown> {
  const project =
    subscription.projectId === null
      ? undefined
      : instance.index.projectById.get(subscription.projectId);
  const component =
    subscription.componentId === null
      ? undefined
      : instance.index.componentById.get(subscription.componentId);
  // 5.15 and later link the project or component, and only for a subscription of that scope.
  const links = isAtLeast(base.release, '5.15');
  return {
    notification: subscription.notification,
    id: subscription.id,
    scope: subscription.scope,
    frequency: subscription.frequency,
    project: !project
      ? null
      : links
        ? apiUrl(base, `projects/${projectPath(project)}`)
        : renderProject(instance, base, project),
    component: !component
      ? null
      : links
        ? apiUrl(base, `components/${componentPath(instance, component)}`)
        : renderComponent(instance, base, component),
  };
}

/** The basic user serializer a normal (non-admin) token sees: id, full_name, username. */
export function renderUser(
  _instance: SimInstance,
  _base: LinkBase,
  user: SimUser,
): Record<string, unknown> {
  return { id: user.id, full_name: user.fullName, username: user.username };
}

const ROOT_RESOURCES = [
  'addons',
  'announcements',
  'categories',
  'changes',
  'component-lists',
  'components',
  'groups',
  'labels',
  'languages',
  'memory',
  'metrics',
  'projects',
  'roles',
  'screenshots',
  'tasks',
  'translations',
  'units',
  'users',
];

/** `/api/`: DRF's router root, one link per registered resource. */
export function renderApiRoot(_instance: SimInstance, base: LinkBase): Record<string, unknown> {
  return Object.fromEntries(ROOT_RESOURCES.map((name) => [name, apiUrl(base, `${name}/`)]));
}
