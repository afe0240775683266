import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';

import type { SchemaElement } from 'hyparquet';
import { ByteWriter, ParquetWriter } from 'hyparquet-writer';

import { type ColumnKind, convertValue, schemaElements } from './columns.ts';

/** Where a file's bytes go: a new file on disk, or a test's stand-in (a disk that fills). */
export interface FileSink {
  write(bytes: Uint8Array): Promise<void>;
  /** Makes the bytes durable and closes. */
  finish(): Promise<void>;
  /** Closes after a failure, quietly. */
  abort(): Promise<void>;
}

export type OpenSink = (path: string) => Promise<FileSink>;

/** A new file (never an existing one: `wx`), synced to disk before it is renamed into place. */
export const openFileSink: OpenSink = async (path) => {
  const handle = await open(path, 'wx');
  return {
    async write(bytes) {
      for (let offset = 0; offset < bytes.length;) {
        const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset);
        offset += bytesWritten;
      }
    },
    async finish() {
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    },
    abort: () => handle.close().catch(() => undefined),
  };
};

/**
 * hyparquet-writer's ByteWriter that hands its bytes to a sink after every row group (the
 * ParquetWriter awaits flush before encoding more), hashing them on the way: a file never
 * needs more memory than one row group.
 */
class SinkWriter extends ByteWriter {
  readonly sink: FileSink;
  readonly hash = createHash('sha256');

  constructor(sink: FileSink) {
    super(1 << 20);
    this.sink = sink;
  }

  async flush(): Promise<void> {
    const bytes = this.getBytes();
    this.hash.update(bytes);
    await this.sink.write(bytes);
    this.index = 0;
  }
}

export interface ExportColumn {
  name: string;
  kind: ColumnKind;
  isNullable: boolean;
}

export interface WrittenFile {
  rows: number;
  bytes: number;
  sha256: string;
}

/** Writes the batches as one Parquet file, a row group per batch, and finishes the sink. */
export async function writeParquetFile(
  sink: FileSink,
  columns: readonly ExportColumn[],
  batches: AsyncIterable<Array<Record<string, unknown>>>,
): Promise<WrittenFile> {
  const writer = new SinkWriter(sink);
  const schema: SchemaElement[] = [
    { name: 'root', num_children: columns.length },
    ...columns.flatMap((c) => schemaElements(c.name, c.kind, c.isNullable)),
  ];
  const parquet = new ParquetWriter({ writer, schema, createdBy: 'weblate-mirror' });
  let rows = 0;
  for await (const batch of batches) {
    await parquet.write({
      rowGroupSize: batch.length,
      columnData: columns.map((column) => ({
        name: column.name,
        data: batch.map((row) => convertValue(column.kind, row[column.name])),
        // Min and max of JSON text say nothing, and the writer would re-encode them as JSON.
        ...(column.kind === 'json' ? { statistics: false } : {}),
      })),
    });
    rows += batch.length;
  }
  // The writer JSON.stringifies the values of a column whose converted type is JSON, which
  // would quote our text; it gets the type once its values are written (docs/data-teams.md).
  for (const element of parquet.schema)
    if (element.logical_type?.type === 'JSON') element.converted_type = 'JSON';
  await parquet.finish();
  // ByteWriter's finish does nothing: the footer is still in the buffer.
  await writer.flush();
  await sink.finish();
  return { rows, bytes: writer.offset, sha256: writer.hash.digest('hex') };
}
