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

/** Why a server's TLS certificate was not trusted. */
export interface TlsFailure {
  code: string;
  /** What is wrong with the certificate, in words. */
  what: string;
  /** An authority this machine does not trust, a certificate of another host, or a date. */
  kind: 'authority' | 'name' | 'date';
}

const UNKNOWN_AUTHORITY = 'its certificate is signed by an authority this machine does not trust';

/** Node's and OpenSSL's codes for a certificate that failed verification. */
const TLS_FAILURES: Record<string, Omit<TlsFailure, 'code'>> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: { what: 'its certificate is self-signed', kind: 'authority' },
  SELF_SIGNED_CERT_IN_CHAIN: {
    what: 'its certificate chain ends in a self-signed authority this machine does not trust',
    kind: 'authority',
  },
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: { what: UNKNOWN_AUTHORITY, kind: 'authority' },
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: { what: UNKNOWN_AUTHORITY, kind: 'authority' },
  UNABLE_TO_GET_ISSUER_CERT: { what: UNKNOWN_AUTHORITY, kind: 'authority' },
  CERT_UNTRUSTED: { what: UNKNOWN_AUTHORITY, kind: 'authority' },
  CERT_HAS_EXPIRED: { what: 'its certificate has expired', kind: 'date' },
  CERT_NOT_YET_VALID: { what: 'its certificate is not valid yet', kind: 'date' },
  ERR_TLS_CERT_ALTNAME_INVALID: { what: 'its certificate is for another host', kind: 'name' },
};

/**
 * The TLS failure of `err` or of one of its causes, or null. For a certificate of another
 * host, the names it does hold, which Node's own message leaves out for an IP address.
 */
export function tlsFailureOf(err: unknown): TlsFailure | null {
  for (let current = err, depth = 0; current instanceof Error && depth < 5; depth++) {
    const code = (current as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && Object.hasOwn(TLS_FAILURES, code)) {
      const failure = { code, ...TLS_FAILURES[code]! };
      const names = (current as { cert?: { subjectaltname?: unknown } }).cert?.subjectaltname;
      if (failure.kind === 'name')
        failure.what =
          typeof names === 'string' && names !== ''
            ? `its certificate is for ${names.replace(/IP Address:/g, 'IP:')}, not this host`
            : 'its certificate names no host, having no subjectAltName';
      return failure;
    }
    current = current.cause;
  }
  return null;
}

/**
 * One line for a server whose certificate was not trusted: `server` names it with its
 * address, `setting` is the variable that holds the address.
 */
export function explainTlsFailure(failure: TlsFailure, server: string, setting: string): string {
  const fix = {
    authority:
      "if you trust it, give the mirror its authority's certificate (PEM) with " +
      `NODE_EXTRA_CA_CERTS=/path/to/ca.pem, or check ${setting}`,
    name: `use a host name the certificate holds in ${setting}, or fix the server's certificate`,
    date: "renew the server's certificate, or check this machine's clock",
  }[failure.kind];
  return `cannot trust ${server}: ${failure.what} (${failure.code}); ${fix}`;
}
