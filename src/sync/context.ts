import type { Kysely } from 'kysely';

import type { Database } from '../db/database.ts';
import type { Logger } from '../logger.ts';
import type { WeblateClient } from '../weblate/client.ts';
import type { SyncTally } from './tally.ts';

export interface SyncScope {
  /** Project slugs to mirror, or null for every project the token can see. */
  projects: string[] | null;
  /** Usernames whose notification subscriptions are mirrored. */
  users: string[];
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
}
