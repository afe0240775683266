import type { ComponentRef, ProjectRef } from '../../src/sync/refs.ts';

/** Project 1 `p` and its component 2 `c`: the parents of rows that database tests write. */
export const PROJECT: ProjectRef = { id: 1, slug: 'p', componentsUrl: '', changesUrl: '' };

export const COMPONENT: ComponentRef = {
  id: 2,
  slug: 'c',
  projectId: 1,
  projectSlug: 'p',
  url: null,
  translationsUrl: '',
  statisticsUrl: '',
};
