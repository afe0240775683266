/**
 * The layers around `dispatch`, outermost first: faults (a proxy or the network failing;
 * a failed request reaches nothing behind it), slow unit pages (a proxy giving up on an
 * answer the server did compute), token authentication (a wrong token is refused before
 * throttling), the rate budget (Django's throttling, in front of the views), mid-walk
 * triggers (run just before the data is read), the answers of other Weblate versions
 * (compat.ts), dispatch.
 */
import { createAuthLayer } from './auth.ts';
import { type CompatControl, type CompatOptions, createCompatLayer } from './compat.ts';
import { createFaultLayer, type FaultControl, type FaultOptions } from './faults.ts';
import type { SimInstance } from './model.ts';
import {
  createRateLimitLayer,
  type RateLimitControl,
  type RateLimitOptions,
} from './rate-limit.ts';
import type { RequestHandler } from './responses.ts';
import { dispatch } from './routes.ts';
import {
  createSlowPagesLayer,
  type SlowPagesControl,
  type SlowUnitPagesOptions,
} from './slow-pages.ts';
import { createTriggerLayer, type TriggerControl } from './triggers.ts';

export interface PipelineOptions {
  faults?: FaultOptions | null;
  rateLimit?: RateLimitOptions | null;
  slowUnitPages?: SlowUnitPagesOptions | null;
  compat?: CompatOptions;
  /** The one token accepted (auth.ts); null or absent: any token. */
  token?: string | null;
  /** Clock of the rate budget, epoch milliseconds (default Date.now). */
  rateClock?: () => number;
}

export interface Pipeline
  extends
    Omit<FaultControl, 'handle'>,
    Omit<RateLimitControl, 'handle'>,
    Omit<SlowPagesControl, 'handle'>,
    Omit<CompatControl, 'handle'>,
    Omit<TriggerControl, 'handle'> {
  handle: RequestHandler;
}

export function createPipeline(instance: SimInstance, options: PipelineOptions = {}): Pipeline {
  const compat = createCompatLayer(
    instance,
    (request) => dispatch(instance, request),
    options.compat,
  );
  const base = compat.handle;
  const triggers = createTriggerLayer(base);
  const rate = createRateLimitLayer(triggers.handle, options.rateLimit ?? null, options.rateClock);
  const auth = createAuthLayer(rate.handle, options.token ?? null, compat.release);
  const slow = createSlowPagesLayer(auth, options.slowUnitPages ?? null);
  // A truncated answer cuts what the server alone says: no trigger fires, no budget is used.
  const faults = createFaultLayer(slow.handle, base, options.faults ?? null);
  return {
    handle: faults.handle,
    setFaults: faults.setFaults,
    failNext: faults.failNext,
    setRateLimit: rate.setRateLimit,
    setSlowUnitPages: slow.setSlowUnitPages,
    setCompat: compat.setCompat,
    release: compat.release,
    at: triggers.at,
  };
}
