/**
 * The in-memory Weblate instance the simulator serves. Everything is plain, mutable data
 * (arrays plus the maps in `SimIndex`), so a test or a fault-injection layer can change it
 * between or during walks and call `buildIndex` (or patch the index) afterwards. Fields
 * that the API derives (URLs, booleans from `state`, statistics) are computed when
 * rendering, not stored. Timestamps are kept as the exact ISO text the server emits, with
 * the instant in microseconds alongside where the server needs to compare them.
 */

/** Weblate's `StringState` values (weblate/utils/state.py). */
export const UNIT_STATES = {
  empty: 0,
  fuzzy: 10,
  needsRewriting: 11,
  needsChecking: 12,
  translated: 20,
  approved: 30,
  readonly: 100,
} as const;
export type UnitState = (typeof UNIT_STATES)[keyof typeof UNIT_STATES];

export interface SimPlural {
  id: number;
  source: number;
  number: number;
  formula: string;
  type: number;
}

export interface SimLanguage {
  id: number;
  code: string;
  name: string;
  direction: 'ltr' | 'rtl';
  population: number;
  aliases: string[];
  plural: SimPlural;
}

export interface SimProject {
  id: number;
  slug: string;
  name: string;
  web: string;
  instructions: string;
  translationReview: boolean;
  sourceReview: boolean;
  setLanguageTeam: boolean;
  enableHooks: boolean;
  languageAliases: string;
}

/** A project's category (Weblate 5.0+): components sit in it; it may sit in another. */
export interface SimCategory {
  id: number;
  projectId: number;
  slug: string;
  name: string;
  /** The category it sits in; null at the top of its project. */
  parentId: number | null;
}

/** A project's label, which strings (units) carry. */
export interface SimLabel {
  id: number;
  projectId: number;
  name: string;
  description: string;
  color: string;
}

export type FileFormat = 'po' | 'strings-utf8' | 'json' | 'aresource';

export interface SimComponent {
  id: number;
  projectId: number;
  slug: string;
  name: string;
  sourceLanguageId: number;
  fileFormat: FileFormat;
  /** Source file for monolingual formats; "" for bilingual ones (po). */
  template: string;
  filemask: string;
  newBase: string;
  repo: string;
  branch: string;
  pushBranch: string;
  license: string;
  licenseUrl: string | null;
  agreement: string;
  /** Id of a pending background task (rendered as `task_url`), if any. */
  taskId: string | null;
  checkFlags: string;
  enforcedChecks: string[];
  restricted: boolean;
  isGlossary: boolean;
  /** Another component this one shares its repository with (`weblate://p/c`), if any. */
  linkedComponentId: number | null;
  languageRegex: string;
  priority: number;
  /** The category it sits in (only with `categoriesAndLabels`); absent or null: the top. */
  categoryId?: number | null;
}

export interface SimTranslation {
  id: number;
  componentId: number;
  languageId: number;
  isSource: boolean;
  isTemplate: boolean;
  filename: string;
  /** 40 hex digits; "file,template" for monolingual target translations, as Weblate keeps. */
  revision: string;
}

export interface SimUnit {
  id: number;
  translationId: number;
  /** Ids of the labels the unit carries, ascending; absent: none. */
  labelIds?: number[];
  /** Plural forms; shared (by reference) between the languages of a component. */
  source: string[];
  previousSource: string;
  target: string[];
  idHash: bigint;
  contentHash: bigint;
  location: string;
  context: string;
  note: string;
  flags: string;
  explanation: string;
  extraFlags: string;
  state: UnitState;
  position: number;
  hasSuggestion: boolean;
  hasComment: boolean;
  hasFailingCheck: boolean;
  numWords: number;
  /** Code points of the source as Weblate stores it (plural forms joined by "\x1e\x1e"). */
  numChars: number;
  sourceUnitId: number;
  priority: number;
  pending: boolean;
  timestamp: string;
  lastUpdated: string;
  lastUpdatedUs: number;
}

export interface SimChange {
  id: number;
  action: number;
  actionName: string;
  projectId: number;
  componentId: number | null;
  translationId: number | null;
  unitId: number | null;
  /** Usernames (the API links to `/api/users/<username>/`). */
  user: string | null;
  author: string | null;
  timestamp: string;
  timestampUs: number;
  target: string;
  old: string;
  details: Record<string, unknown>;
}

/**
 * One move of a unit's state, as the simulator made it: logged by a change (`changeId`) or
 * not (Weblate's silent `QuerySet.update()`s and read-only toggles, `changeId` null). `from`
 * -1 is a string created, `to` -1 one removed. A change that carries states without moving
 * them (an explanation, a text edit) is a move with `from === to`. Kept apart from the change
 * log, which loses a removed string's changes, so that the true history is always known.
 */
export interface SimStateMove {
  /** Epoch microseconds. */
  us: number;
  unitId: number;
  translationId: number;
  /** The string's source words (`num_words`). */
  words: number;
  from: number;
  to: number;
  changeId: number | null;
}

/** The true history of unit states (history.ts, true-progress.ts). */
export interface SimHistory {
  /** Epoch microseconds at which the generated change history starts. */
  startUs: number;
  /** In the order they happened. */
  moves: SimStateMove[];
}

export interface SimSubscription {
  id: number;
  notification: string;
  /** Weblate's NotificationScope: 0 all, 10 watched, 20 administered, 30 project, 40 component. */
  scope: number;
  frequency: number;
  projectId: number | null;
  componentId: number | null;
}

export interface SimUser {
  id: number;
  username: string;
  fullName: string;
  subscriptions: SimSubscription[];
}

export interface SimIndex {
  languageById: Map<number, SimLanguage>;
  languageByCode: Map<string, SimLanguage>;
  projectById: Map<number, SimProject>;
  projectBySlug: Map<string, SimProject>;
  componentById: Map<number, SimComponent>;
  /** Key `project/component`. */
  componentByPath: Map<string, SimComponent>;
  componentsByProject: Map<number, SimComponent[]>;
  translationById: Map<number, SimTranslation>;
  /** Key `project/component/language`. */
  translationByPath: Map<string, SimTranslation>;
  translationsByComponent: Map<number, SimTranslation[]>;
  translationsByLanguage: Map<number, SimTranslation[]>;
  unitById: Map<number, SimUnit>;
  /** Ascending id per translation. */
  unitsByTranslation: Map<number, SimUnit[]>;
  changeById: Map<number, SimChange>;
  /** Newest first: timestamp descending, ties by id descending. */
  changesNewestFirst: SimChange[];
  changesByProject: Map<number, SimChange[]>;
  changesByComponent: Map<number, SimChange[]>;
  changesByTranslation: Map<number, SimChange[]>;
  userByUsername: Map<string, SimUser>;
}

/** A group of units counted three ways, as Weblate's statistics do. */
export interface GroupCounts {
  count: number;
  words: number;
  chars: number;
}

export interface StatisticsCounts {
  all: GroupCounts;
  translated: GroupCounts;
  fuzzy: GroupCounts;
  approved: GroupCounts;
  readonly: GroupCounts;
  failing: GroupCounts;
  suggestions: number;
  comments: number;
  recentChanges: number;
  /** ISO text and instant of the newest change of any kind, if any. */
  lastChange: string | null;
  lastChangeUs: number;
  /** Username of the newest change's author. */
  lastAuthor: string | null;
}

export interface SimInstance {
  seed: number;
  languages: SimLanguage[];
  projects: SimProject[];
  components: SimComponent[];
  translations: SimTranslation[];
  /** Ascending id. */
  units: SimUnit[];
  /** Ascending id (which is also ascending time). */
  changes: SimChange[];
  /** Includes `anonymous`, which has no subscriptions. */
  users: SimUser[];
  /** Ascending id; empty unless generated with `categoriesAndLabels`. */
  categories: SimCategory[];
  /** Ascending id; empty unless generated with `categoriesAndLabels`. */
  labels: SimLabel[];
  history: SimHistory;
  index: SimIndex;
  /**
   * Counts that translations answer instead of their current ones, by translation id: set by
   * the compat layer only while it answers a request it keeps stale (staleTranslationStatistics).
   */
  answeringCounts?: ReadonlyMap<number, StatisticsCounts>;
}

export function isFuzzyState(state: number): boolean {
  return state >= 10 && state < 20;
}
