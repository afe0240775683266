import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

export type Handler = (request: SeenRequest, response: ServerResponse) => void;

export interface ScriptedServer {
  /** Base URL with a trailing slash. */
  url: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

/** A loopback HTTP server answering with `handler`, recording every request. */
export async function startScriptedServer(handler: Handler): Promise<ScriptedServer> {
  const requests: SeenRequest[] = [];
  const server = createServer((req, res) => {
    const seen = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers };
    requests.push(seen);
    handler(seen, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}
