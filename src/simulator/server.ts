import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { toJsonText } from './json-text.ts';
import { errorBody, type SimRequest, type SimResponse } from './responses.ts';

/** Counts every request by pathname (query left out). */
export interface RequestLog {
  total: number;
  byPath: Map<string, number>;
  reset(): void;
}

export function createRequestLog(): RequestLog {
  const log: RequestLog = {
    total: 0,
    byPath: new Map(),
    reset() {
      log.total = 0;
      log.byPath.clear();
    },
  };
  return log;
}

/** The simulator only ever listens on loopback: it serves generated data to local tests. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

export function hostForUrl(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

function toSimRequest(request: IncomingMessage, fallbackHost: () => string): SimRequest {
  const host = request.headers.host ?? fallbackHost();
  return {
    method: (request.method ?? 'GET').toUpperCase(),
    url: new URL(request.url ?? '/', `http://${host}`),
    // Django's build_absolute_uri uses the Host the client sent; so do the links here.
    baseUrl: `http://${host}/`,
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

function writeResponse(response: ServerResponse, simResponse: SimResponse, isHead: boolean): void {
  const text = simResponse.body === undefined ? '' : toJsonText(simResponse.body);
  response.writeHead(simResponse.status, {
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(text)),
    ...simResponse.headers,
  });
  response.end(isHead ? undefined : text);
}

/** Turns a request into a response; `dispatch` bound to an instance, or a layer around it. */
export type RequestHandler = (request: SimRequest) => SimResponse;

/** A node:http server answering every request through one handler. */
export function createSimulatorServer(
  handle: RequestHandler,
  log: RequestLog,
  /** Host (and port) for links when a client sends no Host header. */
  fallbackHost: () => string,
): Server {
  return createServer((request, response) => {
    // Bodies are never read; drain them so keep-alive connections stay usable.
    request.resume();
    const simRequest = toSimRequest(request, fallbackHost);
    log.total += 1;
    const path = simRequest.url.pathname;
    log.byPath.set(path, (log.byPath.get(path) ?? 0) + 1);
    let simResponse: SimResponse;
    try {
      simResponse = handle(simRequest);
    } catch (error) {
      simResponse = serverError(error);
    }
    writeResponse(response, simResponse, simRequest.method === 'HEAD');
  });
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
  const closed = new Promise<void>((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
  });
  // Keep-alive sockets of clients (undici pools) would otherwise hold close() open.
  server.closeAllConnections();
  await closed;
}
