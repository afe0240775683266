import { AsyncLocalStorage } from 'node:async_hooks';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

/**
 * COPY on PostgreSQL. Kysely does not expose the pg client behind a transaction, so the
 * pool hands clients out through a wrapper that records, in the async context of a
 * session, the first client checked out there: the one the session's transaction uses.
 * Code inside `withSession` can then COPY into that very transaction. Without a session,
 * or on the embedded database, there is no client and callers use plain SQL instead.
 */
const sessions = new AsyncLocalStorage<{ client: pg.PoolClient | null }>();

/** The pool Kysely is given: records clients checked out inside a session. */
export function trackingPool(pool: pg.Pool) {
  return {
    async connect(): Promise<pg.PoolClient> {
      const client = await pool.connect();
      const session = sessions.getStore();
      if (session !== undefined && session.client === null) session.client = client;
      return client;
    },
    end: () => pool.end(),
  };
}

/** Runs `work` in a session; a transaction it opens first can be COPYed into. */
export function withSession<T>(work: () => Promise<T>): Promise<T> {
  return sessions.run({ client: null }, work);
}

/** Whether COPY into the current session's transaction is possible. */
export function canCopy(): boolean {
  const session = sessions.getStore();
  return session !== undefined && session.client !== null;
}

/** Streams COPY text into the session's transaction; false when COPY is not available here. */
export async function copyIntoSession(
  statement: string,
  lines: Iterable<string>,
): Promise<boolean> {
  const client = sessions.getStore()?.client;
  if (client === null || client === undefined) return false;
  await pipeline(Readable.from(batches(lines)), client.query(copyFrom(statement)));
  return true;
}

const CHUNK_BYTES = 1 << 20;

/**
 * Encodes lines straight into 1 MiB buffers (each one socket write): no page-sized string,
 * no second copy. A line can take at most three bytes per UTF-16 unit in UTF-8.
 */
function* batches(lines: Iterable<string>): Generator<Buffer> {
  let buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  let used = 0;
  for (const line of lines) {
    if (used + line.length * 3 > CHUNK_BYTES) {
      if (used > 0) yield buffer.subarray(0, used);
      buffer = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, line.length * 3));
      used = 0;
    }
    used += buffer.write(line, used, 'utf8');
  }
  if (used > 0) yield buffer.subarray(0, used);
}

export type CopyKind = 'scalar' | 'text[]' | 'json';

/**
 * One row in COPY text format: tab-separated, `\N` for null, backslash escapes; text[] as
 * an array literal; json values as JSON text (`raw` is already the API's own text).
 */
export function copyLine(
  row: Record<string, unknown>,
  columns: readonly string[],
  kinds: Readonly<Record<string, CopyKind>>,
): string {
  let line = '';
  for (let i = 0; i < columns.length; i++) {
    const column = columns[i]!;
    const value = row[column];
    if (i > 0) line += '\t';
    if (value === null || value === undefined) {
      line += '\\N';
      continue;
    }
    const kind = kinds[column] ?? 'scalar';
    const text =
      kind === 'text[]'
        ? arrayLiteral(value as string[])
        : kind === 'json'
          ? jsonText(column, value)
          : scalarText(value);
    line += escapeCopy(text);
  }
  return `${line}\n`;
}

function jsonText(column: string, value: unknown): string {
  return column === 'raw' && typeof value === 'string' ? value : JSON.stringify(value);
}

function scalarText(value: unknown): string {
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return value.toString();
  return JSON.stringify(value);
}

function arrayLiteral(items: readonly string[]): string {
  return `{${items.map((item) => `"${item.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(',')}}`;
}

const COPY_SPECIALS = /[\\\n\r\t]/g;
const COPY_ESCAPES: Record<string, string> = {
  '\\': '\\\\',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

function escapeCopy(text: string): string {
  // Most values contain nothing to escape; four native scans beat one regular expression.
  if (!text.includes('\\') && !text.includes('\n') && !text.includes('\t') && !text.includes('\r'))
    return text;
  return text.replace(COPY_SPECIALS, (c) => COPY_ESCAPES[c]!);
}
