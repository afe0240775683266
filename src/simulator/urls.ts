import type {
  SimComponent,
  SimInstance,
  SimLanguage,
  SimProject,
  SimTranslation,
} from './model.ts';

/**
 * Absolute URLs as Weblate puts them in payloads. API links carry `?format=api` (the spec's
 * convention: they were recorded through the browsable API); web links carry no query.
 * `base` always ends with a slash.
 */
export function apiUrl(base: string, path: string): string {
  return `${base}api/${path}?format=api`;
}

const segment = (text: string): string => encodeURIComponent(text);

export function projectPath(project: SimProject): string {
  return `${segment(project.slug)}/`;
}

export function componentPath(instance: SimInstance, component: SimComponent): string {
  const project = instance.index.projectById.get(component.projectId);
  return `${segment(project?.slug ?? '')}/${segment(component.slug)}/`;
}

export function translationPath(instance: SimInstance, translation: SimTranslation): string {
  const component = instance.index.componentById.get(translation.componentId);
  const language = instance.index.languageById.get(translation.languageId);
  const prefix = component === undefined ? '' : componentPath(instance, component);
  return `${prefix}${segment(language?.code ?? '')}/`;
}

export function languagePath(language: SimLanguage): string {
  return `${segment(language.code)}/`;
}

export function userApiUrl(base: string, username: string | null): string | null {
  return username === null ? null : apiUrl(base, `users/${segment(username)}/`);
}
