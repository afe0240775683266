import type { JobDefinition } from '../src/job.ts';
import { reconcileJob } from './reconcile.ts';
import { statisticsJob } from './statistics.ts';
import { syncJob } from './sync.ts';

/** Every job the worker schedules and `weblate-mirror run <job>` runs. */
export const JOBS: readonly JobDefinition[] = [syncJob, statisticsJob, reconcileJob];
