import type { Kysely } from 'kysely';

import type { CopyCapability } from '../db/copy.ts';
import type { Database } from '../db/database.ts';
import type { EmbeddedLimits } from '../db/embedded-limits.ts';
import type { OutagePolicy } from '../db/outage.ts';
import type { Logger } from '../logger.ts';
import type { WeblateClient } from '../weblate/client.ts';
import type { IdHints } from '../weblate/id-hints.ts';
import type { Lookup } from './refs.ts';
import type { SyncTally } from './tally.ts';

/** What a run needs from outside: the database, the Weblate client, a logger and the scope. */
export interface SyncDeps {
  db: Kysely<Database>;
  client: WeblateClient;
  log: Logger;
  scope: SyncScope;
  /** See SyncContext.overlapCommits; false when not given. */
  overlapCommits?: boolean;
  /** The database's COPY capability (DbHandle.copy); plain SQL when null or not given. */
  copy?: CopyCapability | null;
  /** The embedded database's limits (DbHandle.limits); none when not given. */
  limits?: EmbeddedLimits | null;
  /** Where the mirror is (DbHandle.location, no credentials), for the database's errors. */
  databaseLocation?: string;
  /** How a run rides through losing its database (db/outage.ts); it fails at once without one. */
  outage?: OutagePolicy | null;
}

export interface SyncScope {
  /** Project slugs to mirror, or null for every project the token can see. */
  projects: string[] | null;
  /** Usernames whose notification subscriptions are mirrored. */
  users: string[];
}

/**
 * `full`: every list is read completely and whatever vanished is marked deleted (the first
 * run, and `sync --full`). `incremental`: only what the cursors, the translation lists and
 * the change history say moved.
 */
export type SyncMode = 'full' | 'incremental';

/** The decisions of the stages that follow from a run's mode (readingPlan, plan.ts). */
export interface ReadingPlan {
  /**
   * Everything again (a full run): the change history from its start, and a change window
   * or unit walk that an incremental run left unfinished opened afresh rather than resumed.
   */
  fromScratch: boolean;
  /** The change history's time windows side by side (else one at a time: units walk beside). */
  changeWindowsSideBySide: boolean;
  /** Only changes new to the mirror name units and objects to read; a full run reads all. */
  followNewChanges: boolean;
  /** Every translation listed is checked again, not only those whose record moved. */
  recheckEveryTranslation: boolean;
}

/** Everything a sync stage may use; stages read no environment and create no loggers. */
export interface SyncContext {
  db: Kysely<Database>;
  client: WeblateClient;
  log: Logger;
  signal: AbortSignal;
  now: () => Date;
  runId: number;
  scope: SyncScope;
  tally: SyncTally;
  /** How the stages read, decided by the run's kind (see readingPlan in plan.ts). */
  reading: ReadingPlan;
  /**
   * A warning of this run, through its one channel: `message` goes into the run's summary
   * (weblate.sync_runs.summary.warnings, printed after a sync by hand) and into the log at
   * warn level as `event`, with `fields` and the message.
   */
  warn(event: string, message: string, fields?: Record<string, unknown>): void;
  /** Seconds each window reaches back before the previous high-water mark. */
  lookbackSeconds: number;
  lookup: Lookup;
  /**
   * Whether the next page's rows may be written while the previous page commits, in a
   * transaction of their own (PostgreSQL). The embedded database runs one transaction at a
   * time, so there pages are written one after another.
   */
  overlapCommits: boolean;
  /** Transactions that rows can be COPYed into (PostgreSQL), or null: see db/copy.ts. */
  copy: CopyCapability | null;
  /** Checked around every page committed: see db/embedded-limits.ts. */
  limits: EmbeddedLimits | null;
  /** How the run rides through losing its database; null: such a loss fails it. */
  outage: OutagePolicy | null;
}

/**
 * The context of the stages that read windows (changes, units): the run's clock, fixed once
 * the server's first answer tells its time, before any window opens.
 */
export interface WindowedContext extends SyncContext {
  /** Server time at the run's first answer (canonical UTC): the frozen upper bound of its windows. */
  windowEnd: string;
  /**
   * Unit ids the change pages named, where a full unit walk crossing a gap of ids looks for
   * the next cluster (see weblate/id-hints.ts); null: no unit walk reads them.
   */
  unitIdHints: IdHints | null;
}
