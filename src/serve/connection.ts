import { randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';

import type { Logger } from '../logger.ts';
import type { SharedSession } from './shared-session.ts';
import { checkClientSql, checkStartupSetting } from './sql-guard.ts';
import {
  errorResponse,
  type FrontendMessage,
  isMd5Answer,
  md5Request,
  prefixStatementName,
  readMessage,
  readStartup,
  readyForQuery,
  ReadyScanner,
  sqlOf,
  startupSettings,
  type TransactionStatus,
} from './wire.ts';

export interface ConnectionOptions {
  session: SharedSession;
  socket: Socket;
  /** The password clients must give, or null for none. */
  password: string | null;
  idleTransactionMs: number;
  log: Logger;
}

type Phase = 'startup' | 'password' | 'ready' | 'closed';

/**
 * One client of `serve`: its startup and password, then each of its messages, checked by the
 * SQL guard and run on the shared session in the client's turn (shared-session.ts). pglite-socket's
 * handler cuts the byte stream into messages and hands them here in order.
 */
export class ClientConnection {
  readonly #id: number;
  readonly #options: ConnectionOptions;
  readonly #scanner = new ReadyScanner();
  #phase: Phase = 'startup';
  #chain: Promise<unknown> = Promise.resolve();
  #startup: Uint8Array | null = null;
  #user = '';
  #salt = randomBytes(4);
  /** Whether this client has the session: from its first message until PGlite says idle. */
  #holding = false;
  #everHeld = false;
  #status: TransactionStatus = 'I';
  /** After a refused Parse, the protocol discards messages until Sync. */
  #skipUntilSync = false;
  #idleTimer: NodeJS.Timeout | null = null;

  constructor(id: number, options: ConnectionOptions) {
    this.#id = id;
    this.#options = options;
  }

  /** Prepared statements of this connection are named with this, to keep clients apart. */
  get statementPrefix(): string {
    return `wm${this.#id}_`;
  }

  /** Takes one message; resolves with the bytes answered once it has been handled. */
  receive(message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    const done = this.#chain.then(() => this.#handle(message, onData));
    this.#chain = done.catch(() => undefined);
    return done;
  }

  /** Ends the connection: its transaction rolled back, its session state dropped. */
  close(): Promise<void> {
    if (this.#phase === 'closed') return this.#chain.then(() => undefined);
    this.#phase = 'closed';
    this.#clearIdleTimer();
    const done = this.#chain.then(() => this.#retire());
    this.#chain = done.catch(() => undefined);
    return this.#chain.then(() => undefined);
  }

  /**
   * Tells the client why (FATAL, as PostgreSQL does) and ends the connection. Not awaited by a
   * message being handled: the retirement is queued behind it.
   */
  terminate(code: string, text: string): Promise<void> {
    const { socket } = this.#options;
    if (this.#phase !== 'closed' && socket.writable) socket.end(errorResponse('FATAL', code, text));
    return this.close();
  }

  async #handle(message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    let sent = 0;
    const send = (data: Uint8Array) => {
      sent += data.length;
      onData(data);
    };
    switch (this.#phase) {
      case 'closed':
        return 0;
      case 'startup':
        await this.#onStartup(message, send);
        return sent;
      case 'password':
        await this.#onPassword(message, send);
        return sent;
      case 'ready':
        await this.#onMessage(readMessage(message), message, send);
        return sent;
    }
  }

  async #onStartup(message: Uint8Array, send: (data: Uint8Array) => void): Promise<void> {
    const params = readStartup(message);
    if (params === null) {
      void this.terminate('08P01', 'invalid startup packet');
      return;
    }
    const settings = startupSettings(params);
    for (const [name] of settings) {
      const verdict = checkStartupSetting(name);
      if (!verdict.allowed) {
        void this.terminate(verdict.code, verdict.message);
        return;
      }
    }
    this.#options.session.setClientSettings(this.#id, settings);
    this.#user = params.get('user') ?? '';
    this.#startup = message;
    if (this.#options.password === null) {
      this.#phase = 'ready';
      await this.#forward(message, send);
    } else {
      this.#phase = 'password';
      send(md5Request(this.#salt));
    }
  }

  async #onPassword(message: Uint8Array, send: (data: Uint8Array) => void): Promise<void> {
    const password = this.#options.password ?? '';
    if (!isMd5Answer(readMessage(message), this.#user, password, this.#salt)) {
      this.#options.log.warn({ client: this.#id }, 'a client gave a wrong password');
      void this.terminate('28P01', `password authentication failed for user "${this.#user}"`);
      return;
    }
    this.#phase = 'ready';
    // PGlite answers the startup packet: AuthenticationOk, its parameters, ReadyForQuery.
    await this.#forward(this.#startup!, send);
  }

  async #onMessage(
    msg: FrontendMessage,
    raw: Uint8Array,
    send: (data: Uint8Array) => void,
  ): Promise<void> {
    this.#clearIdleTimer();
    if (this.#skipUntilSync) {
      if (msg.type === 'S') {
        this.#skipUntilSync = false;
        send(readyForQuery(this.#status));
      }
      this.#startIdleTimerIfHolding();
      return;
    }
    if (msg.type === 'X') {
      void this.close();
      this.#options.socket.end();
      return;
    }
    if (msg.type === 'F') {
      send(
        errorResponse(
          'ERROR',
          '42501',
          'weblate-mirror serve is read-only: function calls are not allowed',
        ),
      );
      send(readyForQuery(this.#status));
      return;
    }
    if (msg.type === 'Q' || msg.type === 'P') {
      const verdict = checkClientSql(sqlOf(msg));
      if (!verdict.allowed) {
        send(errorResponse('ERROR', verdict.code, verdict.message));
        if (msg.type === 'Q') send(readyForQuery(this.#status));
        else this.#skipUntilSync = true;
        this.#startIdleTimerIfHolding();
        return;
      }
    }
    await this.#forward(prefixStatementName(msg, this.statementPrefix) ?? raw, send);
  }

  /** Runs a message on the session in this client's turn; the turn ends when PGlite is idle. */
  async #forward(message: Uint8Array, send: (data: Uint8Array) => void): Promise<void> {
    const { session } = this.#options;
    if (!this.#holding) {
      try {
        await session.acquire(this.#id);
      } catch (err) {
        // Its settings from startup did not apply (an unknown name, a bad value).
        void this.terminate('22023', `invalid connection setting: ${(err as Error).message}`);
        return;
      }
      this.#holding = true;
      this.#everHeld = true;
    }
    this.#scanner.reset();
    await session.exec(message, (chunk) => {
      this.#scanner.push(chunk);
      send(chunk);
    });
    if (this.#scanner.last !== null) this.#status = this.#scanner.last;
    if (this.#scanner.last !== 'I') {
      this.#startIdleTimerIfHolding();
      return;
    }
    if (!(await session.isGuarded())) {
      this.#options.log.error({ client: this.#id }, 'a client changed the read-only settings');
      void this.terminate(
        '42501',
        'weblate-mirror serve is read-only: the session settings were changed',
      );
      return;
    }
    this.#holding = false;
    session.release(this.#id);
  }

  async #retire(): Promise<void> {
    const { session } = this.#options;
    // A client that never had the session has nothing in it to drop.
    if (!this.#everHeld) {
      session.forget(this.#id);
      return;
    }
    this.#holding = false;
    await session.retire(this.#id, this.statementPrefix);
  }

  #startIdleTimerIfHolding(): void {
    if (!this.#holding || this.#phase === 'closed') return;
    const ms = this.#options.idleTransactionMs;
    this.#idleTimer = setTimeout(() => {
      this.#options.log.warn(
        { client: this.#id, seconds: ms / 1000 },
        'a client transaction was left open: connection ended',
      );
      void this.terminate(
        '25P03',
        `terminating connection due to idle-in-transaction timeout: weblate-mirror serve ends a transaction left open ${ms / 1000} s (SERVE_IDLE_IN_TRANSACTION_SECONDS) so that the mirror can write`,
      );
    }, ms);
  }

  #clearIdleTimer(): void {
    if (this.#idleTimer !== null) clearTimeout(this.#idleTimer);
    this.#idleTimer = null;
  }
}
