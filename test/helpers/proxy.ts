import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RewritingProxy {
  url: string;
  close(): Promise<void>;
}

/**
 * A loopback proxy in front of `target` that lets a test rewrite response bodies (the
 * target's own URL is always rewritten to the proxy's, so links stay on one origin).
 */
export async function startRewritingProxy(
  target: string,
  rewrite: (path: string, body: string) => string,
): Promise<RewritingProxy> {
  const targetUrl = new URL(target);
  let proxyUrl = '';
  const server = createServer((req, res) => {
    const upstream = request(
      {
        host: targetUrl.hostname,
        port: targetUrl.port,
        path: req.url,
        method: req.method,
        headers: { ...req.headers, host: targetUrl.host },
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const body = rewrite(
            req.url ?? '/',
            Buffer.concat(chunks).toString('utf8').replaceAll(target, proxyUrl),
          );
          const headers = { ...answer.headers, 'content-length': String(Buffer.byteLength(body)) };
          res.writeHead(answer.statusCode ?? 502, headers);
          res.end(body);
        });
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    url: proxyUrl,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
