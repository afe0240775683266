// What discovery found, in the shape later stages need: the projects, components and
// translations of this run, by id and by URL, to attribute units, changes and statistics.

/** A project as its list showed it, with the lists the later stages read. */
export interface ProjectRef {
  id: number;
  slug: string;
  componentsUrl: string;
  changesUrl: string;
}

/** A component as its list showed it, with the lists the later stages read. */
export interface ComponentRef {
  id: number;
  slug: string;
  projectId: number;
  projectSlug: string;
  url: string | null;
  translationsUrl: string;
  statisticsUrl: string;
}

/** A translation as its list showed it, with what the later stages need. */
export interface TranslationRef {
  id: number;
  url: string;
  /** The translation's `language_code` (may differ from its language's code, e.g. Android's `b+ach`). */
  languageCode: string;
  /** Code of the translation's language record, the key of languages and language statistics. */
  language: string;
  component: ComponentRef;
  total: number | null;
  unitsUrl: string;
  statisticsUrl: string;
}

/**
 * A project's reference from its record's fields (a list's record or a mirrored row); paths
 * relative to /api/ stand in for the lists an older server did not link.
 */
export function projectRef(fields: {
  id: number;
  slug: string;
  componentsUrl: string | null | undefined;
  changesUrl: string | null | undefined;
}): ProjectRef {
  const base = `projects/${encodeURIComponent(fields.slug)}/`;
  return {
    id: fields.id,
    slug: fields.slug,
    componentsUrl: fields.componentsUrl ?? `${base}components/`,
    changesUrl: fields.changesUrl ?? `${base}changes/`,
  };
}

/** A component's reference in its project, from its record's fields (see projectRef). */
export function componentRef(
  fields: {
    id: number;
    slug: string;
    url: string | null | undefined;
    translationsUrl: string | null | undefined;
    statisticsUrl: string | null | undefined;
  },
  project: { id: number; slug: string },
): ComponentRef {
  const base = `components/${encodeURIComponent(project.slug)}/${encodeURIComponent(fields.slug)}/`;
  return {
    id: fields.id,
    slug: fields.slug,
    projectId: project.id,
    projectSlug: project.slug,
    url: fields.url ?? null,
    translationsUrl: fields.translationsUrl ?? `${base}translations/`,
    statisticsUrl: fields.statisticsUrl ?? `${base}statistics/`,
  };
}

/** What discovery found, to attribute units, changes and statistics to their objects. */
export interface Lookup {
  componentsById: Map<number, ComponentRef>;
  componentsByUrl: Map<string, ComponentRef>;
  translationsById: Map<number, TranslationRef>;
  translationsByUrl: Map<string, TranslationRef>;
}

export function emptyLookup(): Lookup {
  return {
    componentsById: new Map(),
    componentsByUrl: new Map(),
    translationsById: new Map(),
    translationsByUrl: new Map(),
  };
}
