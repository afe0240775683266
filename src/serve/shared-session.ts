import type { PGlite } from '@electric-sql/pglite';

import type { SessionTurns } from '../db/client.ts';
import { GUARDED_SETTINGS } from './sql-guard.ts';

/** Who has the session: the mirror's own queries, or a client connection by its number. */
export type Owner = 'mirror' | number;

/** The role a client's turns run as: migration 0003 creates it with SELECT on the schema. */
export const READER_ROLE = 'weblate_reader';

type Settings = Array<[string, string]>;

/**
 * The embedded database is one PostgreSQL session. Every client of `serve` and the mirror's own
 * writes take turns on it: a client's turn lasts from its first message until PostgreSQL says
 * it is idle again (a statement, or a whole transaction), the mirror's one Kysely connection
 * (a statement or a transaction). Between owners the session changes hands: a client's turns
 * run as READER_ROLE with default_transaction_read_only on, the mirror's as the session's own
 * superuser; each owner gets back the settings it made (search_path, TimeZone, …).
 */
export class SharedSession {
  readonly #pglite: PGlite;
  readonly #superuser: string;
  #holder: Owner | null = null;
  /** Whose settings the session has now; null: none (RESET ALL, the superuser). */
  #occupant: Owner | null = 'mirror';
  readonly #waiters: Array<{ owner: Owner; resolve: () => void }> = [];
  readonly #settings = new Map<Owner, Settings>();

  private constructor(pglite: PGlite, superuser: string) {
    this.#pglite = pglite;
    this.#superuser = superuser;
  }

  static async open(pglite: PGlite): Promise<SharedSession> {
    const found = await pglite.query<{ user: string }>('select session_user as "user"');
    return new SharedSession(pglite, found.rows[0]!.user);
  }

  /** The mirror's turns, for the embedded database's Kysely driver (DbOptions.shareSession). */
  mirrorTurns(): SessionTurns {
    return { begin: () => this.acquire('mirror'), end: () => this.release('mirror') };
  }

  /** Settings a client asked for at startup, applied with its first turn. */
  setClientSettings(client: number, settings: Settings): void {
    this.#settings.set(client, settings);
  }

  /**
   * Waits for the session, first come first served, and makes it the owner's; without `enter`
   * only the one before leaves it (a client that is gone, about to be retired).
   */
  async acquire(owner: Owner, enter = true): Promise<void> {
    if (this.#holder !== null || this.#waiters.length > 0)
      await new Promise<void>((resolve) => this.#waiters.push({ owner, resolve }));
    else this.#holder = owner;
    if (this.#occupant === owner) return;
    try {
      if (this.#occupant !== null) await this.#leave(this.#occupant);
      if (enter) await this.#enter(owner);
    } catch (err) {
      await this.#toNeutral().catch(() => undefined);
      this.release(owner);
      throw err;
    }
  }

  release(owner: Owner): void {
    if (this.#holder !== owner) return;
    const next = this.#waiters.shift();
    this.#holder = next?.owner ?? null;
    next?.resolve();
  }

  /** Runs one protocol message of the client holding the session; PGlite's answer goes to onData. */
  exec(message: Uint8Array, onData: (chunk: Uint8Array) => void): Promise<void> {
    return this.#pglite.runExclusive(() =>
      this.#pglite.execProtocolRawStream(message, { onRawData: onData }),
    );
  }

  /** Whether the guard still holds, at the end of a client's turn. */
  async isGuarded(): Promise<boolean> {
    const found = await this.#pglite.query<{ ok: boolean }>(
      `select current_user = $1 and current_setting('default_transaction_read_only') = 'on' as ok`,
      [READER_ROLE],
    );
    return found.rows[0]?.ok === true;
  }

  /**
   * A client leaves the session for good (gone, timed out, or past the guard): in its turn, its
   * transaction is rolled back, its prepared statements dropped, and the session made neutral.
   */
  async retire(client: number, statementPrefix: string): Promise<void> {
    if (this.#holder !== client) await this.acquire(client, false);
    try {
      await this.#drop(statementPrefix);
    } finally {
      this.#settings.delete(client);
      this.release(client);
    }
  }

  /** A client that never had the session: its startup settings are forgotten. */
  forget(client: number): void {
    this.#settings.delete(client);
  }

  async #drop(statementPrefix: string): Promise<void> {
    if (this.#pglite.isInTransaction()) await this.#pglite.exec('rollback');
    const prepared = await this.#pglite.query<{ name: string }>(
      'select name from pg_prepared_statements where starts_with(name, $1)',
      [statementPrefix],
    );
    for (const { name } of prepared.rows) await this.#pglite.exec(`deallocate ${quoteIdent(name)}`);
    await this.#toNeutral();
  }

  async #leave(owner: Owner): Promise<void> {
    if (this.#pglite.isInTransaction()) await this.#pglite.exec('rollback');
    const found = await this.#pglite.query<{ name: string; setting: string }>(
      `select name, setting from pg_settings where source = 'session'`,
    );
    this.#settings.set(
      owner,
      found.rows
        .filter(({ name }) => owner === 'mirror' || !isGuardedName(name))
        .filter(({ name }) => name !== 'session_authorization' && name !== 'role')
        .map(({ name, setting }) => [name, setting]),
    );
    await this.#toNeutral();
  }

  async #enter(owner: Owner): Promise<void> {
    if (owner !== 'mirror') await this.#pglite.exec(`set session authorization ${READER_ROLE}`);
    const settings = this.#settings.get(owner) ?? [];
    // As the owner: a client's settings pass PostgreSQL's checks for READER_ROLE.
    if (settings.length > 0)
      await this.#pglite.query(
        'select set_config(name, setting, false) from unnest($1::text[], $2::text[]) as s(name, setting)',
        [settings.map(([name]) => name), settings.map(([, setting]) => setting)],
      );
    if (owner !== 'mirror') await this.#pglite.exec('set default_transaction_read_only = on');
    this.#occupant = owner;
  }

  async #toNeutral(): Promise<void> {
    this.#occupant = null;
    if (this.#pglite.isInTransaction()) await this.#pglite.exec('rollback');
    // PGlite's RESET SESSION AUTHORIZATION keeps the reader: the superuser is named.
    await this.#pglite.exec(`set session authorization ${quoteIdent(this.#superuser)}; reset all`);
  }
}

function isGuardedName(name: string): boolean {
  return GUARDED_SETTINGS.has(name.toLowerCase()) || name.startsWith('transaction_');
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
