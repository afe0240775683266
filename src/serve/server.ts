import { createServer, type Server, type Socket } from 'node:net';

import { PGLiteSocketHandler } from '@electric-sql/pglite-socket';

import type { Logger } from '../logger.ts';
import { ClientConnection } from './connection.ts';
import type { SharedSession } from './shared-session.ts';

export interface ServeOptions {
  host: string;
  port: number;
  password: string | null;
  idleTransactionMs: number;
  log: Logger;
}

export interface RunningServe {
  /** The port listened on (the one asked for, or the system's choice for 0). */
  port: number;
  /** Ends every client (FATAL, as a server shutting down does) and stops listening. */
  close(): Promise<void>;
}

type HandlerQueue = ConstructorParameters<typeof PGLiteSocketHandler>[0]['queryQueue'];

/**
 * Listens for PostgreSQL clients. pglite-socket's handler reads each connection (SSL refused,
 * cancel requests dropped, messages cut out of the stream); instead of its queue, which runs
 * each message on PGlite with no regard for the mirror's own transactions, its messages go to
 * a ClientConnection, which runs them in turns on the shared session.
 */
export async function startServe(
  session: SharedSession,
  options: ServeOptions,
): Promise<RunningServe> {
  const connections = new Map<number, ClientConnection>();
  // Only the three methods the handler calls; its own queue's class is not exported.
  const queue = {
    enqueue: (id: number, message: Uint8Array, onData: (data: Uint8Array) => void) =>
      connections.get(id)?.receive(message, onData) ?? Promise.resolve(0),
    clearQueueForHandler: () => undefined,
    clearTransactionIfNeeded: async (id: number) => {
      await connections.get(id)?.close();
      connections.delete(id);
    },
  } as unknown as HandlerQueue;

  const onConnection = (socket: Socket) => {
    const handler = new PGLiteSocketHandler({ queryQueue: queue, closeOnDetach: true });
    const connection = new ClientConnection(handler.handlerId, {
      session,
      socket,
      password: options.password,
      idleTransactionMs: options.idleTransactionMs,
      log: options.log,
    });
    connections.set(handler.handlerId, connection);
    // A socket error ends the connection through the handler's detach; nothing to add.
    handler.addEventListener('error', () => undefined);
    void handler.attach(socket);
  };

  const server = createServer(onConnection);
  const port = await listen(server, options.host, options.port);
  return {
    port,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all(
        [...connections.values()].map((c) =>
          c.terminate('57P01', 'terminating connection due to administrator command'),
        ),
      );
      await closed;
    },
  };
}

function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : port);
    });
  });
}
