import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { stopChild } from './weblate.ts';

/** Debian's nginx (the `nginx` package). */
export const NGINX = '/usr/sbin/nginx';
const INSTALL = 'apt-get install -y nginx';
const IS_CI = Boolean(process.env.CI);

/**
 * Whether the proxy test can run here: it needs Debian's nginx. Outside CI a missing nginx
 * skips the test with the reason on stderr (as the Chromium tests do, test/helpers/chromium.ts);
 * in CI the test runs and fails, saying what is missing.
 */
export function shouldRunNginx(file: string): boolean {
  const has = existsSync(NGINX);
  if (!has && !IS_CI)
    process.stderr.write(`${file}: skipped, ${NGINX} is not installed (${INSTALL})\n`);
  return has || IS_CI;
}

/** One `server` of the proxy: where it listens and how it passes requests upstream. */
export interface NginxServer {
  port: number;
  /** Serve https with this certificate and key (PEM files), instead of plain http. */
  tls?: { certFile: string; keyFile: string };
  /** proxy_read_timeout: how long nginx waits for upstream's answer before it answers 504. */
  readTimeout: string;
  /** Headers added to every request passed upstream. */
  headers?: Record<string, string>;
}

/** One line of the proxy's access log. */
export interface ProxiedRequest {
  /** The port of the server (of NginxServer) that took it. */
  port: number;
  /** The status nginx answered (504 when it gave up waiting, 502 when upstream was down). */
  status: number;
  /** Upstream's own status, or '-' / a list when nginx answered alone or tried more. */
  upstreamStatus: string;
  /** When nginx started reading the request and when it logged the answer, epoch ms. */
  startedMs: number;
  endedMs: number;
  /** Path and query as requested. */
  target: string;
}

export interface RunningNginx {
  dir: string;
  /** All requests answered so far, in the order nginx logged them. */
  requests(): ProxiedRequest[];
  errorLog(): string;
  stop(): Promise<void>;
}

/**
 * Starts nginx in the foreground (a child of this process, `daemon off`), with its pid, logs
 * and temporary files in a folder of its own, passing every server's requests to `upstream`
 * (http://host:port). Each server listens on 127.0.0.1 only. nginx is not tuned beyond what
 * the test names: buffering, keep-alive and retries are nginx's own defaults. Like gunicorn
 * (harness/weblate.ts), it runs under a shell that stops it when this process's end of stdin
 * closes, so that a test process killed without stopping it leaves no nginx behind.
 */
export async function startNginx(upstream: string, servers: NginxServer[]): Promise<RunningNginx> {
  if (!existsSync(NGINX))
    throw new Error(`${NGINX} is not installed, and CI must run this test (${INSTALL})`);
  const dir = mkdtempSync(join(tmpdir(), 'weblate-tier-nginx-'));
  const target = new URL(upstream);
  writeFileSync(join(dir, 'nginx.conf'), config(dir, target.host, servers));
  const errorLog = join(dir, 'error.log');
  const child = spawn(
    'bash',
    [
      '-c',
      'exec 3<&0; "$@" <&- & server=$!; cat <&3 >/dev/null; kill -QUIT "$server"; wait "$server"',
      'bash',
      NGINX,
      ...['-p', `${dir}/`, '-c', join(dir, 'nginx.conf'), '-e', errorLog, '-g', 'daemon off;'],
    ],
    // A group of its own, so that the last resort of stopChild reaches nginx's worker too.
    { stdio: ['pipe', 'pipe', 'pipe'], detached: true },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const running: RunningNginx = {
    dir,
    requests: () => parseAccessLog(join(dir, 'access.log')),
    errorLog: () => (existsSync(errorLog) ? readFileSync(errorLog, 'utf8') : ''),
    async stop() {
      await stopChild(child, 10_000);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    for (const server of servers) await waitUntilListening(server.port, child, 20_000);
  } catch (err) {
    await stopChild(child, 10_000);
    throw new Error(`nginx did not start: ${output.trim()} ${running.errorLog().trim()}`, {
      cause: err,
    });
  }
  return running;
}

function config(dir: string, upstreamHost: string, servers: NginxServer[]): string {
  const temp = (name: string) => join(dir, name);
  const serverBlocks = servers.map((server) => {
    const listen = server.tls
      ? `listen 127.0.0.1:${server.port} ssl;
      ssl_certificate ${server.tls.certFile};
      ssl_certificate_key ${server.tls.keyFile};`
      : `listen 127.0.0.1:${server.port};`;
    const headers = Object.entries(server.headers ?? {})
      .map(([name, value]) => `proxy_set_header ${name} "${value}";`)
      .join('\n        ');
    return `
    server {
      ${listen}
      location / {
        proxy_pass http://${upstreamHost};
        # The host and port the client asked for, as a proxy on a port of its own passes it
        # (Weblate checks it against ALLOWED_HOSTS; its links come from SITE_DOMAIN).
        proxy_set_header Host $http_host;
        proxy_read_timeout ${server.readTimeout};
        ${headers}
      }
    }`;
  });
  return `
# A test's own nginx (test/real-weblate/harness/nginx.ts): everything under ${dir}.
${process.getuid?.() === 0 ? 'user root;' : ''}
worker_processes 1;
pid ${temp('nginx.pid')};
events { worker_connections 256; }
http {
  log_format tier '$server_port $status "$upstream_status" $msec $request_time "$request_uri"';
  access_log ${temp('access.log')} tier;
  client_body_temp_path ${temp('client_body')};
  proxy_temp_path ${temp('proxy')};
  fastcgi_temp_path ${temp('fastcgi')};
  uwsgi_temp_path ${temp('uwsgi')};
  scgi_temp_path ${temp('scgi')};
  ${serverBlocks.join('\n')}
}
`;
}

function parseAccessLog(file: string): ProxiedRequest[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line) => {
      const match = /^(\d+) (\d{3}) "([^"]*)" ([\d.]+) ([\d.]+) "(.*)"$/.exec(line);
      if (match === null) return [];
      const [, port, status, upstreamStatus, msec, requestTime, target] = match;
      const endedMs = Number(msec) * 1000;
      return [
        {
          port: Number(port),
          status: Number(status),
          upstreamStatus: upstreamStatus!,
          startedMs: endedMs - Number(requestTime) * 1000,
          endedMs,
          target: target!,
        },
      ];
    });
}

async function waitUntilListening(
  port: number,
  child: ChildProcess,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`nginx exited ${child.exitCode}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`nothing listened on 127.0.0.1:${port} within ${timeoutMs} ms`);
}

/** A self-signed CA and a certificate for 127.0.0.1 that it signed, as PEM files in `dir`. */
export async function createCertificateFiles(
  dir: string,
): Promise<{ caFile: string; certFile: string; keyFile: string }> {
  const run = promisify(execFile);
  const file = (name: string) => join(dir, name);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  await run('openssl', [
    ...['req', '-x509', ...ec, '-keyout', file('ca.key'), '-out', file('ca.pem')],
    ...['-days', '1', '-subj', '/CN=weblate-mirror test CA'],
    ...['-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign'],
  ]);
  await run('openssl', [
    ...['req', ...ec, '-keyout', file('server.key'), '-out', file('server.csr')],
    ...['-subj', '/CN=127.0.0.1'],
  ]);
  writeFileSync(
    file('server.ext'),
    'subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n',
  );
  await run('openssl', [
    ...['x509', '-req', '-in', file('server.csr'), '-CA', file('ca.pem'), '-CAkey', file('ca.key')],
    ...[
      '-CAcreateserial',
      '-days',
      '1',
      '-extfile',
      file('server.ext'),
      '-out',
      file('server.pem'),
    ],
  ]);
  return { caFile: file('ca.pem'), certFile: file('server.pem'), keyFile: file('server.key') };
}
