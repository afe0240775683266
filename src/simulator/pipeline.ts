/**
 * The layers around `dispatch`, outermost first: faults (a proxy or the network failing;
 * a failed request reaches nothing behind it), the rate budget (Django's throttling, in
 * front of the views), mid-walk triggers (run just before the data is read), dispatch.
 */
import { createFaultLayer, type FaultControl, type FaultOptions } from './faults.ts';
import type { SimInstance } from './model.ts';
import {
  createRateLimitLayer,
  type RateLimitControl,
  type RateLimitOptions,
} from './rate-limit.ts';
import { dispatch } from './routes.ts';
import type { RequestHandler } from './server.ts';
import { createTriggerLayer, type TriggerControl } from './triggers.ts';

export interface PipelineOptions {
  faults?: FaultOptions | null;
  rateLimit?: RateLimitOptions | null;
  /** Clock of the rate budget, epoch milliseconds (default Date.now). */
  rateClock?: () => number;
}

export interface Pipeline
  extends
    Omit<FaultControl, 'handle'>,
    Omit<RateLimitControl, 'handle'>,
    Omit<TriggerControl, 'handle'> {
  handle: RequestHandler;
}

export function createPipeline(instance: SimInstance, options: PipelineOptions = {}): Pipeline {
  const base: RequestHandler = (request) => dispatch(instance, request);
  const triggers = createTriggerLayer(base);
  const rate = createRateLimitLayer(triggers.handle, options.rateLimit ?? null, options.rateClock);
  // A truncated answer cuts what dispatch alone says: no trigger fires, no budget is used.
  const faults = createFaultLayer(rate.handle, base, options.faults ?? null);
  return {
    handle: faults.handle,
    setFaults: faults.setFaults,
    failNext: faults.failNext,
    setRateLimit: rate.setRateLimit,
    at: triggers.at,
  };
}
