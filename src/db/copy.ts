import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

import { Kysely, PostgresDialect, type Transaction } from 'kysely';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

import type { Database } from './database.ts';

/** Streams COPY data (`copy … from stdin`) into the transaction it was handed to. */
export type CopyInto = (statement: string, chunks: Iterable<Buffer>) => Promise<void>;

/**
 * What a PostgreSQL database can do that the embedded one cannot: transactions that rows can
 * be COPYed into. Kysely does not expose the pg client behind a transaction, so each such
 * transaction runs on a client checked out for it alone, and `work` gets, beside the
 * transaction, the COPY into that very client.
 */
export interface CopyCapability {
  transaction<T>(work: (trx: Transaction<Database>, copy: CopyInto) => Promise<T>): Promise<T>;
}

/**
 * The pool Kysely is given. A checked-out client whose connection dies (a server restart,
 * pg_terminate_backend) emits `error`, which the pool hears only from idle clients: unheard,
 * it would crash the process. The failure reaches the client's user through its query, and
 * the pool drops the client when it comes back. The listener goes on at the pool's `connect`
 * event, before the client is handed out: a restart's FATAL can come in the same read as the
 * first ReadyForQuery. A connection that cannot be opened fails with `explainConnectError`.
 */
export function guardedPool(pool: pg.Pool, explainConnectError: (err: unknown) => Error) {
  let ended: Promise<void> | null = null;
  pool.on('connect', (client) => client.on('error', () => undefined));
  return {
    async connect(): Promise<pg.PoolClient> {
      try {
        return await pool.connect();
      } catch (err) {
        throw explainConnectError(err);
      }
    },
    /** Ends the pool once, whoever asks first (Kysely, or the handle's close). */
    end: () => (ended ??= pool.end()),
  };
}

/** COPY transactions on clients of `pool` (see CopyCapability). */
export function copyCapability(pool: ReturnType<typeof guardedPool>): CopyCapability {
  return {
    async transaction(work) {
      const client = await pool.connect();
      try {
        // A Kysely of this one client: the transaction it opens is on the client COPY uses.
        const facade = {
          query: (...args: unknown[]) => (client.query as (...a: unknown[]) => unknown)(...args),
          release: () => undefined,
        };
        const pinned = { connect: () => Promise.resolve(facade), end: () => Promise.resolve() };
        const db = new Kysely<Database>({
          dialect: new PostgresDialect({ pool: pinned as unknown as pg.Pool }),
        });
        const copy: CopyInto = (statement, chunks) =>
          pipeline(Readable.from(chunks), client.query(copyFrom(statement)));
        return await db.transaction().execute((trx) => work(trx, copy));
      } finally {
        client.release();
      }
    },
  };
}

const CHUNK_BYTES = 1 << 20;

/**
 * Text is encoded straight into 1 MiB buffers (each one socket write): no page-sized
 * string, no second copy. A UTF-16 unit takes at most three bytes in UTF-8.
 */
class ChunkWriter {
  #buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  #used = 0;
  /** Buffers filled so far, for the caller to take. */
  readonly filled: Buffer[] = [];

  write(text: string): void {
    if (this.#used + text.length * 3 > this.#buffer.length) {
      this.flush();
      if (text.length * 3 > this.#buffer.length) this.#buffer = Buffer.allocUnsafe(text.length * 3);
    }
    this.#used += this.#buffer.write(text, this.#used, 'utf8');
  }

  flush(): void {
    if (this.#used === 0) return;
    this.filled.push(this.#buffer.subarray(0, this.#used));
    this.#buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    this.#used = 0;
  }
}

/** A field text at least this long is written on its own rather than joined into its line. */
const LONG_FIELD = 256;

export type CopyKind = 'scalar' | 'text[]' | 'json';

type FieldText = (value: NonNullable<unknown>) => string;

/**
 * Rows in COPY text format, in 1 MiB buffers: tab-separated, `\N` for null, backslash
 * escapes; text[] as an array literal; json values as JSON text (`raw` is already the API's
 * own text). Each column's encoder is chosen once, not per value, and long texts (a unit's
 * raw JSON) go into the buffer as they are instead of through a line string that would be
 * copied again: this runs for every field of every unit and change.
 */
export function* copyText(
  rows: Iterable<Record<string, unknown>>,
  columns: readonly string[],
  kinds: Readonly<Record<string, CopyKind>>,
): Generator<Buffer> {
  const fields = columns.map((column) => fieldText(column, kinds[column] ?? 'scalar'));
  const count = columns.length;
  const out = new ChunkWriter();
  for (const row of rows) {
    let line = '';
    for (let i = 0; i < count; i++) {
      if (i > 0) line += '\t';
      const value = row[columns[i]!];
      if (value === null || value === undefined) {
        line += '\\N';
        continue;
      }
      const text = fields[i]!(value);
      if (text.length < LONG_FIELD) {
        line += text;
      } else {
        out.write(line);
        out.write(text);
        line = '';
      }
    }
    out.write(`${line}\n`);
    if (out.filled.length > 0) yield* out.filled.splice(0);
  }
  out.flush();
  yield* out.filled;
}

function fieldText(column: string, kind: CopyKind): FieldText {
  if (kind === 'text[]') return (value) => escapeCopy(arrayLiteral(value as string[]));
  if (kind === 'json') {
    return column === 'raw'
      ? (value) => escapeCopy(typeof value === 'string' ? value : JSON.stringify(value))
      : (value) => escapeCopy(JSON.stringify(value));
  }
  return scalarText;
}

function scalarText(value: NonNullable<unknown>): string {
  if (typeof value === 'string') return escapeCopy(value);
  if (typeof value === 'number' || typeof value === 'bigint') return value.toString();
  if (typeof value === 'boolean') return value ? 't' : 'f';
  return escapeCopy(JSON.stringify(value));
}

const ARRAY_SPECIALS = /[\\"]/;

function arrayLiteral(items: readonly string[]): string {
  let literal = '{';
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    if (i > 0) literal += ',';
    literal += ARRAY_SPECIALS.test(item)
      ? `"${item.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`
      : `"${item}"`;
  }
  return `${literal}}`;
}

/** Escapes COPY's specials; each native scan and replace runs only when its character occurs. */
function escapeCopy(text: string): string {
  let escaped = text;
  if (escaped.includes('\\')) escaped = escaped.replaceAll('\\', '\\\\');
  if (escaped.includes('\n')) escaped = escaped.replaceAll('\n', '\\n');
  if (escaped.includes('\r')) escaped = escaped.replaceAll('\r', '\\r');
  if (escaped.includes('\t')) escaped = escaped.replaceAll('\t', '\\t');
  return escaped;
}
