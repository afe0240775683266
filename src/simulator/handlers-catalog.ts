import type { SimInstance, SimProject } from './model.ts';
import { arraySelection, paginate, STANDARD_PAGINATION } from './pagination.ts';
import {
  renderApiRoot,
  renderComponent,
  renderLanguage,
  renderProject,
  renderSubscription,
  renderTranslation,
  renderUser,
} from './render.ts';
import { notFound, ok, type SimRequest, type SimResponse } from './responses.ts';
import { linkBaseOf } from './urls.ts';

/** A route handler: pure, from the instance and the request to the response. */
export type Handler = (
  instance: SimInstance,
  request: SimRequest,
  params: readonly string[],
) => SimResponse;

/** Lists are ordered by id (`order_by("id")` in weblate/api/views.py); sorting a copy keeps mutated instances correct. */
export function sortedById<T extends { id: number }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => a.id - b.id);
}

export function findProject(
  instance: SimInstance,
  slug: string | undefined,
): SimProject | undefined {
  return instance.index.projectBySlug.get(slug ?? '');
}

export const apiRoot: Handler = (instance, request) =>
  ok(renderApiRoot(instance, linkBaseOf(request)));

export const listProjects: Handler = (instance, request) =>
  paginate(request, STANDARD_PAGINATION, arraySelection(sortedById(instance.projects)), (project) =>
    renderProject(instance, linkBaseOf(request), project),
  );

export const getProject: Handler = (instance, request, [slug]) => {
  const project = findProject(instance, slug);
  return project ? ok(renderProject(instance, linkBaseOf(request), project)) : notFound();
};

/** The project-scoped list leaves out the nested project (`remove_fields`). */
export const listProjectComponents: Handler = (instance, request, [slug]) => {
  const project = findProject(instance, slug);
  if (!project) return notFound();
  const components = sortedById(instance.index.componentsByProject.get(project.id) ?? []);
  return paginate(request, STANDARD_PAGINATION, arraySelection(components), (component) =>
    renderComponent(instance, linkBaseOf(request), component, 'without-project'),
  );
};

export const listComponents: Handler = (instance, request) =>
  paginate(
    request,
    STANDARD_PAGINATION,
    arraySelection(sortedById(instance.components)),
    (component) => renderComponent(instance, linkBaseOf(request), component),
  );

export const getComponent: Handler = (instance, request, [project, slug]) => {
  const component = instance.index.componentByPath.get(`${project}/${slug}`);
  return component ? ok(renderComponent(instance, linkBaseOf(request), component)) : notFound();
};

/** The component-scoped list leaves out the nested component (`remove_fields`). */
export const listComponentTranslations: Handler = (instance, request, [project, slug]) => {
  const component = instance.index.componentByPath.get(`${project}/${slug}`);
  if (!component) return notFound();
  const translations = sortedById(instance.index.translationsByComponent.get(component.id) ?? []);
  return paginate(request, STANDARD_PAGINATION, arraySelection(translations), (translation) =>
    renderTranslation(instance, linkBaseOf(request), translation, 'without-component'),
  );
};

export const listTranslations: Handler = (instance, request) =>
  paginate(
    request,
    STANDARD_PAGINATION,
    arraySelection(sortedById(instance.translations)),
    (translation) => renderTranslation(instance, linkBaseOf(request), translation),
  );

export const getTranslation: Handler = (instance, request, [project, component, language]) => {
  const translation = instance.index.translationByPath.get(`${project}/${component}/${language}`);
  return translation
    ? ok(renderTranslation(instance, linkBaseOf(request), translation))
    : notFound();
};

export const listLanguages: Handler = (instance, request) =>
  paginate(
    request,
    STANDARD_PAGINATION,
    arraySelection(sortedById(instance.languages)),
    (language) => renderLanguage(instance, linkBaseOf(request), language),
  );

export const getLanguage: Handler = (instance, request, [code]) => {
  const language = instance.index.languageByCode.get(code ?? '');
  return language ? ok(renderLanguage(instance, linkBaseOf(request), language)) : notFound();
};

export const getUser: Handler = (instance, request, [username]) => {
  const user = instance.index.userByUsername.get(username ?? '');
  return user ? ok(renderUser(instance, linkBaseOf(request), user)) : notFound();
};

export const listNotifications: Handler = (instance, request, [username]) => {
  const user = instance.index.userByUsername.get(username ?? '');
  if (!user) return notFound();
  return paginate(
    request,
    STANDARD_PAGINATION,
    arraySelection(sortedById(user.subscriptions)),
    (subscription) => renderSubscription(instance, linkBaseOf(request), subscription),
  );
};
