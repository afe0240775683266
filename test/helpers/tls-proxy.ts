import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

export interface Certificate {
  key: string;
  cert: string;
}

/**
 * A self-signed certificate for 127.0.0.1 (or for the names of `subjectAltName`), made now
 * with the openssl command line.
 */
export async function createLoopbackCertificate(
  subjectAltName = 'IP:127.0.0.1',
): Promise<Certificate> {
  const dir = await mkdtemp(join(tmpdir(), 'weblate-mirror-tls-'));
  try {
    const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
    await promisify(execFile)('openssl', [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      `subjectAltName=${subjectAltName}`,
    ]);
    return { key: await readFile(key, 'utf8'), cert: await readFile(cert, 'utf8') };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export interface TlsProxy {
  /** https://127.0.0.1:<port>/ */
  url: string;
  /** Requests forwarded upstream. */
  forwarded: number;
  /** Connections that did not speak TLS (e.g. plain http to this port). */
  plainConnections: number;
  close(): Promise<void>;
}

/**
 * A TLS-terminating loopback proxy in front of `target`, which forwards requests as they
 * came. Weblate behind it writes links from its settings (SITE_DOMAIN, ENABLE_HTTPS), not
 * from the request: with the proxy's host:port as SITE_DOMAIN and ENABLE_HTTPS off, as such
 * setups often are, they say http:// for the proxy's address (the simulator's `siteUrl`).
 */
export async function startTlsProxy(
  target: string,
  certificate: Certificate,
  port = 0,
): Promise<TlsProxy> {
  const upstream = new URL(target);
  const server = createServer(certificate, (req, res) => {
    proxy.forwarded += 1;
    const forward = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: req.url,
        method: req.method,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  server.on('tlsClientError', () => {
    proxy.plainConnections += 1;
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const proxy: TlsProxy = {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    forwarded: 0,
    plainConnections: 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return proxy;
}
