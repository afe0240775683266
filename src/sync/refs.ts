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

/**
 * A translation's reference from its record's fields (a list's record or a mirrored row).
 * Weblate links a translation's units and statistics at `<url>units/` and `<url>statistics/`;
 * the reference keeps only a link that differs, so that the lookup of a large instance (50,000
 * translations) does not hold two more URLs for each.
 */
export function translationRef(fields: TranslationRef): TranslationRef {
  return new LinkedTranslation(fields);
}

/** Where Weblate links a translation's lists, under its URL. */
const UNITS = 'units/';
const STATISTICS = 'statistics/';

class LinkedTranslation implements TranslationRef {
  readonly id: number;
  readonly url: string;
  readonly languageCode: string;
  readonly language: string;
  readonly component: ComponentRef;
  readonly total: number | null;
  /** Null where the link is the usual one under `url`. */
  readonly #unitsUrl: string | null;
  readonly #statisticsUrl: string | null;

  constructor(fields: TranslationRef) {
    this.id = fields.id;
    this.url = fields.url;
    this.languageCode = fields.languageCode;
    this.language = fields.language;
    this.component = fields.component;
    this.total = fields.total;
    this.#unitsUrl = fields.unitsUrl === fields.url + UNITS ? null : fields.unitsUrl;
    this.#statisticsUrl =
      fields.statisticsUrl === fields.url + STATISTICS ? null : fields.statisticsUrl;
  }

  get unitsUrl(): string {
    return this.#unitsUrl ?? this.url + UNITS;
  }

  get statisticsUrl(): string {
    return this.#statisticsUrl ?? this.url + STATISTICS;
  }
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
