import { findProject, type Handler, sortedById } from './handlers-catalog.ts';
import { arraySelection, paginate, STANDARD_PAGINATION } from './pagination.ts';
import { renderCategory, renderLabel } from './render-labels.ts';
import { notFound, ok } from './responses.ts';
import { linkBaseOf } from './urls.ts';

// Categories and labels, as weblate/api/views.py lists them: ordered by id, paginated like
// every standard list. The global category list and the detail serve every project's.

export const listCategories: Handler = (instance, request) =>
  paginate(request, STANDARD_PAGINATION, arraySelection(sortedById(instance.categories)), (c) =>
    renderCategory(instance, linkBaseOf(request), c),
  );

export const getCategory: Handler = (instance, request, [id]) => {
  const category = instance.categories.find((c) => String(c.id) === id);
  return category ? ok(renderCategory(instance, linkBaseOf(request), category)) : notFound();
};

export const listProjectCategories: Handler = (instance, request, [slug]) => {
  const project = findProject(instance, slug);
  if (!project) return notFound();
  const categories = instance.categories.filter((c) => c.projectId === project.id);
  return paginate(request, STANDARD_PAGINATION, arraySelection(sortedById(categories)), (c) =>
    renderCategory(instance, linkBaseOf(request), c),
  );
};

export const listProjectLabels: Handler = (instance, request, [slug]) => {
  const project = findProject(instance, slug);
  if (!project) return notFound();
  const labels = instance.labels.filter((l) => l.projectId === project.id);
  return paginate(request, STANDARD_PAGINATION, arraySelection(sortedById(labels)), renderLabel);
};
