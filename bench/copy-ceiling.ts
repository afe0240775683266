import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';

/**
 * The database's own ceiling for loading the mirrored unit rows: the same rows (exported as
 * COPY text, so no client-side encoding is timed) loaded with COPY into a staging table and
 * merged into an empty table shaped like weblate.units with one INSERT … ON CONFLICT.
 */
export async function measureCopyCeiling(
  databaseUrl: string,
): Promise<{ rows: number; ms: number; rowsPerSecond: number }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const chunks: Buffer[] = [];
    await pipeline(
      client.query(copyTo('copy (select * from weblate.units) to stdout')),
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          chunks.push(chunk);
          done();
        },
      }),
    );
    await client.query('drop table if exists public.bench_units');
    await client.query('create table public.bench_units (like weblate.units including all)');
    const columns = (
      await client.query<{ name: string }>(
        `select column_name as name from information_schema.columns where table_schema = 'weblate' and table_name = 'units' order by ordinal_position`,
      )
    ).rows.map((r) => `"${r.name}"`);
    const started = performance.now();
    await client.query('begin');
    await client.query('create temp table units_stage (like weblate.units) on commit drop');
    await pipeline(Readable.from(chunks), client.query(copyFrom('copy units_stage from stdin')));
    const merged = await client.query(
      `insert into public.bench_units select * from units_stage on conflict (id) do update set ${columns
        .filter((c) => c !== '"id"')
        .map((c) => `${c} = excluded.${c}`)
        .join(', ')}`,
    );
    await client.query('commit');
    const ms = performance.now() - started;
    await client.query('drop table public.bench_units');
    const rows = merged.rowCount ?? 0;
    return { rows, ms, rowsPerSecond: rows / (ms / 1000) };
  } finally {
    await client.end();
  }
}
