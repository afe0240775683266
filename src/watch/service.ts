import type { DbHandle } from '../db/client.ts';
import type { JobRunReport } from '../job.ts';
import { logFailure, type Logger } from '../logger.ts';
import { writeBadges } from './badge-files.ts';
import { type Channel, createChannel } from './channels/index.ts';
import { evaluateWatch } from './evaluate.ts';
import type { WatchConfig } from './model.ts';
import { deliverPending, type DigestSource, sendDigests } from './outbox.ts';

// The worker's watch: after each run, the rules whose inputs moved are evaluated, badges are
// rewritten when the run wrote rows, and what is pending is sent; a tick between runs covers
// the mirror's own staleness, channels that were down and digests that came due. Steps never
// overlap, and a failing step is logged and tried again at the next (docs/watching.md).

export interface WatchServiceOptions {
  handle: Pick<DbHandle, 'db' | 'kind'>;
  config: WatchConfig;
  badgesDir: string | null;
  log: Logger;
  signal: AbortSignal;
  /** How the period and message of each digest are made (src/watch/digest/). */
  digests: DigestSource;
  /** Channels by name; default: made from the rules file. */
  channels?: ReadonlyMap<string, Pick<Channel, 'send'>>;
  /** Between runs, how often the watch looks again (default 30 s). */
  tickMs?: number;
  /** Whether a run is in flight: the tick leaves the data rules to the run's end then. */
  busy?: () => boolean;
  now?: () => Date;
}

export interface WatchService {
  /** After a run ended: evaluate, badges, deliver. Resolves when done; never rejects. */
  afterRun(report: JobRunReport): Promise<void>;
  /** One look between runs; never rejects. */
  tick(): Promise<void>;
  /** Stops the ticks and waits for the step in flight. */
  stop(): Promise<void>;
}

export function startWatch(options: WatchServiceOptions): WatchService {
  const { handle, config, log, signal } = options;
  const channels =
    options.channels ??
    new Map(config.channels.map((spec) => [spec.name, createChannel(spec, { log, signal })]));
  let chain: Promise<void> = Promise.resolve();
  let badgesWritten = false;
  const step = (name: string, work: () => Promise<void>): Promise<void> => {
    chain = chain.then(async () => {
      if (signal.aborted) return;
      try {
        await work();
      } catch (err) {
        logFailure(log, err, `watch: ${name} failed; tried again after the next run`);
      }
    });
    return chain;
  };
  const send = async () => {
    await deliverPending(handle, channels, { log, signal });
    await sendDigests(handle, config.digests, channels, options.digests, { log, now: options.now });
  };
  const evaluate = async (runId: number | null) => {
    const r = await evaluateWatch(handle, config, { runId, log, now: options.now });
    if (r.fired + r.resolved + r.baseline > 0)
      log.info(
        { rules: r.evaluated.length, fired: r.fired, resolved: r.resolved, baseline: r.baseline },
        'watch evaluated',
      );
  };
  const badges = async (force: boolean) => {
    if (options.badgesDir === null || (!force && badgesWritten)) return;
    const counts = await writeBadges({ db: handle.db, dir: options.badgesDir, log });
    badgesWritten = true;
    if (counts.written + counts.removed > 0) log.info(counts, 'badges written');
  };
  const timer = setInterval(() => void service.tick(), options.tickMs ?? 30_000);
  timer.unref();
  signal.addEventListener('abort', () => clearInterval(timer), { once: true });
  const service: WatchService = {
    afterRun: (report) =>
      step('after a run', async () => {
        const result = report.status === 'skipped' || report.result === null ? null : report.result;
        if (result === null) return;
        await evaluate(result.runId);
        await badges(result.summary.rowsWritten > 0);
        await send();
      }),
    tick: () =>
      step('its look between runs', async () => {
        if (options.busy?.() !== true) {
          await evaluate(null);
          await badges(false);
        }
        await send();
      }),
    stop: async () => {
      clearInterval(timer);
      await chain;
    },
  };
  return service;
}
