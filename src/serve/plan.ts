import type { Config } from '../config.ts';
import { isLoopbackHost } from '../lib/hosts.ts';
import { READER_ROLE } from './shared-session.ts';

/**
 * Why `serve` cannot run with this configuration (one line, a usage error), or null. Decided
 * before anything is opened.
 */
export function refuseServe(
  config: Pick<Config, 'databaseUrl' | 'serveHost' | 'servePassword'>,
  location: string,
): string | null {
  if (config.databaseUrl !== null)
    return `serve shares the embedded database only; PostgreSQL already speaks the protocol: point clients at ${location}, with a login granted ${READER_ROLE} (docs/schema.md)`;
  if (!isLoopbackHost(config.serveHost) && config.servePassword === null)
    return `serve listens on ${config.serveHost}, beyond this machine, only with a password: set SERVE_PASSWORD or --password-file, or keep --host 127.0.0.1`;
  return null;
}

/** The line that says a port cannot be listened on, and what to do. */
export function listenFailure(err: NodeJS.ErrnoException, host: string, port: number): string {
  if (err.code === 'EADDRINUSE')
    return `port ${port} on ${host} is already in use (another server, perhaps another serve); choose another with --port (SERVE_PORT)`;
  if (err.code === 'EADDRNOTAVAIL')
    return `${host} is not an address of this machine; choose another with --host (SERVE_HOST)`;
  if (err.code === 'EACCES')
    return `port ${port} on ${host} needs privileges this process lacks; choose one above 1023 with --port (SERVE_PORT)`;
  return `cannot listen on ${host}:${port}: ${err.message}`;
}
