/**
 * A deterministic, generated, Weblate-compatible HTTP server for the mirror's tests, its
 * `demo` command and benchmarks. `startSimulator()` generates an instance from a seed and
 * serves its read API on a loopback port.
 */
import { generateInstance } from './generate.ts';
import type { SimInstance } from './model.ts';
import { dispatch } from './routes.ts';
import {
  closeServer,
  createRequestLog,
  createSimulatorServer,
  hostForUrl,
  isLoopbackHost,
  listen,
  type RequestLog,
} from './server.ts';
import { DEFAULT_SIZE, type SimulatorSize } from './size.ts';

export { ACTION_NAMES, CONTENT_ACTIONS } from './actions.ts';
export { generateInstance } from './generate.ts';
export { buildIndex, compareChangesNewestFirst, reindexInstance } from './indexes.ts';
export * from './model.ts';
export * from './render.ts';
export type { SimRequest, SimResponse } from './responses.ts';
export { dispatch } from './routes.ts';
export type { RequestHandler, RequestLog } from './server.ts';
export { calculateHash, checksumToHash, hashToChecksum } from './siphash.ts';
export { DEFAULT_SIZE, type SimulatorSize } from './size.ts';
export { countTranslation, translationPercent } from './statistics.ts';
export { formatInstant, parseInstant } from './time.ts';

export interface SimulatorOptions extends Partial<SimulatorSize> {
  /** Seed of the generated data (default 1). */
  seed?: number;
  /** Port to listen on (default 0: an ephemeral port). */
  port?: number;
  /** Loopback address to listen on (default 127.0.0.1); anything else is refused. */
  host?: string;
}

export interface RunningSimulator {
  /** Base URL with a trailing slash; the API is under `${url}api/`. */
  url: string;
  /** The live data; tests read it to compute expectations. */
  instance: SimInstance;
  requests: RequestLog;
  close(): Promise<void>;
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopbackHost(host)) {
    throw new Error(`the simulator only listens on loopback addresses, not "${host}"`);
  }
  const { seed = 1, port = 0 } = options;
  const size: SimulatorSize = { ...DEFAULT_SIZE };
  for (const key of Object.keys(DEFAULT_SIZE) as (keyof SimulatorSize)[]) {
    const value = options[key];
    if (value !== undefined) size[key] = value;
  }
  const instance = generateInstance({ ...size, seed });
  const requests = createRequestLog();
  let boundPort = port;
  const server = createSimulatorServer(
    (request) => dispatch(instance, request),
    requests,
    () => `${hostForUrl(host)}:${boundPort}`,
  );
  boundPort = await listen(server, host, port);
  return {
    url: `http://${hostForUrl(host)}:${boundPort}/`,
    instance,
    requests,
    close: () => closeServer(server),
  };
}
