import { EventEmitter } from 'node:events';

import pg from 'pg';
import { describe, expect, it } from 'vitest';

import { guardedPool } from '../../src/db/copy.ts';

/**
 * A client whose server is restarted the moment it connects: the FATAL comes in the same read
 * as the first ReadyForQuery, so `error` is emitted right after the connect callback, before
 * the code awaiting the pool's `connect()` runs.
 */
class RestartedAsItConnects extends EventEmitter {
  _queryable = true;
  _ending = false;
  connect(callback: (err: Error | null) => void): void {
    setImmediate(() => {
      callback(null);
      this._queryable = false;
      this.emit('error', new Error('terminating connection due to administrator command'));
    });
  }
  end(callback?: () => void): void {
    this._ending = true;
    callback?.();
  }
}

describe('the pool a PostgreSQL mirror uses', () => {
  it('keeps the process up when a new connection dies in the read that opened it', async () => {
    const pool = new pg.Pool({ Client: RestartedAsItConnects as unknown as typeof pg.Client });
    const guarded = guardedPool(pool, (err) => err as Error);
    // Unheard, the error would throw out of the pool's connect callback instead.
    const client = await guarded.connect();
    // The dead client goes back and the pool drops it rather than hand it out again.
    client.release();
    expect(pool.totalCount).toBe(0);
    await guarded.end();
  });
});
