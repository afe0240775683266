import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

import { addWork, type CostModel, NO_WORK, type ServerWork, serviceMs } from './cost.ts';
import { toJsonText } from './json-text.ts';
import {
  errorBody,
  type FaultKind,
  type RequestHandler,
  requestTarget,
  type SimRequest,
  type SimResponse,
  testPattern,
} from './responses.ts';

/** One request as the server saw it. */
export interface RequestLogEntry {
  method: string;
  /** Pathname + search as received. */
  target: string;
  /** Status answered; null when the connection was reset or left hanging. */
  status: number | null;
  fault: FaultKind | null;
  isThrottled: boolean;
  /** What the answer made the server count, skip and serialize (cost.ts). */
  work: ServerWork;
  /** The service time the cost model gave the answer (0 without one). */
  serviceMs: number;
  /** Requests the server was answering when this one arrived, itself included. */
  inFlight: number;
  /** When it arrived and when its connection's answer ended (or it was cut), on `performance.now()`. */
  arrivedAt: number;
  closedAt: number | null;
}

/** Counts every request by pathname (query left out), and keeps the latest entries. */
export interface RequestLog {
  total: number;
  byPath: Map<string, number>;
  /** Requests failed on purpose (faults.ts). */
  faults: number;
  /** Requests refused with 429 by the rate budget (not 429 faults, which count as faults). */
  throttled: number;
  /** The work of every answer since the last reset (cost.ts). */
  work: ServerWork;
  /** The service time of every answer under the cost model, in milliseconds. */
  serviceMs: number;
  /** The latest REQUEST_LOG_CAP requests, oldest first. */
  entries: RequestLogEntry[];
  /** Requests among `entries` whose pathname + search matches. */
  count(match: RegExp): number;
  reset(): void;
}

export const REQUEST_LOG_CAP = 100_000;

export function createRequestLog(): RequestLog {
  const log: RequestLog = {
    total: 0,
    byPath: new Map(),
    faults: 0,
    throttled: 0,
    work: NO_WORK,
    serviceMs: 0,
    entries: [],
    count: (match) => log.entries.filter((entry) => testPattern(match, entry.target)).length,
    reset() {
      log.total = 0;
      log.byPath.clear();
      log.faults = 0;
      log.throttled = 0;
      log.work = NO_WORK;
      log.serviceMs = 0;
      log.entries.length = 0;
    },
  };
  return log;
}

function recordRequest(log: RequestLog, request: SimRequest, inFlight: number): RequestLogEntry {
  log.total += 1;
  const path = request.url.pathname;
  log.byPath.set(path, (log.byPath.get(path) ?? 0) + 1);
  const entry: RequestLogEntry = {
    method: request.method,
    target: requestTarget(request),
    status: null,
    fault: null,
    isThrottled: false,
    work: NO_WORK,
    serviceMs: 0,
    inFlight,
    arrivedAt: performance.now(),
    closedAt: null,
  };
  log.entries.push(entry);
  // Trimmed in batches so that a long benchmark does not shift the array on every request.
  if (log.entries.length > REQUEST_LOG_CAP * 1.1) log.entries.splice(0, REQUEST_LOG_CAP / 10);
  return entry;
}

function recordOutcome(
  log: RequestLog,
  entry: RequestLogEntry,
  response: SimResponse,
  model: CostModel | null,
): void {
  const isSilent = response.transport?.kind === 'reset' || response.transport?.kind === 'hang';
  entry.status = isSilent ? null : response.status;
  entry.fault = response.fault ?? null;
  entry.isThrottled = response.isThrottled === true;
  entry.work = response.work ?? (response.status === 200 ? ONE_RECORD : NO_WORK);
  entry.serviceMs = model === null ? 0 : serviceMs(model, entry.work);
  log.work = addWork(log.work, entry.work);
  log.serviceMs += entry.serviceMs;
  if (response.fault !== undefined) log.faults += 1;
  if (response.isThrottled === true) log.throttled += 1;
}

const ONE_RECORD: ServerWork = { ...NO_WORK, records: 1 };

export function hostForUrl(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

function toSimRequest(request: IncomingMessage, siteUrl: string): SimRequest {
  return {
    method: (request.method ?? 'GET').toUpperCase(),
    url: new URL(request.url ?? '/', siteUrl),
    // Weblate writes links from its configured site, never from the Host the client sent.
    baseUrl: siteUrl,
    headers: request.headers,
  };
}

function serverError(error: unknown): SimResponse {
  const detail = error instanceof Error ? error.message : String(error);
  return {
    status: 500,
    headers: {},
    body: errorBody('server_error', [{ code: 'error', detail, attr: null }]),
  };
}

function bodyText(simResponse: SimResponse): string {
  if (simResponse.rawBody !== undefined) return simResponse.rawBody;
  return simResponse.body === undefined ? '' : toJsonText(simResponse.body);
}

/** Date as Django and nginx send it (IMF-fixdate); the mirror reads the server clock from it. */
function httpDate(now: () => number): string {
  return new Date(now()).toUTCString();
}

function writeResponse(response: ServerResponse, simResponse: SimResponse, date: string): void {
  const text = bodyText(simResponse);
  response.writeHead(simResponse.status, {
    Date: date,
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(text)),
    ...simResponse.headers,
  });
  response.end(response.req.method === 'HEAD' ? undefined : text);
}

/**
 * Status, headers and the first half of the body straight on the socket, then close:
 * without Content-Length the body ends with the connection, so the client gets a
 * complete-looking response whose JSON is cut.
 */
function writeTruncated(socket: Socket, simResponse: SimResponse, date: string): void {
  const bytes = Buffer.from(bodyText(simResponse));
  const headers = { Date: date, 'Content-Type': 'application/json', ...simResponse.headers };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  const reason = STATUS_CODES[simResponse.status] ?? 'Unknown';
  socket.write(
    `HTTP/1.1 ${simResponse.status} ${reason}\r\n${lines.join('')}Connection: close\r\n\r\n`,
  );
  socket.end(bytes.subarray(0, Math.floor(bytes.length / 2)));
}

/** Timers of delayed or hanging answers per server, cleared by closeServer. */
const pendingTimers = new WeakMap<Server, Set<NodeJS.Timeout>>();

function schedule(server: Server, response: ServerResponse, ms: number, run: () => void): void {
  const timers = pendingTimers.get(server) ?? new Set<NodeJS.Timeout>();
  pendingTimers.set(server, timers);
  const timer = setTimeout(() => {
    timers.delete(timer);
    run();
  }, ms);
  timers.add(timer);
  // A client that gives up (its timeout) closes the connection: nothing left to send.
  response.once('close', () => {
    clearTimeout(timer);
    timers.delete(timer);
  });
}

function deliver(
  server: Server,
  response: ServerResponse,
  simResponse: SimResponse,
  date: string,
): void {
  const socket = response.socket;
  switch (simResponse.transport?.kind) {
    case undefined:
      writeResponse(response, simResponse, date);
      return;
    case 'reset':
      socket?.destroy();
      return;
    case 'hang':
      schedule(server, response, simResponse.transport.ms, () => socket?.destroy());
      return;
    case 'truncate':
      if (socket) writeTruncated(socket, simResponse, date);
      return;
  }
}

/** What the server does besides answering: its clock and a delay before every answer. */
export interface ServerBehaviour {
  /** Epoch milliseconds for the Date header (default Date.now). */
  now?: () => number;
  /** Milliseconds to wait before sending each answer (read per request; default 0). */
  latencyMs?: () => number;
  /**
   * The cost model (read per request; default none): each answer also waits the service
   * time of its work, and the request log sums it.
   */
  costModel?: () => CostModel | null;
}

/** A node:http server answering every request through one handler. */
export function createSimulatorServer(
  handle: RequestHandler,
  log: RequestLog,
  /** The site URL links start with (read per request), with a trailing slash. */
  siteUrl: () => string,
  behaviour: ServerBehaviour = {},
): Server {
  const now = behaviour.now ?? Date.now;
  let answering = 0;
  const server = createServer((request, response) => {
    // Bodies are never read; drain them so keep-alive connections stay usable.
    request.resume();
    answering += 1;
    const simRequest = toSimRequest(request, siteUrl());
    const entry = recordRequest(log, simRequest, answering);
    response.once('close', () => {
      answering -= 1;
      entry.closedAt = performance.now();
    });
    let simResponse: SimResponse;
    try {
      simResponse = handle(simRequest);
    } catch (error) {
      simResponse = serverError(error);
    }
    recordOutcome(log, entry, simResponse, behaviour.costModel?.() ?? null);
    // The answer reflects the data when the request arrived; only sending it is delayed.
    const delay = (behaviour.latencyMs?.() ?? 0) + entry.serviceMs;
    const send = (): void => deliver(server, response, simResponse, httpDate(now));
    if (delay > 0) schedule(server, response, delay, send);
    else send();
  });
  // Idle connections are kept as the proxies in front of Weblate keep them (nginx: 75 s), not
  // Node's 5 s: on a busy machine a client then reuses a connection the server is closing,
  // which a sync survives by asking again, but which tests counting requests would see.
  server.keepAliveTimeout = 30_000;
  return server;
}

export async function listen(server: Server, host: string, port: number): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}

export async function closeServer(server: Server): Promise<void> {
  for (const timer of pendingTimers.get(server) ?? []) clearTimeout(timer);
  pendingTimers.delete(server);
  const closed = new Promise<void>((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
  });
  // Keep-alive sockets of clients (undici pools) and hanging requests would hold close() open.
  server.closeAllConnections();
  await closed;
}
