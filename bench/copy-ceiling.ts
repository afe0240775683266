import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';

export interface CopyCeiling {
  rows: number;
  ms: number;
  rowsPerSecond: number;
}

/**
 * The database's own ceiling for loading the mirrored unit rows: the same rows (exported as
 * COPY text, so no client-side encoding is timed) loaded with COPY into a staging table and
 * merged with one INSERT … ON CONFLICT into an empty table shaped like weblate.units,
 * including its foreign key to weblate.translations (checked for every row, as in the
 * mirror), the faster of two loads. `withoutForeignKey` is the same without that key, for scale.
 */
export async function measureCopyCeiling(
  databaseUrl: string,
): Promise<CopyCeiling & { withoutForeignKey: CopyCeiling }> {
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
    const columns = (
      await client.query<{ name: string }>(
        `select column_name as name from information_schema.columns where table_schema = 'weblate' and table_name = 'units' order by ordinal_position`,
      )
    ).rows.map((r) => `"${r.name}"`);
    // Each load twice, keeping the faster: the ceiling is the best the database can do, and
    // the first load after a sync can meet that sync's checkpoint.
    const best = async (foreignKey: boolean) => {
      const a = await load(client, chunks, columns, foreignKey);
      const b = await load(client, chunks, columns, foreignKey);
      return a.rowsPerSecond >= b.rowsPerSecond ? a : b;
    };
    const withoutForeignKey = await best(false);
    const ceiling = await best(true);
    return { ...ceiling, withoutForeignKey };
  } finally {
    await client.end();
  }
}

async function load(
  client: pg.Client,
  chunks: Buffer[],
  columns: string[],
  foreignKey: boolean,
): Promise<CopyCeiling> {
  await client.query('drop table if exists public.bench_units');
  await client.query('create table public.bench_units (like weblate.units including all)');
  if (foreignKey) {
    await client.query(
      'alter table public.bench_units add foreign key (translation_id) references weblate.translations (id)',
    );
  }
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
}
