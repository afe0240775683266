import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { Registry } from 'prom-client';

import { ExplainedError } from '../errors.ts';
import { logFailure, type Logger } from '../logger.ts';
import { badgeFile } from '../watch/badge-files.ts';
import type { HealthReport } from './health.ts';

export interface HttpServerOptions {
  host: string;
  /** 0 for a free port. */
  port: number;
  health: () => Promise<HealthReport>;
  registry: Registry;
  log: Logger;
  /**
   * Receives POST /webhooks/weblate (src/webhooks/receiver.ts); without one (no
   * WEBLATE_WEBHOOK_SECRET) that path does not exist and answers 404.
   */
  webhook?: WebhookHandler | null;
  /** Serves GET /badges/<path>.svg from the folder writeBadges fills; without it, 404. */
  badges?: { dir: string } | null;
}

/** What the server needs of the webhook receiver: it answers every method itself. */
export interface WebhookHandler {
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

/** Where the badges are served under. */
export const BADGES_PATH = '/badges/';

/** Where Weblate's webhook add-on posts to. */
export const WEBHOOK_PATH = '/webhooks/weblate';

export interface RunningHttpServer {
  /** e.g. http://127.0.0.1:9464/ */
  url: string;
  close(): Promise<void>;
}

/**
 * Serves GET /healthz (200 or 503, JSON), GET /metrics (Prometheus text format) and, with a
 * webhook receiver, POST /webhooks/weblate.
 */
export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const server = createServer((req, res) => {
    handle(options, req, res).catch((err: unknown) => {
      logFailure(options.log, err, 'http request failed', { path: req.url });
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('internal error\n');
    });
  });
  await new Promise<void>((resolve, reject) => {
    const fail = (err: Error) => reject(explainListenError(err, options.host, options.port));
    server.once('error', fail);
    server.listen(options.port, options.host, () => {
      server.off('error', fail);
      resolve();
    });
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Keep-alive connections of scrapers would hold close() open.
        server.closeAllConnections();
      }),
  };
}

/** Why the server could not listen, naming the settings that choose where (one line). */
export function explainListenError(err: Error, host: string, port: number): Error {
  const code = (err as NodeJS.ErrnoException).code;
  const address = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const settings = 'WORKER_HTTP_PORT (--http-port)';
  const why =
    code === 'EADDRINUSE'
      ? `port ${port} is in use by another process: stop it, or choose another port with ${settings}`
      : code === 'EACCES'
        ? `this user may not listen on port ${port} (ports below 1024 need privileges): choose another with ${settings}`
        : code === 'EADDRNOTAVAIL'
          ? `${host} is not an address of this machine: check WORKER_HTTP_HOST (--http-host)`
          : null;
  if (why === null) return err;
  return new ExplainedError(`cannot serve /healthz and /metrics on ${address}: ${why}`, {
    cause: err,
  });
}

async function handle(
  options: HttpServerOptions,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  // The URL parser has already resolved `..` and `%2e%2e` segments.
  const path = new URL(req.url ?? '/', 'http://localhost').pathname;
  const webhook = options.webhook ?? null;
  const badges = options.badges ?? null;
  if (path === WEBHOOK_PATH && webhook !== null) {
    await webhook.handle(req, res);
    return;
  }
  const isBadge = badges !== null && path.startsWith(BADGES_PATH);
  if (path !== '/healthz' && path !== '/metrics' && !isBadge) {
    notFound(res, options);
    return;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' });
    res.end('method not allowed\n');
    return;
  }
  if (isBadge) {
    await serveBadge(badges.dir, path.slice(BADGES_PATH.length), req, res, options);
    return;
  }
  if (path === '/healthz') {
    const { healthy, ...report } = await options.health();
    const body = JSON.stringify({ status: healthy ? 'ok' : 'unhealthy', ...report });
    res.writeHead(healthy ? 200 : 503, {
      'content-type': 'application/json',
      'cache-control': 'no-store',
    });
    res.end(req.method === 'HEAD' ? undefined : `${body}\n`);
    return;
  }
  const text = await options.registry.metrics();
  res.writeHead(200, { 'content-type': options.registry.contentType });
  res.end(req.method === 'HEAD' ? undefined : text);
}

function notFound(res: ServerResponse, options: HttpServerOptions): void {
  const paths = ['/healthz', '/metrics'];
  if (options.badges != null) paths.push(`${BADGES_PATH}…`);
  if (options.webhook != null) paths.push(`POST ${WEBHOOK_PATH}`);
  const listed = `${paths.slice(0, -1).join(', ')} or ${paths.at(-1)}`;
  res.writeHead(404, { 'content-type': 'text/plain' });
  res.end(`not found: try ${listed}\n`);
}

/** One badge file: `rest` is the encoded path under /badges/; anything outside `dir` is 404. */
async function serveBadge(
  dir: string,
  rest: string,
  req: IncomingMessage,
  res: ServerResponse,
  options: HttpServerOptions,
): Promise<void> {
  let segments: string[];
  try {
    segments = rest.split('/').map((s) => decodeURIComponent(s));
  } catch {
    segments = [];
  }
  const file = segments.at(-1)?.endsWith('.svg') === true ? badgeFile(dir, segments) : null;
  const svg = file === null ? null : await readFile(file, 'utf8').catch(() => null);
  if (svg === null) {
    notFound(res, options);
    return;
  }
  const etag = `"${createHash('sha256').update(svg).digest('base64url').slice(0, 27)}"`;
  const dataAsOf = /data-as-of="([^"]+)"/.exec(svg)?.[1];
  const modified = dataAsOf === undefined ? NaN : Date.parse(dataAsOf);
  const headers: Record<string, string> = {
    'content-type': 'image/svg+xml',
    'cache-control': 'no-cache',
    etag,
  };
  if (!Number.isNaN(modified)) headers['last-modified'] = new Date(modified).toUTCString();
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  res.writeHead(200, headers);
  res.end(req.method === 'HEAD' ? undefined : svg);
}
