import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * The few PostgreSQL wire-protocol messages `serve` reads or writes itself
 * (https://www.postgresql.org/docs/current/protocol-message-formats.html); PGlite answers
 * everything else. Pure: bytes in, bytes or values out.
 */

export const PROTOCOL_3 = 196_608;

/** A startup packet's parameters (user, database, options, settings), or null if it is none. */
export function readStartup(message: Uint8Array): Map<string, string> | null {
  const buffer = Buffer.from(message);
  if (buffer.length < 8 || buffer.readInt32BE(4) !== PROTOCOL_3) return null;
  const fields = buffer.subarray(8).toString('utf8').split('\0');
  const params = new Map<string, string>();
  for (let i = 0; i + 1 < fields.length && fields[i] !== ''; i += 2)
    params.set(fields[i]!, fields[i + 1]!);
  return params;
}

/**
 * Settings of a startup packet's `options` (`-c name=value`, `--name=value`) and of its other
 * parameters, as libpq and JDBC send them; user, database and protocol extensions are not settings.
 */
export function startupSettings(params: Map<string, string>): Array<[string, string]> {
  const settings: Array<[string, string]> = [];
  for (const [name, value] of params) {
    if (name === 'options') settings.push(...optionSettings(value));
    else if (!['user', 'database', 'replication'].includes(name) && !name.startsWith('_pq_.'))
      settings.push([name, value]);
  }
  return settings;
}

function optionSettings(options: string): Array<[string, string]> {
  // Words split at unescaped spaces; a backslash keeps the next character.
  const words = options.match(/(?:\\.|[^\s\\])+/g)?.map((w) => w.replace(/\\(.)/g, '$1')) ?? [];
  const settings: Array<[string, string]> = [];
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i]!;
    const pair = word === '-c' ? words[++i] : /^--(.+)$/.exec(word)?.[1];
    const at = pair?.indexOf('=') ?? -1;
    if (pair !== undefined && at > 0)
      settings.push([pair.slice(0, at).replaceAll('-', '_'), pair.slice(at + 1)]);
  }
  return settings;
}

/** A typed frontend message: its type byte and its body after the length. */
export interface FrontendMessage {
  type: string;
  body: Buffer;
}

export function readMessage(message: Uint8Array): FrontendMessage {
  const buffer = Buffer.from(message);
  return { type: String.fromCharCode(buffer[0] ?? 0), body: buffer.subarray(5) };
}

function message(type: string, body: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header.write(type, 0, 'latin1');
  header.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([header, body]);
}

function cstring(text: string): Buffer {
  return Buffer.concat([Buffer.from(text, 'utf8'), Buffer.from([0])]);
}

/** The NUL-terminated strings at the start of a body, and where the rest begins. */
export function readCStrings(body: Buffer, count: number): { strings: string[]; rest: number } {
  const strings: string[] = [];
  let at = 0;
  for (let n = 0; n < count; n += 1) {
    const end = body.indexOf(0, at);
    if (end === -1) throw new Error('a malformed message');
    strings.push(body.subarray(at, end).toString('utf8'));
    at = end + 1;
  }
  return { strings, rest: at };
}

/** The SQL of a simple Query ('Q') or of a Parse ('P'). */
export function sqlOf(msg: FrontendMessage): string {
  return msg.type === 'Q'
    ? readCStrings(msg.body, 1).strings[0]!
    : readCStrings(msg.body, 2).strings[1]!;
}

/**
 * The message with its prepared statement's name given a prefix of its connection, so that
 * clients sharing the one session cannot meet each other's statements (JDBC names them S_1,
 * S_2 on every connection). Unnamed statements and portals are left as they are.
 */
export function prefixStatementName(msg: FrontendMessage, prefix: string): Buffer | null {
  const named = (name: string) => (name === '' ? '' : `${prefix}${name}`);
  if (msg.type === 'P') {
    const { strings, rest } = readCStrings(msg.body, 1);
    return message('P', Buffer.concat([cstring(named(strings[0]!)), msg.body.subarray(rest)]));
  }
  if (msg.type === 'B') {
    const { strings, rest } = readCStrings(msg.body, 2);
    const [portal, statement] = strings as [string, string];
    return message(
      'B',
      Buffer.concat([cstring(portal), cstring(named(statement)), msg.body.subarray(rest)]),
    );
  }
  if ((msg.type === 'D' || msg.type === 'C') && msg.body[0] === 'S'.charCodeAt(0)) {
    const { strings } = readCStrings(msg.body.subarray(1), 1);
    return message(msg.type, Buffer.concat([Buffer.from('S'), cstring(named(strings[0]!))]));
  }
  return null;
}

export type ErrorSeverity = 'ERROR' | 'FATAL';

/** An ErrorResponse with severity, SQLSTATE and message. */
export function errorResponse(severity: ErrorSeverity, code: string, text: string): Buffer {
  return message(
    'E',
    Buffer.concat([
      Buffer.from('S'),
      cstring(severity),
      Buffer.from('V'),
      cstring(severity),
      Buffer.from('C'),
      cstring(code),
      Buffer.from('M'),
      cstring(text),
      Buffer.from([0]),
    ]),
  );
}

/** ReadyForQuery with the transaction status: I idle, T in a transaction, E in a failed one. */
export function readyForQuery(status: TransactionStatus): Buffer {
  return message('Z', Buffer.from(status, 'latin1'));
}

export type TransactionStatus = 'I' | 'T' | 'E';

/** AuthenticationMD5Password with its salt. */
export function md5Request(salt: Buffer): Buffer {
  const body = Buffer.alloc(8);
  body.writeInt32BE(5, 0);
  salt.copy(body, 4);
  return message('R', body);
}

/** Whether a PasswordMessage answers the MD5 challenge for this user and password. */
export function isMd5Answer(
  msg: FrontendMessage,
  user: string,
  password: string,
  salt: Buffer,
): boolean {
  if (msg.type !== 'p') return false;
  const answer = Buffer.from(readCStrings(msg.body, 1).strings[0]!, 'utf8');
  const md5 = (data: Buffer | string) => createHash('md5').update(data).digest('hex');
  const inner = md5(`${password}${user}`);
  const expected = Buffer.from(`md5${md5(Buffer.concat([Buffer.from(inner), salt]))}`, 'utf8');
  return answer.length === expected.length && timingSafeEqual(answer, expected);
}

/**
 * Follows PGlite's answer across its chunks and keeps the status of the last ReadyForQuery,
 * which says whether the client still holds the session (in a transaction) or gave it back.
 */
export class ReadyScanner {
  #pending = Buffer.alloc(0);
  /** The status of the last ReadyForQuery seen since `reset`, or null. */
  last: TransactionStatus | null = null;

  reset(): void {
    this.last = null;
  }

  push(chunk: Uint8Array): void {
    let buffer =
      this.#pending.length === 0 ? Buffer.from(chunk) : Buffer.concat([this.#pending, chunk]);
    while (buffer.length >= 5) {
      const length = buffer.readInt32BE(1);
      if (buffer.length < length + 1) break;
      if (buffer[0] === 'Z'.charCodeAt(0))
        this.last = String.fromCharCode(buffer[5]!) as TransactionStatus;
      buffer = buffer.subarray(length + 1);
    }
    this.#pending = Buffer.from(buffer);
  }
}
