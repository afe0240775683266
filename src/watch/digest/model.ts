import type { ActivityTotalRow, MoverRow } from '../../db/queries/report-activity.ts';
import type { StalledSectionRow } from '../../db/queries/report-backlog.ts';
import type { ReviewWaitingRow } from '../../db/queries/report-review.ts';
import type { NewWorkRow } from '../../db/queries/report-work.ts';

/*
 * A digest as data, before it is rendered (render.ts): the report's reads over the period's
 * window (docs/watching.md, "Digests"). Keys are snake_case and figures stay as the queries
 * give them, exact decimal strings for sums, so `digest --format json` prints this object.
 */

/** A ranked list cut to the digest's limit; `matching` counts the rows before the cut. */
export interface DigestList<Row> {
  matching: string;
  rows: Row[];
}

/** Where a row links into Weblate, and the project's name for people. */
export interface Linked {
  project_name: string;
  /** Null when neither the mirror nor the instance's URL says where. */
  url: string | null;
}

export type DigestMover = Omit<MoverRow, 'matching'> & Linked;
export type DigestStalled = Omit<StalledSectionRow, 'matching'> & Linked;
export type DigestReview = Omit<ReviewWaitingRow, 'matching'> & Linked;

/** A language of a project whose translated words crossed readiness levels upward. */
export interface DigestReady extends Linked {
  project_slug: string;
  language_code: string;
  /** The levels of READINESS_THRESHOLDS crossed in the period, lowest first. */
  levels: number[];
  /** translated_words_percent at the end of the day before the period, and of its last day. */
  translated_words_percent_then: string | null;
  translated_words_percent_now: string | null;
}

export interface Digest {
  key: string;
  every: 'day' | 'week';
  from: string;
  to: string;
  generated_at: string;
  /** When the last succeeded sync ended: how fresh the figures are. */
  data_as_of: string | null;
  /** Weblate's web root that links fall back on; null when unknown. */
  instance_url: string | null;
  scope: { projects: string[]; language: string | null; category: string | null };
  /** Translations whose translated % moved from the end of `baseline_day` to `to`. */
  movers: DigestList<DigestMover> & { baseline_day: string };
  /** Translations with strings left and idle since before `from`. */
  stalled: DigestList<DigestStalled>;
  ready: DigestReady[];
  /** Strings waiting for review now, per project and language, longest waiting first. */
  review: DigestList<DigestReview>;
  /** Source strings and words added and removed, per period of the report (one here). */
  new_work: NewWorkRow[];
  activity: ActivityTotalRow;
}
