// The metric catalogue's entries: every figure a surface shows, defined once (see lookup.ts).

/** What a figure counts or measures. */
export type Unit =
  | 'strings'
  | 'words'
  | 'percent'
  | 'changes'
  | 'translations'
  | 'components'
  | 'projects'
  | 'languages'
  | 'people'
  | 'rank'
  | 'days'
  | 'hours'
  | 'characters'
  | 'words a day'
  | 'strings a day'
  | 'user-days'
  | 'money'
  | 'date'
  | 'timestamp'
  | 'seconds'
  | 'flag'
  | 'text'
  | 'rows'
  | 'records'
  | 'requests'
  | 'spans';

/**
 * What history a figure reads: the mirror's state now; the progress history (measured
 * snapshots, and the estimate from the change log before the first, marked as such); the
 * change log; measured snapshots only; or the mirror's own run records.
 */
export type History = 'now' | 'progress history' | 'measured history' | 'change log' | 'runs';

export interface Metric {
  /** Its one name: the key in JSON and CSV, and the column of the SQL object where it has one. */
  name: string;
  /** The column heading of the text and HTML tables (and Grafana's, where it shows the figure). */
  heading: string;
  /** What it is, in a sentence. */
  definition: string;
  unit: Unit;
  /** What one value describes, e.g. `translation; summed per project, component, language`. */
  grain: string;
  history: History;
  /** How estimated history is marked where the figure reads it. */
  seam?: string;
  /** The SQL object that computes it. */
  source: string;
  /** Other names the same figure goes by on some surface (`grafana: …`, `healthz: …`). */
  aliases?: readonly string[];
  /** Where a close figure differs, the difference, said once. */
  note?: string;
  /** What the mirrored data cannot tell, so the figure cannot know it. */
  blindSpots?: string;
}

/** What a row is about: identifiers and labels, not figures. */
export interface Dimension {
  name: string;
  heading: string;
  meaning: string;
}

const PROGRESS_GRAIN =
  'a translation; summed per project, component, language, category (with those inside it) and label × language';
const PROGRESS_SOURCE =
  'weblate.progress_by_project, progress_by_component, progress_by_language, progress_by_category, progress_total (over translation_progress); progress_by_label for labels';
const PERIOD_GRAIN = 'the window, per person (and per language)';

/** A progress count: `what` of the strings of the translations in the group, now. */
function count(name: string, heading: string, definition: string, unit: Unit = 'strings'): Metric {
  return {
    name,
    heading,
    definition,
    unit,
    grain: PROGRESS_GRAIN,
    history: 'now',
    source: PROGRESS_SOURCE,
  };
}

const PROGRESS: readonly Metric[] = [
  count(
    'translations',
    'translations',
    'Live target-language translations in the group (source-language translations left out).',
    'translations',
  ),
  {
    ...count('total', 'strings', 'Strings of those translations, as Weblate counts a translation.'),
    note: "A translation's figures, and a language's over a project's translations, equal Weblate's statistics of them. Weblate's statistics of a project, component or category also count their source-language translations (as does its row of a project's source language): each of its counts there is the report's plus theirs, and its percentages are taken over those sums, so they differ from the report's (test/real-weblate/report.test.ts checks both).",
  },
  count('total_words', 'words', 'Source words of those strings.', 'words'),
  count(
    'translated',
    'translated',
    "Strings in a translated state (Weblate's translated, approved and read-only).",
  ),
  count('translated_words', 'translated words', 'Source words of the translated strings.', 'words'),
  {
    ...count(
      'translated_percent',
      'translated %',
      'Translated strings of all strings, as Weblate computes it: from summed counts (never an average of percentages), truncated to one decimal, never 0.0 when something is done nor 100.0 when something is left; 100.0 for a group without strings.',
      'percent',
    ),
    aliases: [
      'json: movers rows translated_percent_now is the same figure read from the progress history today',
    ],
    note: "Weblate's truncation, so equal to its translated_percent wherever the counts are equal (see total for where they are not). For a group without strings Weblate says 0.0 translated and 100.0 approved where it treats reviews as on (a project with reviews; its statistics of a language across projects always), as only approved strings are done there; the report says 100.0 and 0.0. The tier meets no such group.",
  },
  {
    ...count(
      'translated_words_percent',
      'words %',
      'Translated words of all source words, computed as translated %.',
      'percent',
    ),
    aliases: [
      "digest: ready rows translated_words_percent_then and translated_words_percent_now are the same figure from the language's history, at the end of the day before the period and on its last day",
    ],
  },
  count(
    'fuzzy',
    'fuzzy',
    "Strings needing editing (Weblate's needs editing, needs rewriting and needs checking).",
  ),
  count(
    'approved',
    'approved',
    "Strings approved by a reviewer, from the translation's latest statistics snapshot.",
  ),
  count(
    'approved_percent',
    'approved %',
    'Approved strings of all strings, as translated %.',
    'percent',
  ),
  {
    ...count(
      'approved_words_percent',
      'approved words %',
      'Source words of the approved strings of all source words, as translated %.',
      'percent',
    ),
    source:
      "weblate.truncated_percent over progress_by_language's approved_words and total_words (ready --basis approved --by words, watch readiness rules)",
  },
  {
    ...count('failing', 'failing', 'Strings with at least one failing check.'),
    note: 'In the quality section, the same count at the end of each period, from measured snapshots only.',
  },
  {
    ...count(
      'failing_percent',
      'failing %',
      'Strings with failing checks of all strings, as translated %.',
      'percent',
    ),
  },
  count('untranslated', 'strings left', 'Strings not translated: strings minus translated.'),
  count('untranslated_words', 'words left', 'Source words of the strings left.', 'words'),
  {
    ...count(
      'last_change',
      'last change',
      "Weblate's time of the newest change of any kind in the group's translations.",
      'timestamp',
    ),
  },
  count(
    'components',
    'components',
    'Live components in the group (with a translation in scope).',
    'components',
  ),
  count('projects', 'projects', 'Projects with a live translation into the language.', 'projects'),
];

const HISTORY_SEAM =
  "Days before a translation's first statistics snapshot are estimated from the change log; where a figure reads one, it says so (`origin`, `from_origin` or `pace_origin` = 'estimated', '(estimated)' in the tables, dotted lines in the charts).";
const SPANS = 'weblate.translation_progress_spans';

const HISTORY: readonly Metric[] = [
  {
    name: 'translated_percent_then',
    heading: '% then',
    definition:
      'Translated % at the end of the day before the window began, or on the first day of the history after it where the history starts later.',
    unit: 'percent',
    grain: 'a translation (movers); a label × language (labels)',
    history: 'progress history',
    seam: `${HISTORY_SEAM} Label history is measured only: it starts when the mirror first recorded it.`,
    source: `${SPANS} (movers); weblate.progress_by_label_daily (labels)`,
  },
  {
    name: 'translated_percent_now',
    heading: '% now',
    definition:
      'Translated % today in the progress history (the latest statistics snapshot): translated % as the history holds it.',
    unit: 'percent',
    grain: 'a translation',
    history: 'progress history',
    source: SPANS,
  },
  {
    name: 'translated_percent_change',
    heading: '% change',
    definition: '% now minus % then, in percentage points.',
    unit: 'percent',
    grain: 'a translation (movers); a label × language (labels)',
    history: 'progress history',
    seam: HISTORY_SEAM,
    source: `${SPANS} (movers); weblate.progress_by_label_daily (labels)`,
  },
  {
    name: 'translated_words_before',
    heading: 'translated words then',
    definition: 'Translated words at the day movers compare with.',
    unit: 'words',
    grain: 'a translation',
    history: 'progress history',
    seam: HISTORY_SEAM,
    source: SPANS,
  },
  {
    name: 'translated_words_now',
    heading: 'translated words now',
    definition: 'Translated words today in the progress history.',
    unit: 'words',
    grain: 'a translation',
    history: 'progress history',
    source: SPANS,
  },
  {
    name: 'translated_words_change',
    heading: 'words change',
    definition:
      'Translated words now minus then: net words translated over the window (strings turned back into needing editing count against it).',
    unit: 'words',
    grain: 'a translation',
    history: 'progress history',
    seam: HISTORY_SEAM,
    source: SPANS,
    note: 'Over the last 30 days it is the pace of release readiness (words_translated_30d), translation by translation.',
  },
  {
    name: 'estimated_translations',
    heading: 'estimated translations',
    definition:
      'Translations of the group whose figures that day are estimated rather than measured.',
    unit: 'translations',
    grain: 'a language and day',
    history: 'progress history',
    seam: HISTORY_SEAM,
    source: 'weblate.progress_by_language_daily',
  },
  {
    name: 'idle_since',
    heading: 'idle since',
    definition:
      "The later of the translation's last change (or its first mirrored change, or when the mirror first saw it) and the start of the last day its translated strings moved in the progress history.",
    unit: 'timestamp',
    grain: 'a translation with strings left',
    history: 'progress history',
    seam: HISTORY_SEAM,
    source: 'weblate.idle_translations (stalled_translations)',
  },
  {
    name: 'days_since_last_change',
    heading: 'days idle',
    definition: 'Whole days (24 hours each) from idle since to now.',
    unit: 'days',
    grain: 'a translation with strings left',
    history: 'progress history',
    source: 'weblate.idle_translations (stalled_translations)',
  },
];

const PACE_SOURCE = 'weblate.translation_pace, summed by weblate.release_readiness';

const READINESS: readonly Metric[] = [
  {
    name: 'words_translated_30d',
    heading: 'net words, 30 days',
    definition:
      'Translated words today minus those at the end of the day 30 days ago, summed over the translations whose history reaches back that far: the net words translated over the last 30 days.',
    unit: 'words',
    grain: 'a project (or component) and language',
    history: 'progress history',
    seam: `${HISTORY_SEAM} Unknown (null, "pace unknown until <date>") where no translation's history reaches back 30 days; never 0 for want of history.`,
    source: PACE_SOURCE,
    aliases: ['completion_forecast and language_completion_forecast: words_translated_30d'],
    note: 'Equals the words change of the 30-day movers, translation by translation. Not words translated: that counts every translating change, however often a string is saved, and nothing lost.',
  },
  {
    name: 'words_per_day',
    heading: 'net words a day',
    definition: 'Net words, 30 days, divided by 30: the pace.',
    unit: 'words a day',
    grain: 'a project (or component) and language',
    history: 'progress history',
    seam: 'As net words, 30 days; the tables write `estimated` after it, and `(k of n translations)` where not every translation has a pace.',
    source: PACE_SOURCE,
  },
  {
    name: 'pace_translations',
    heading: 'translations with a pace',
    definition: 'Translations of the group whose history reaches back 30 days.',
    unit: 'translations',
    grain: 'a project (or component) and language',
    history: 'progress history',
    source: PACE_SOURCE,
  },
  {
    name: 'pace_known_from',
    heading: 'pace known from',
    definition:
      "Where the pace is unknown: the first day a translation's history will reach back 30 days.",
    unit: 'date',
    grain: 'a project (or component) and language',
    history: 'progress history',
    source: PACE_SOURCE,
  },
  {
    name: 'words_needed',
    heading: 'words needed',
    definition:
      'Translated words still missing to reach the threshold: ceil(threshold × words / 100) − translated words, at least 0.',
    unit: 'words',
    grain: 'a project and language, per threshold',
    history: 'now',
    source: 'weblate.release_readiness',
  },
  {
    name: 'status',
    heading: 'status',
    definition:
      'What the report and the dashboard write for a threshold: `reached`, the projected day, `pace unknown until <date>`, `no net progress in 30 days` or `losing ground: <net words> words in 30 days`; the tables show it under each threshold.',
    unit: 'text',
    grain: 'a project and language, per threshold',
    history: 'progress history',
    seam: HISTORY_SEAM,
    source: 'weblate.release_readiness',
  },
  {
    name: 'is_reached',
    heading: 'reached',
    definition: 'Whether the translated words reach the threshold.',
    unit: 'flag',
    grain: 'a project and language, per threshold',
    history: 'now',
    source: 'weblate.release_readiness',
  },
  {
    name: 'projected_date',
    heading: 'projected',
    definition:
      'The UTC day the threshold would be reached at the pace: today plus ceil(words needed / pace) days; none when reached, or when the pace is unknown, 0 or negative. The threshold columns of the tables show it, or `reached`, `pace unknown until <date>`, `no net progress in 30 days` or `losing ground`.',
    unit: 'date',
    grain: 'a project and language, per threshold',
    history: 'progress history',
    seam: HISTORY_SEAM,
    source: 'weblate.release_readiness',
    aliases: ['completion_forecast: projected_completion (words left instead of words needed)'],
  },
];

const CHANGE_SEAM =
  'Reads the change log, which the mirror keeps after Weblate deletes an object: deleted objects’ changes count, with the slugs they recorded.';
const TRANSLATING =
  'changes that saved a translation on its author’s behalf (2 translated, 5 added, 7 suggestion accepted, 9 uploaded)';

function activity(
  name: string,
  heading: string,
  definition: string,
  rest: Pick<Metric, 'unit' | 'grain' | 'source'> & Partial<Metric>,
): Metric {
  return { name, heading, definition, history: 'change log', seam: CHANGE_SEAM, ...rest };
}

const ACTIVITY: readonly Metric[] = [
  activity(
    'changes',
    'changes',
    'Changes logged in the window: every action, with an author or without.',
    {
      unit: 'changes',
      grain: 'a UTC day; the window',
      source: 'weblate.activity_daily',
    },
  ),
  activity(
    'words_translated',
    'words translated',
    `Source words of the strings of ${TRANSLATING}, each change counting: a string saved twice counts twice.`,
    {
      unit: 'words',
      grain: 'a UTC day; the window; per person (the change’s author)',
      source: 'weblate.activity_daily; weblate.contributions per person',
      note: 'Not translated words (strings in a translated state now), nor words saved (every change that put a new target in a string, machines and uploads included), nor net words, 30 days (the change in translated words). Per person it adds up, with the words translated without an author, to the window’s words translated.',
    },
  ),
  activity(
    'words_translated_without_author',
    'words translated without an author',
    'The words translated of changes that have no author (a deleted account, or a change Weblate made itself): credited to nobody.',
    { unit: 'words', grain: 'the window', source: 'weblate.activity_daily' },
  ),
  activity('authors', 'authors', 'Distinct authors of the day’s changes.', {
    unit: 'people',
    grain: 'a UTC day',
    source: 'weblate.activity_daily',
  }),
  activity(
    'credited_changes',
    'credited changes',
    "Changes credited to the person as Weblate's credits report counts them: content changes (Weblate's ACTIONS_CONTENT) in a translation, by their author.",
    {
      unit: 'changes',
      grain: PERIOD_GRAIN,
      source: 'weblate.contributions (content_changes)',
      note: "Equal to Weblate's credits per person and language over the same UTC days (its range includes both ends: it ends at the last microsecond of the window's last day). Equal to the count of Weblate's contributor statistics (the 2026 reports API, kind contributor_stats) when they count all changes (counting_mode all); their default, unique, counts a string once per person and kind (new, approved, edited), at most the credited changes. Weblate 5.14 has no API for contributor statistics. test/real-weblate/report.test.ts checks each.",
    },
  ),
  activity(
    'credited_words',
    'credited words',
    'Source words of the strings of the credited changes.',
    {
      unit: 'words',
      grain: PERIOD_GRAIN,
      source: 'weblate.contributions (content_words)',
      note: "Equal to the source words of Weblate's contributor statistics counting all changes (test/real-weblate/report.test.ts), except where Weblate 2026 counts other words than the string's own (its num_words, which the mirror sums): a source string change (action 30) with the source that change set, once the string changed again; and a string translated from another translation (translation_parent) with its source, where num_words counts the parent's text. The tier meets neither. Not words translated: every content change counts (approvals, marks for editing, automatic translations), not only the translating ones.",
    },
  ),
  activity(
    'last_day',
    'last active',
    'The last UTC day in the window with any change by the person.',
    {
      unit: 'date',
      grain: 'a person',
      source: 'weblate.activity_daily',
    },
  ),
  activity(
    'people_credited',
    'people credited',
    'People with at least one credited change in the window.',
    {
      unit: 'people',
      grain: 'the window',
      source: 'weblate.contributions',
      aliases: ['json and csv: contributors matching'],
    },
  ),
  activity(
    'rank',
    'rank',
    'Place by words translated, then strings translated (equal figures share a place: 1, 2, 2, 4).',
    {
      unit: 'rank',
      grain: PERIOD_GRAIN,
      source: 'weblate.contributions',
    },
  ),
  activity('strings_translated', 'strings translated', `The person's ${TRANSLATING}.`, {
    unit: 'changes',
    grain: PERIOD_GRAIN,
    source: 'weblate.contributions',
  }),
  activity('strings_approved', 'strings approved', 'Approvals (36) by the person, the reviewer.', {
    unit: 'changes',
    grain: PERIOD_GRAIN,
    source: 'weblate.contributions',
  }),
  activity(
    'words_approved',
    'words approved',
    'Source words of the approved strings, per approval.',
    {
      unit: 'words',
      grain: PERIOD_GRAIN,
      source: 'weblate.contributions',
    },
  ),
  activity('strings_suggested', 'strings suggested', 'Suggestions (4) the person added.', {
    unit: 'changes',
    grain: PERIOD_GRAIN,
    source: 'weblate.contributions',
  }),
  activity('comments', 'comments', 'Comments (3) the person added.', {
    unit: 'changes',
    grain: PERIOD_GRAIN,
    source: 'weblate.contributions',
  }),
  ...(
    [
      [
        'strings_added',
        'strings added',
        'Source strings added (13, 31, 71, 73, 89, 90), each string once per component.',
        'strings',
      ],
      ['words_added', 'words added', 'Source words of the source strings added.', 'words'],
      [
        'strings_removed',
        'strings removed',
        'Source strings removed (63), each once per component.',
        'strings',
      ],
      [
        'words_removed',
        'words removed',
        'Source words of the source strings removed (0 where the string was never mirrored).',
        'words',
      ],
    ] as const
  ).map(([name, heading, definition, unit]) =>
    activity(name, heading, definition, {
      unit,
      grain: 'a period (week or month) of the window, over the projects in scope',
      source: 'weblate.source_string_changes',
    }),
  ),
  activity('approvals', 'approvals', 'Approvals (36) in the window.', {
    unit: 'changes',
    grain: 'a project and language',
    source: 'weblate.time_to_approval',
  }),
  activity(
    'measured',
    'timed',
    'Approvals whose string’s last target-saving change before them is in the mirrored change log: the approvals the times measure.',
    { unit: 'changes', grain: 'a project and language', source: 'weblate.time_to_approval' },
  ),
  ...(
    [
      ['median_hours', 'median time', 'Median'],
      ['average_hours', 'average time', 'Average'],
      ['max_hours', 'longest time', 'Longest'],
    ] as const
  ).map(([name, heading, what]) =>
    activity(
      name,
      heading,
      `${what} time from a string’s last target-saving change to its approval, over the timed approvals; the tables write hours (h) up to two days, then days (d).`,
      { unit: 'hours', grain: 'a project and language', source: 'weblate.time_to_approval' },
    ),
  ),
  activity(
    'strings_saved',
    'strings saved',
    'Changes that put a new target into a string, by how (people, automatic translation, upload, repository, propagation, search and replace).',
    {
      unit: 'changes',
      grain: 'a period, per method',
      source: 'weblate.translation_methods',
    },
  ),
  activity('words_saved', 'words saved', 'Source words of those strings, per change.', {
    unit: 'words',
    grain: 'a period, per method (the tables show one column per method)',
    source: 'weblate.translation_methods',
    note: 'Wider than words translated: machines, uploads from the repository, propagation and search and replace count too.',
  }),
];

const REVIEW: readonly Metric[] = [
  {
    name: 'strings_waiting',
    heading: 'strings waiting',
    definition:
      'Live translated strings waiting for a reviewer’s approval, in projects that review translations.',
    unit: 'strings',
    grain: 'a project and language',
    history: 'now',
    source: 'weblate.strings_awaiting_review',
  },
  {
    name: 'words_waiting',
    heading: 'words waiting',
    definition: 'Source words of the strings waiting.',
    unit: 'words',
    grain: 'a project and language',
    history: 'now',
    source: 'weblate.strings_awaiting_review',
  },
  {
    name: 'over_7_days',
    heading: 'waiting 7+ days',
    definition: 'Strings waiting for 7 days or more since their last target-saving change.',
    unit: 'strings',
    grain: 'a project and language',
    history: 'change log',
    source: 'weblate.strings_awaiting_review',
  },
  {
    name: 'oldest_days',
    heading: 'oldest wait, days',
    definition: 'Whole days the longest-waiting string has waited.',
    unit: 'days',
    grain: 'a project and language',
    history: 'change log',
    source: 'weblate.strings_awaiting_review',
  },
  {
    name: 'waiting_since',
    heading: 'waiting since',
    definition: 'When the longest-waiting string was last saved.',
    unit: 'timestamp',
    grain: 'a project and language',
    history: 'change log',
    source: 'weblate.strings_awaiting_review',
  },
];

const FILL_GRAIN =
  'a period of the fills; per component and language, component, project and language, project, language and in all (`scope`)';
const FILL_BLIND_SPOTS =
  'Which engine or memory made a fill (the change says only "Automatically translated"); machine suggestions a translator picked in the editor, which Weblate logs as the person’s own translation, not as a fill; suggestions made by automatic translation in suggestion mode, which are not fills; the time spent in the editor (hours to a person is the wait, not the work).';

/** A figure of the automatic fills and their post-edits (docs/schema.md#post-editing). */
function fills(
  name: string,
  heading: string,
  definition: string,
  rest: Partial<Metric> = {},
): Metric {
  return {
    name,
    heading,
    definition,
    unit: 'strings',
    grain: FILL_GRAIN,
    history: 'change log',
    seam: CHANGE_SEAM,
    source: 'weblate.machine_translation_outcomes',
    blindSpots: FILL_BLIND_SPOTS,
    ...rest,
  };
}

const POST_EDITING: readonly Metric[] = [
  {
    name: 'edit_distance',
    heading: 'edit distance',
    definition:
      "Weblate's edit distance of a change (Change.get_distance(), shown as its edits): the unrestricted Damerau–Levenshtein distance from the change's old text to its target, in Unicode code points; for a fill's post-edit, from the machine's text to the person's.",
    unit: 'characters',
    grain: 'a change; a fill’s post-edit',
    history: 'change log',
    source: 'weblate.changes (edit_distance); weblate.machine_translation_fills, post_edits',
    note: "Equal to Weblate's Change.get_distance() for the same change (test/real-weblate/post-edits.test.ts); null without an old text or target, or past 25 million cells of the distance table, where Weblate still computes one.",
  },
  {
    name: 'edit_percent',
    heading: 'edit %',
    definition:
      'A post-edit’s distance as a share of the longer of the machine’s and the person’s text (rapidfuzz’s normalized_distance × 100), 2 decimals: 0 kept as it was, 100 nothing left.',
    unit: 'percent',
    grain: 'a fill’s post-edit',
    history: 'change log',
    source: 'weblate.machine_translation_fills, post_edits',
    blindSpots: FILL_BLIND_SPOTS,
  },
  {
    name: 'hours_to_person',
    heading: 'hours to a person',
    definition:
      'Hours from an automatic fill to the first change of a person after it, a save or an approval, 2 decimals.',
    unit: 'hours',
    grain: 'a fill',
    history: 'change log',
    source: 'weblate.machine_translation_fills, post_edits',
    blindSpots: FILL_BLIND_SPOTS,
  },
  fills(
    'filled',
    'filled automatically',
    'Automatic fills of strings: changes 6 (automatic translation), and strings that say they hold one (their flag, or before Weblate 5.15 their label) where the change log lacks the fill.',
    {
      note: 'The flag and the label are read now (live strings): such a fill is dated by the string’s last update, kept as it is.',
    },
  ),
  fills(
    'kept',
    'kept',
    'Fills that stand as the machine wrote them: no person has changed the text since, or the first person to act left it as it was (an approval, a state change).',
  ),
  fills('untouched', 'untouched', 'Of the fills kept, those no person has acted on yet.'),
  fills(
    'edited',
    'edited',
    'Fills whose text the first person to act changed (a post-edit short of replacing it all).',
  ),
  fills(
    'replaced',
    'replaced',
    'Fills the first person to act replaced: by an accepted suggestion, an upload, a revert, a propagated text, or an edit that changed all of it (100 %).',
  ),
  fills(
    'superseded',
    'superseded',
    'Fills filled again automatically, or updated from the repository, before any person acted.',
  ),
  ...(
    [
      ['edits_0', 'edits 0 %', 'of 0 % (the text kept, by a person)'],
      ['edits_1_10', 'edits 1-10 %', 'above 0 and up to 10 %'],
      ['edits_11_30', 'edits 11-30 %', 'above 10 and up to 30 %'],
      ['edits_31_60', 'edits 31-60 %', 'above 30 and up to 60 %'],
      ['edits_over_60', 'edits over 60 %', 'above 60 %'],
    ] as const
  ).map(([name, heading, band]) =>
    fills(
      name,
      heading,
      `Post-edits (the first person’s change after a fill) whose edit percentage is ${band}.`,
    ),
  ),
  fills(
    'median_edit_percent',
    'median edit %',
    'Median edit percentage of the group’s post-edits (interpolated), 2 decimals.',
    { unit: 'percent' },
  ),
  fills(
    'p90_edit_percent',
    'p90 edit %',
    '90th percentile of the edit percentage of the group’s post-edits (interpolated), 2 decimals.',
    { unit: 'percent' },
  ),
  fills(
    'median_hours_to_person',
    'median hours to a person',
    'Median hours from a fill to the first person’s change, over the fills a person has acted on (interpolated), 2 decimals.',
    { unit: 'hours' },
  ),
  fills(
    'p90_hours_to_person',
    'p90 hours to a person',
    '90th percentile of the hours from a fill to the first person’s change (interpolated), 2 decimals.',
    { unit: 'hours' },
  ),
  fills(
    'from_change_log',
    'fills from the change log',
    'Fills found as changes 6 in the change log.',
  ),
  fills(
    'from_flag',
    'fills from the flag',
    'Fills known only from the string’s automatically_translated flag (Weblate 2026 and later).',
    { history: 'now' },
  ),
  fills(
    'from_label',
    'fills from the label',
    'Fills known only from the string’s “Automatically translated” label (Weblate before 5.15).',
    { history: 'now' },
  ),
];

const STATE_SEAM =
  'Starts the change log does not date are marked: entered_by `first seen` (when the mirror first saw a string no change mentions, without its creation time) and `unlogged move` (a state no change logged, from the change before it on); time_in_state counts them in estimated_starts.';
const STATE_LIMITS =
  'It cannot know time spent in the editor, nor states changed without a change: silent resets (a template changed, flags turned a string read-only), bulk edits and uploads of releases that logged no states, and anything before the history Weblate kept. Before Weblate 5.6 changes carry no details.state: the state is what the action implies (36 approved, 37 and 76 needing editing, a saved target translated or, emptied, untranslated), automatic translations and uploads into "needs editing" read as translated until the next change, and source changes (30) are not seen. Reviews are the project’s setting now, not when the string waited.';

function stateTime(
  name: string,
  heading: string,
  definition: string,
  rest: Pick<Metric, 'unit' | 'grain' | 'source'> & Partial<Metric>,
): Metric {
  return { name, heading, definition, history: 'change log', seam: STATE_SEAM, ...rest };
}

const SPAN_GRAIN =
  'a span: one string, one interval in one state (untranslated, needs editing, translated or waiting for review, approved, read-only; and first translation to approval)';
const STATE_PERIOD_GRAIN =
  'a period (of the span’s end, or of its start while it holds), state and scope (component and language, component, project and language, project, language, all)';

const STATE_TIME: readonly Metric[] = [
  stateTime(
    'hours',
    'hours in state',
    'Hours a string spent in the state in one span, from entered_at to left_at (2 decimals); none while the span holds. Waiting for review restarts when the waiting text is saved again; first translation to approval runs from its first translated state to its first approval.',
    { unit: 'hours', grain: SPAN_GRAIN, source: 'weblate.state_spans', note: STATE_LIMITS },
  ),
  stateTime(
    'entered_at',
    'entered',
    'When the string entered the state: the change that moved it there, its creation (units.timestamp) before its first change, or the estimates entered_by names.',
    { unit: 'timestamp', grain: SPAN_GRAIN, source: 'weblate.state_spans' },
  ),
  stateTime(
    'left_at',
    'left',
    'When the string left the state: the change that started its next span; none while it holds. The last span of a removed string, which had no end, is left out.',
    { unit: 'timestamp', grain: SPAN_GRAIN, source: 'weblate.state_spans' },
  ),
  stateTime(
    'left_to',
    'left to',
    'The state of the next span (the same state where a waiting text was saved again or a move went unlogged).',
    { unit: 'text', grain: SPAN_GRAIN, source: 'weblate.state_spans' },
  ),
  stateTime(
    'entered_by',
    'entered by',
    'How entered_at is known: `change`, `string added` (the change that created the string), `unit created` (Weblate’s creation time of the string), `first seen` (estimated) or `unlogged move` (estimated: the earliest it can have begun).',
    { unit: 'text', grain: SPAN_GRAIN, source: 'weblate.state_spans' },
  ),
  stateTime(
    'spans',
    'spans',
    'Spans in the state: those that ended in the period and those that began in it and hold.',
    {
      unit: 'spans',
      grain: STATE_PERIOD_GRAIN,
      source: 'weblate.time_in_state',
    },
  ),
  stateTime(
    'ended',
    'ended',
    'Spans in the state that ended in the period: the ones the hours measure.',
    {
      unit: 'spans',
      grain: STATE_PERIOD_GRAIN,
      source: 'weblate.time_in_state',
    },
  ),
  stateTime(
    'still_open',
    'still open',
    'Spans in the state that began in the period and hold now.',
    { unit: 'spans', grain: STATE_PERIOD_GRAIN, source: 'weblate.time_in_state' },
  ),
  stateTime(
    'median_hours_in_state',
    'median hours in state',
    'Median hours of the spans that ended (percentile_cont 0.5), 2 decimals.',
    {
      unit: 'hours',
      grain: STATE_PERIOD_GRAIN,
      source: 'weblate.time_in_state',
      note: `Of waiting for review, over the waits an approval ended, the same hours as time_to_approval's (test/db/time-in-state.test.ts). ${STATE_LIMITS}`,
    },
  ),
  stateTime(
    'p90_hours_in_state',
    'p90 hours in state',
    'The 90th percentile (percentile_cont 0.9) of the hours of the spans that ended, 2 decimals.',
    { unit: 'hours', grain: STATE_PERIOD_GRAIN, source: 'weblate.time_in_state' },
  ),
  ...(
    [
      ['by_details', 'from details.state', 'details.state'],
      ['by_action_codes', 'from action codes', 'action codes'],
      ['by_unit_state', 'from the unit’s state', 'unit state'],
    ] as const
  ).map(([name, heading, evidence]) =>
    stateTime(name, heading, `Spans whose evidence is \`${evidence}\`.`, {
      unit: 'spans',
      grain: STATE_PERIOD_GRAIN,
      source: 'weblate.time_in_state',
    }),
  ),
  stateTime(
    'estimated_starts',
    'estimated starts',
    'Spans whose entered_at is an estimate (entered_by `first seen` or `unlogged move`).',
    { unit: 'spans', grain: STATE_PERIOD_GRAIN, source: 'weblate.time_in_state' },
  ),
  stateTime(
    'since',
    'in state since',
    'When a string now in the state entered it (its open span’s entered_at).',
    {
      unit: 'timestamp',
      grain: 'a live string in the state for longer than the target',
      source: 'weblate.strings_over_target',
      note: 'For waiting for review, the same as strings_awaiting_review’s waiting since, except where the state was entered without a save (a bulk edit, an unlogged move) or where strings_awaiting_review falls back to the string’s last update.',
    },
  ),
  stateTime(
    'days_in_state',
    'days in state',
    'Whole days (24 hours each) from in state since to now.',
    {
      unit: 'days',
      grain: 'a live string in the state for longer than the target',
      source: 'weblate.strings_over_target',
    },
  ),
  stateTime('hours_in_state', 'hours so far', 'Hours from in state since to now, 2 decimals.', {
    unit: 'hours',
    grain: 'a live string in the state for longer than the target',
    source: 'weblate.strings_over_target',
  }),
];

const SCOPE_AND_SERVICE: readonly Metric[] = [
  {
    name: 'languages_in_scope',
    heading: 'languages in scope',
    definition: 'Languages with a live translation in scope (the rows of the languages table).',
    unit: 'languages',
    grain: 'the report',
    history: 'now',
    source: 'weblate.progress_by_language',
  },
  {
    name: 'sync_age_seconds',
    heading: 'since last success',
    definition:
      'Seconds since the newest successful sync (full, incremental or webhook-triggered) finished; statistics snapshots do not count.',
    unit: 'seconds',
    grain: 'the mirror',
    history: 'runs',
    source: 'weblate.sync_freshness (age_seconds)',
    aliases: [
      'healthz: ageSeconds',
      'metrics: weblate_mirror_data_freshness_lag_seconds',
      'sync_freshness: age_seconds',
    ],
  },
  {
    name: 'last_successful_sync',
    heading: 'last successful sync',
    definition:
      'When the newest successful sync (full, incremental or webhook-triggered) finished.',
    unit: 'timestamp',
    grain: 'the mirror',
    history: 'runs',
    source: 'weblate.sync_freshness (last_success)',
    aliases: ['healthz: lastSuccessfulSync', 'sync_freshness: last_success'],
  },
  ...(
    [
      ['records', 'records read', 'Records a run read of one resource', 'records'],
      ['rows', 'rows written', 'Rows a run inserted or changed for one resource', 'rows'],
      ['retries', 'retries', 'Requests a run tried again for one resource', 'requests'],
    ] as const
  ).map(([name, heading, what, unit]): Metric => ({
    name,
    heading,
    definition: `${what} (weblate.sync_runs summary, per resource).`,
    unit,
    grain: 'a resource of a run',
    history: 'runs',
    source: "weblate.sync_runs (summary -> 'resources')",
  })),
  {
    name: 'run_duration',
    heading: 'duration',
    definition: 'How long a run of the mirror took: finished_at − started_at of weblate.sync_runs.',
    unit: 'seconds',
    grain: 'a run',
    history: 'runs',
    source: 'weblate.sync_runs',
  },
  ...(
    [
      ['people_translating', 'translating', 'with a translating change'],
      ['people_approving', 'approving', 'with an approval'],
      ['people_suggesting', 'suggesting or commenting', 'with a suggestion or a comment'],
    ] as const
  ).map(([name, heading, what]): Metric => ({
    name,
    heading,
    definition: `People ${what} in the week.`,
    unit: 'people',
    grain: 'a week',
    history: 'change log',
    source: 'weblate.contributions',
  })),
];

const WORK_SOURCE =
  'weblate.translator_work; per person weblate.translator_work_by_person (role weblate_effort_reader)';
const WORK_GRAIN = 'the scope and window; per person (its author) in translator_work_by_person';
const WORK_UNKNOWN =
  'It cannot know the time spent: a user-day is a UTC day with changes, whether they took a minute or all day, and nothing counts what a translator read, searched or typed without saving. An author whose user record does not say whether they are active and human (read with a token that is not an admin’s, or not read yet) is counted (authors unverified says how many).';
const USER_DAY =
  "a user-day: a UTC day and author with Weblate's translator actions (2 translation changed, 5 added, 7 suggestion accepted) on strings the mirror still holds, by an active human author";

/** One of the median, mean, p75 and p90 of the included user-days' strings or words. */
function dayFigure(
  what: 'strings' | 'words',
  stat: 'median' | 'mean' | 'p75' | 'p90',
  definition: string,
): Metric {
  const per = what === 'strings' ? 'strings a day' : 'words a day';
  return {
    name: `${what}_${stat}`,
    heading: `${per}, ${stat}`,
    definition: `${definition} of the included user-days' ${what === 'strings' ? 'changes (strings saved)' : "source words (each change's string's words)"}.`,
    unit: per,
    grain: WORK_GRAIN,
    history: 'change log',
    seam: CHANGE_SEAM,
    source: WORK_SOURCE,
    note: `Weblate's translator_work report (2026.8 and later) computes it in binary floating point (2.8000000000000003 where the mirror says 2.8); test/real-weblate/effort.test.ts checks it equal to 9 decimals. ${WORK_UNKNOWN}`,
  };
}

const COST_SOURCE = 'weblate.cost_estimate';
const COST_GRAIN = "a bucket of Weblate's cost estimate (and their total), over the scope";
const MEMORY_UNKNOWN =
  "It cannot know Weblate's memory itself: entries imported from files or other instances, earlier translations and deleted strings, which the API does not expose; the mirror matches against the translated strings it holds (docs/schema.md, cost_estimate).";

const EFFORT: readonly Metric[] = [
  {
    name: 'user_days_included',
    heading: 'user-days included',
    definition: `User-days within the limits (min_changes ≤ changes ≤ max_changes and words ≤ max_words; Weblate's defaults 5, 1000 and 10,000), ${USER_DAY}.`,
    unit: 'user-days',
    grain: WORK_GRAIN,
    history: 'change log',
    seam: CHANGE_SEAM,
    source: WORK_SOURCE,
    note: `Equal to Weblate's translator_work report (included user days) for the same project, language and window (test/real-weblate/effort.test.ts; on 5.14.3, which has no such report, to the same queries run in its Django). Weblate leaves out the changes of deleted strings (it deletes them with the string); so does the mirror, which keeps them (changes without string). ${WORK_UNKNOWN}`,
  },
  {
    name: 'user_days_excluded',
    heading: 'user-days excluded',
    definition: 'User-days outside the limits: too few or too many changes, or too many words.',
    unit: 'user-days',
    grain: WORK_GRAIN,
    history: 'change log',
    seam: CHANGE_SEAM,
    source: WORK_SOURCE,
  },
  dayFigure('strings', 'median', 'The median'),
  dayFigure('strings', 'mean', 'The mean'),
  dayFigure(
    'strings',
    'p75',
    "The 75th percentile (Python's linear interpolation, as percentile_cont)",
  ),
  dayFigure(
    'strings',
    'p90',
    "The 90th percentile (Python's linear interpolation, as percentile_cont)",
  ),
  dayFigure('words', 'median', 'The median'),
  dayFigure('words', 'mean', 'The mean'),
  dayFigure(
    'words',
    'p75',
    "The 75th percentile (Python's linear interpolation, as percentile_cont)",
  ),
  dayFigure(
    'words',
    'p90',
    "The 90th percentile (Python's linear interpolation, as percentile_cont)",
  ),
  {
    name: 'translators',
    heading: 'translators',
    definition: 'People with at least one included user-day.',
    unit: 'people',
    grain: 'the scope and window',
    history: 'change log',
    seam: CHANGE_SEAM,
    source: 'weblate.translator_work',
  },
  {
    name: 'authors_unverified',
    heading: 'authors unverified',
    definition:
      "Authors of the user-days whose user record does not say whether they are active and human (is_active and is_bot, which Weblate's API shows to an admin's token): counted, where Weblate would leave them out if they are inactive or bots.",
    unit: 'people',
    grain: 'the scope and window',
    history: 'change log',
    source: 'weblate.translator_work (users.raw)',
    note: 'A user is read once, when the changes first name them: one deactivated later still counts.',
  },
  {
    name: 'changes_without_string',
    heading: 'changes without string',
    definition:
      'Changes of the translator actions in the scope and window whose string is deleted or was never mirrored: left out, as Weblate leaves them out (it deletes a string’s changes with it).',
    unit: 'changes',
    grain: 'the scope and window',
    history: 'change log',
    seam: CHANGE_SEAM,
    source: 'weblate.translator_work',
  },
  {
    name: 'user_day_strings',
    heading: 'strings that day',
    definition: "A user-day's changes (its strings saved, a string saved twice counting twice).",
    unit: 'strings',
    grain: 'a UTC day and author',
    history: 'change log',
    seam: CHANGE_SEAM,
    source: 'weblate.translator_work_days (strings; role weblate_effort_reader)',
    note: WORK_UNKNOWN,
  },
  {
    name: 'user_day_words',
    heading: 'words that day',
    definition: "The source words of a user-day's changes (each change its string's words).",
    unit: 'words',
    grain: 'a UTC day and author',
    history: 'change log',
    seam: CHANGE_SEAM,
    source: 'weblate.translator_work_days (words; role weblate_effort_reader)',
  },
  {
    name: 'is_included',
    heading: 'included',
    definition: 'Whether the user-day is within the limits.',
    unit: 'flag',
    grain: 'a UTC day and author',
    history: 'change log',
    source: 'weblate.translator_work_days (role weblate_effort_reader)',
  },
  {
    name: 'is_author_verified',
    heading: 'author verified',
    definition: "Whether the author's user record says they are active and human.",
    unit: 'flag',
    grain: 'a UTC day and author; a person',
    history: 'now',
    source: 'weblate.translator_work_days, translator_work_by_person (role weblate_effort_reader)',
  },
  {
    name: 'estimate_strings',
    heading: 'strings priced',
    definition:
      "Strings left (states under translated: empty and needing editing) of the scope's live target-language translations, in the bucket: repetition (a string whose source, context and languages an earlier string in Weblate's order has: priority, then position; ties by id), tm_100 (an exact match in memory), tm_fuzzy (a match at the threshold or over, default 80), needs_editing, new.",
    unit: 'strings',
    grain: COST_GRAIN,
    history: 'now',
    source: `${COST_SOURCE} (strings)`,
    note: `Repetitions and the total are Weblate's cost_estimate report's (2026.6 and later; test/real-weblate/effort.test.ts); tm_100 and tm_fuzzy are at most Weblate's, which may price more strings as matches than the mirror finds, and so needs_editing and new at least Weblate's (each row says so: approximate). ${MEMORY_UNKNOWN}`,
  },
  {
    name: 'estimate_words',
    heading: 'words priced',
    definition: 'Source words of the strings of the bucket.',
    unit: 'words',
    grain: COST_GRAIN,
    history: 'now',
    source: `${COST_SOURCE} (words)`,
  },
  {
    name: 'estimate_chars',
    heading: 'characters priced',
    definition:
      'Characters (Unicode code points, as Python counts them) of the sources of the strings of the bucket, plural forms joined by two U+001E, as Weblate stores them.',
    unit: 'characters',
    grain: COST_GRAIN,
    history: 'now',
    source: `${COST_SOURCE} (chars)`,
  },
  {
    name: 'rate',
    heading: 'rate %',
    definition:
      "The bucket's rate, in percent of the base rate (Weblate's defaults: repetition 0, tm_100 0, tm_fuzzy 50, needs_editing 50, new 100).",
    unit: 'percent',
    grain: COST_GRAIN,
    history: 'now',
    source: `${COST_SOURCE} (rate)`,
  },
  {
    name: 'cost',
    heading: 'cost',
    definition:
      'Words × base rate (price of a source word, default 1) × rate / 100, exactly; the total sums the buckets.',
    unit: 'money',
    grain: COST_GRAIN,
    history: 'now',
    source: `${COST_SOURCE} (cost)`,
    note: `Weblate's report rounds it to 4 decimals; the mirror does not. The total is Weblate's wherever the buckets after repetition share one rate. ${MEMORY_UNKNOWN}`,
  },
  {
    name: 'approximate',
    heading: 'approximate',
    definition:
      "Whether the row may differ from Weblate's cost estimate: the memory buckets and what follows from them; the total when the buckets after repetition are priced differently.",
    unit: 'flag',
    grain: COST_GRAIN,
    history: 'now',
    source: `${COST_SOURCE} (approximate)`,
  },
  {
    name: 'approximation',
    heading: 'approximation',
    definition: "Why an approximate row may differ from Weblate's, and in which direction.",
    unit: 'text',
    grain: COST_GRAIN,
    history: 'now',
    source: `${COST_SOURCE} (approximation)`,
  },
];

const LISTS: readonly Metric[] = [
  {
    name: 'matching',
    heading: 'showing … of',
    definition:
      'Rows of a ranked list before --limit cut it (the tables say "showing n of matching"); for contributors, the people credited.',
    unit: 'rows',
    grain: 'a ranked list of the report',
    history: 'now',
    source: 'the query of the list (count(*) over ())',
  },
];

const DIMENSIONS: readonly Dimension[] = [
  {
    name: 'format',
    heading: 'format',
    meaning:
      'The JSON document’s shape and its version, `weblate-mirror.report/1`: a new version when a key changes meaning or goes.',
  },
  {
    name: 'generated_at',
    heading: 'generated',
    meaning: 'When the report was read (the database’s clock).',
  },
  {
    name: 'instance',
    heading: 'instance',
    meaning: 'The API root of the Weblate instance the database mirrors (weblate.instances).',
  },
  {
    name: 'period',
    heading: 'period',
    meaning: '`week` or `month`: the periods of the periodic sections.',
  },
  { name: 'name', heading: 'window', meaning: 'A movers window: `7d`, `30d` or `since`.' },
  { name: 'from', heading: 'from', meaning: 'The first UTC day of a window.' },
  {
    name: 'window_from',
    heading: 'window from',
    meaning: 'The first UTC day of the report’s window (CSV).',
  },
  {
    name: 'window_to',
    heading: 'window to',
    meaning: 'The last UTC day of the report’s window (CSV).',
  },
  {
    name: 'filters',
    heading: 'filters',
    meaning: 'The filters the report was read with (projects, language, since, category, label).',
  },
  {
    name: 'matched_labels',
    heading: 'matched labels',
    meaning: 'The labels --label matched, `project/name` each.',
  },
  { name: 'left_out', heading: 'left out', meaning: 'The sections --label leaves out.' },
  { name: 'to', heading: 'to', meaning: 'The last UTC day of a window (today).' },
  {
    name: 'project_slug',
    heading: 'project',
    meaning: 'The project’s slug (the HTML page writes its name).',
  },
  { name: 'project_name', heading: 'name', meaning: 'The project’s name.' },
  { name: 'component_slug', heading: 'component', meaning: 'The component’s slug.' },
  { name: 'component_name', heading: 'name', meaning: 'The component’s name.' },
  { name: 'language_code', heading: 'language', meaning: 'The language’s code.' },
  { name: 'language_name', heading: 'name', meaning: 'The language’s name.' },
  { name: 'category_id', heading: 'category id', meaning: 'The category’s id.' },
  { name: 'category_slug', heading: 'category slug', meaning: 'The category’s slug.' },
  { name: 'category_name', heading: 'name', meaning: 'The category’s name.' },
  { name: 'parent_id', heading: 'parent', meaning: 'The id of the category holding it, if any.' },
  {
    name: 'path',
    heading: 'category',
    meaning: 'The category’s slugs from its root down, joined by /.',
  },
  { name: 'depth', heading: 'depth', meaning: 'How deep the category is nested (0 at the root).' },
  { name: 'label_id', heading: 'label id', meaning: 'The label’s id.' },
  { name: 'label_name', heading: 'label', meaning: 'The label’s name.' },
  {
    name: 'username',
    heading: 'person',
    meaning: 'The person’s username (the tables add the full name).',
  },
  {
    name: 'full_name',
    heading: 'full name',
    meaning: 'The person’s full name, where the server shows it.',
  },
  { name: 'author_name', heading: 'author', meaning: 'The username of a change’s author.' },
  {
    name: 'last_author',
    heading: 'last author',
    meaning: 'Who made the translation’s last change.',
  },
  {
    name: 'languages',
    heading: 'languages',
    meaning: 'The codes of the languages a person worked in.',
  },
  { name: 'day', heading: 'day', meaning: 'A UTC day.' },
  {
    name: 'state',
    heading: 'state',
    meaning:
      'A string’s state: untranslated, needs editing, translated (waiting for review in a project with reviews), approved, read-only; or first translation to approval.',
  },
  { name: 'unit_id', heading: 'string id', meaning: 'The string’s id in Weblate (units.id).' },
  {
    name: 'min_changes',
    heading: 'fewest changes a day',
    meaning:
      'Translator work keeps a user-day with at least this many changes (Weblate’s default: 5).',
  },
  {
    name: 'max_changes',
    heading: 'most changes a day',
    meaning:
      'Translator work keeps a user-day with at most this many changes (Weblate’s default: 1,000).',
  },
  {
    name: 'max_words',
    heading: 'most words a day',
    meaning:
      'Translator work keeps a user-day with at most this many source words (Weblate’s default: 10,000).',
  },
  {
    name: 'base_rate',
    heading: 'base rate',
    meaning:
      'The cost estimate’s price of one source word at 100 % (Weblate’s default: 1, which makes the cost a count of words at full rate).',
  },
  {
    name: 'tm_threshold',
    heading: 'memory threshold',
    meaning:
      'The cost estimate counts a memory match of at least this quality as a fuzzy match (Weblate’s default: 80).',
  },
  {
    name: 'days',
    heading: 'target days',
    meaning: 'Strings over target are those in the target state for more than this many days.',
  },
  {
    name: 'translator_work_people',
    heading: 'translator work per person',
    meaning:
      'Each translator’s work, in the report only with --people (null without it): the figures of role weblate_effort_reader.',
  },
  { name: 'source', heading: 'source', meaning: 'The string’s source text, every plural form.' },
  { name: 'web_url', heading: 'link', meaning: 'The string’s page in Weblate’s editor.' },
  {
    name: 'scope',
    heading: 'scope',
    meaning:
      'What a row sums over: `component and language`, `component`, `project and language`, `project` or `language` (the others null).',
  },
  {
    name: 'period_start',
    heading: 'week',
    meaning: 'The first UTC day of a week (Monday) or month (the heading says which).',
  },
  {
    name: 'method',
    heading: 'method',
    meaning: 'How a target was saved: person, automatic, upload, repository, propagated, replaced.',
  },
  {
    name: 'threshold',
    heading: 'threshold',
    meaning: 'A readiness threshold in percent of words; the tables give one column per threshold.',
  },
  { name: 'from_day', heading: 'from end of', meaning: 'The day movers compare with.' },
  {
    name: 'from_origin',
    heading: 'from origin',
    meaning: '`measured` or `estimated`: what the day compared with is.',
  },
  {
    name: 'origin',
    heading: 'origin',
    meaning: '`measured`, or `estimated` when any translation of the group is estimated that day.',
  },
  {
    name: 'pace_origin',
    heading: 'pace origin',
    meaning: '`measured`, or `estimated` when the pace reads an estimated day; none when unknown.',
  },
  { name: 'history_from_day', heading: 'then', meaning: 'The day of “% then” for a label.' },
  {
    name: 'outcome',
    heading: 'outcome',
    meaning:
      'What became of an automatic fill: kept, edited, replaced or superseded (docs/schema.md#machine_translation_fills).',
  },
  {
    name: 'edit_band',
    heading: 'edit band',
    meaning: 'A post-edit’s band of edit percentage: 0, 1-10, 11-30, 31-60 or over 60.',
  },
  {
    name: 'evidence',
    heading: 'evidence',
    meaning:
      'What a row stands on. A fill (machine_translation_fills): `change log`, `flag` or `label`, what says the string was filled automatically. A span (state_spans): `details.state` (the changes’ details.state and old_state, Weblate 5.6 and later), `action codes` (what the action implies, before 5.6) or `unit state` (no change: the mirrored state).',
  },
  {
    name: 'bucket',
    heading: 'bucket',
    meaning:
      "A bucket of Weblate's cost estimate, in its order: `repetition`, `tm_100`, `tm_fuzzy`, `needs_editing`, `new`; `total` after them.",
  },
  { name: 'baseline_day', heading: 'baseline', meaning: 'The day a movers window compares with.' },
];

/**
 * The Grafana panels that chart one figure as `value` series (their other panels name each
 * figure by its heading): panel title → metric.
 */
export const GRAFANA_SERIES: Readonly<Record<string, string>> = {
  'Translated % per language, day by day': 'translated_percent',
  'Translated % per component, day by day': 'translated_percent',
  'Words saved per week, by method': 'words_saved',
  'Translated % per label, day by day': 'translated_percent',
};

export const METRIC_CATALOGUE: { metrics: readonly Metric[]; dimensions: readonly Dimension[] } = {
  metrics: [
    ...PROGRESS,
    ...HISTORY,
    ...READINESS,
    ...ACTIVITY,
    ...REVIEW,
    ...EFFORT,
    ...POST_EDITING,
    ...STATE_TIME,
    ...SCOPE_AND_SERVICE,
    ...LISTS,
  ],
  dimensions: DIMENSIONS,
};
