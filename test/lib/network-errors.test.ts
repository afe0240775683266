import { describe, expect, it } from 'vitest';

import { explainConnectError } from '../../src/db/connect-errors.ts';
import { UnreachableError } from '../../src/errors.ts';
import { explainTlsFailure, tlsFailureOf } from '../../src/lib/network-errors.ts';

/** An error as Node's TLS socket raises it: a code, maybe the peer's certificate. */
function tlsError(code: string, message: string, cert?: { subjectaltname?: string }): Error {
  return Object.assign(new Error(message), { code, ...(cert === undefined ? {} : { cert }) });
}

const NODE_EXTRA =
  "if you trust it, give the mirror its authority's certificate (PEM) with " +
  'NODE_EXTRA_CA_CERTS=/path/to/ca.pem, or check WEBLATE_URL';
const NAME =
  "use a host name the certificate holds in WEBLATE_URL, or fix the server's certificate";
const DATE = "renew the server's certificate, or check this machine's clock";

describe('TLS failures', () => {
  it('say in one line what is wrong with the certificate and what fixes it', () => {
    const cases: Array<[Error, string]> = [
      [
        tlsError('DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate'),
        `its certificate is self-signed (DEPTH_ZERO_SELF_SIGNED_CERT); ${NODE_EXTRA}`,
      ],
      [
        tlsError('SELF_SIGNED_CERT_IN_CHAIN', 'self-signed certificate in certificate chain'),
        `its certificate chain ends in a self-signed authority this machine does not trust (SELF_SIGNED_CERT_IN_CHAIN); ${NODE_EXTRA}`,
      ],
      [
        tlsError('UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'unable to verify the first certificate'),
        `its certificate is signed by an authority this machine does not trust (UNABLE_TO_VERIFY_LEAF_SIGNATURE); ${NODE_EXTRA}`,
      ],
      [
        tlsError('UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'unable to get local issuer certificate'),
        `its certificate is signed by an authority this machine does not trust (UNABLE_TO_GET_ISSUER_CERT_LOCALLY); ${NODE_EXTRA}`,
      ],
      [
        tlsError('CERT_HAS_EXPIRED', 'certificate has expired'),
        `its certificate has expired (CERT_HAS_EXPIRED); ${DATE}`,
      ],
      [
        tlsError('CERT_NOT_YET_VALID', 'certificate is not yet valid'),
        `its certificate is not valid yet (CERT_NOT_YET_VALID); ${DATE}`,
      ],
      // Node's message ends in a dangling "list: " for an address the certificate lacks.
      [
        tlsError(
          'ERR_TLS_CERT_ALTNAME_INVALID',
          "Hostname/IP does not match certificate's altnames: IP: 10.0.0.5 is not in the cert's list: ",
          { subjectaltname: 'DNS:weblate.example, IP Address:10.0.0.6' },
        ),
        `its certificate is for DNS:weblate.example, IP:10.0.0.6, not this host (ERR_TLS_CERT_ALTNAME_INVALID); ${NAME}`,
      ],
      [
        tlsError(
          'ERR_TLS_CERT_ALTNAME_INVALID',
          "Hostname/IP does not match certificate's altnames",
          {},
        ),
        `its certificate names no host, having no subjectAltName (ERR_TLS_CERT_ALTNAME_INVALID); ${NAME}`,
      ],
    ];
    for (const [err, said] of cases) {
      // As undici raises it: the socket's error as the cause of its own.
      const wrapped = new Error('fetch failed', { cause: err });
      const failure = tlsFailureOf(wrapped);
      expect(failure, err.message).not.toBeNull();
      expect(explainTlsFailure(failure!, 'Weblate at https://10.0.0.5/', 'WEBLATE_URL')).toBe(
        `cannot trust Weblate at https://10.0.0.5/: ${said}`,
      );
    }
  });

  it('are not found in other errors', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    expect(tlsFailureOf(refused)).toBeNull();
    expect(tlsFailureOf(new Error('boom'))).toBeNull();
    expect(tlsFailureOf('self-signed certificate')).toBeNull();
  });

  it('of PostgreSQL name the database and DATABASE_URL', () => {
    const err = tlsError(
      'SELF_SIGNED_CERT_IN_CHAIN',
      'self-signed certificate in certificate chain',
    );
    const explained = explainConnectError(err, { server: 'db.example:5432', database: 'mirror' });
    expect(explained).toBeInstanceOf(UnreachableError);
    expect(explained.message).toBe(
      'cannot trust the database at db.example:5432/mirror: its certificate chain ends in a ' +
        'self-signed authority this machine does not trust (SELF_SIGNED_CERT_IN_CHAIN); if you ' +
        "trust it, give the mirror its authority's certificate (PEM) with " +
        'NODE_EXTRA_CA_CERTS=/path/to/ca.pem, or check DATABASE_URL (sslrootcert, sslmode)',
    );
    expect(explained.cause).toBe(err);
  });
});
