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
