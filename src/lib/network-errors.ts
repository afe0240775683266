/**
 * Failures to open a connection, in words: what a person can check (the server, the host
 * name, the network) differs from one to the other, and the codes say nothing to most.
 */
export type ConnectFailure = 'connection refused' | 'unknown host' | 'connect timeout' | 'no route';

const CONNECT_FAILURES: Record<string, ConnectFailure> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'unknown host',
  EAI_AGAIN: 'unknown host',
  ETIMEDOUT: 'connect timeout',
  UND_ERR_CONNECT_TIMEOUT: 'connect timeout',
  EHOSTUNREACH: 'no route',
  ENETUNREACH: 'no route',
};

/**
 * How opening a connection failed, or null for any other error. Node reports a host with
 * several addresses (localhost: ::1 and 127.0.0.1) as an AggregateError of one per address.
 */
export function connectFailureOf(err: unknown): ConnectFailure | null {
  if (!(err instanceof Error)) return null;
  const code = (err as NodeJS.ErrnoException).code;
  if (typeof code === 'string' && Object.hasOwn(CONNECT_FAILURES, code))
    return CONNECT_FAILURES[code]!;
  if (err instanceof AggregateError) {
    const inner = (err.errors as unknown[]).map(connectFailureOf);
    return inner.length > 0 && inner.every((f) => f === inner[0]) ? inner[0]! : null;
  }
  return null;
}
