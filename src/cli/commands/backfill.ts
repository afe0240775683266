import { loadConfig } from '../../config.ts';
import { withLockSession } from '../../db/advisory-lock.ts';
import { refreshPlannerStatistics } from '../../db/planner-statistics.ts';
import { describeBackfill, runBackfill } from '../../history/backfill.ts';
import { createLogger } from '../../logger.ts';
import { outagePolicy, WRITER_LOCK } from '../../sync/write-session.ts';
import {
  type Command,
  DATABASE_FLAGS,
  DATABASE_HELP,
  DATABASE_OPTIONS,
  flagOverrides,
} from '../args.ts';
import { print, withDatabase } from '../runtime.ts';

export const backfillCommand: Command = {
  name: 'backfill',
  description: "Estimate each translation's daily progress before its first statistics snapshot.",
  summary:
    "Estimate each translation's daily progress before its first statistics snapshot from the change log\n" +
    '(weblate.translation_progress_estimated, origin "estimated" in the daily views; docs/history.md).\n' +
    'Runs by itself after the first sync; run it again at any time: it rebuilds every estimate.',
  usage: 'backfill [options]',
  options: DATABASE_OPTIONS,
  optionHelp: DATABASE_HELP,
  environment: ['DATABASE_RETRY_SECONDS'],
  async run(values) {
    const config = loadConfig({ overrides: flagOverrides(values, DATABASE_FLAGS) });
    const log = createLogger({ level: config.logLevel });
    return withDatabase(config, log, { mode: 'migrate' }, (handle) =>
      withLockSession(handle, async (session) => {
        const onWait = () => log.info('waiting for a worker job that writes the mirror');
        await session.waitLock(WRITER_LOCK, { onWait });
        const outage = outagePolicy(session, handle, config.databaseRetryMs, { onWait });
        const run = await runBackfill(handle.db, log, handle.limits?.disk ?? null, outage);
        await refreshPlannerStatistics(handle.db);
        print(describeBackfill(run));
        return 0;
      }),
    );
  },
};
