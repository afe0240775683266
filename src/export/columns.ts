import type { SchemaElement } from 'hyparquet';

import { dateToDays, int8ToBigInt, timestamptzToMicros } from './values.ts';

/** A column as the catalog describes it (src/db/queries/export.ts). */
export interface SourceColumn {
  name: string;
  /** format_type: what PostgreSQL calls the type (`timestamp with time zone`, `text[]`). */
  type: string;
  /** pg_type.typname: `int8`, `timestamptz`, `_text` for text[]. */
  typeName: string;
  isNullable: boolean;
}

/** How a column is carried; docs/data-teams.md has the table. */
export type ColumnKind =
  | 'int32'
  | 'int64'
  | 'boolean'
  | 'double'
  | 'timestamp'
  | 'date'
  | 'string'
  | 'json'
  | 'string-list'
  | 'as-text';

/** How the database is asked for a column: as the driver parses it, as text, or an array as JSON. */
export type ReadAs = 'native' | 'text' | 'json-array';

const KIND_OF_TYPE: Record<string, ColumnKind> = {
  int2: 'int32',
  int4: 'int32',
  int8: 'int64',
  bool: 'boolean',
  float4: 'double',
  float8: 'double',
  timestamptz: 'timestamp',
  date: 'date',
  text: 'string',
  varchar: 'string',
  bpchar: 'string',
  name: 'string',
  json: 'json',
  jsonb: 'json',
  _text: 'string-list',
  _varchar: 'string-list',
};

const READ_AS: Record<ColumnKind, ReadAs> = {
  int32: 'native',
  boolean: 'native',
  double: 'native',
  int64: 'text',
  timestamp: 'text',
  date: 'text',
  string: 'text',
  json: 'text',
  'as-text': 'text',
  'string-list': 'json-array',
};

/** numeric (no typmod here) and any type without a mapping keep PostgreSQL's exact text. */
export function columnKind(typeName: string): ColumnKind {
  return KIND_OF_TYPE[typeName] ?? 'as-text';
}

export function readAs(kind: ColumnKind): ReadAs {
  return READ_AS[kind];
}

/** The Parquet type of a kind, in words, for the manifest. */
export const PARQUET_TYPE_NAMES: Record<ColumnKind, string> = {
  int32: 'INT32',
  int64: 'INT64',
  boolean: 'BOOLEAN',
  double: 'DOUBLE',
  timestamp: 'INT64 TIMESTAMP(MICROS, isAdjustedToUTC=true)',
  date: 'INT32 DATE',
  string: 'BYTE_ARRAY STRING',
  json: 'BYTE_ARRAY JSON',
  'string-list': 'LIST<BYTE_ARRAY STRING>',
  'as-text': 'BYTE_ARRAY STRING',
};

const STRING_ELEMENT = {
  type: 'BYTE_ARRAY',
  converted_type: 'UTF8',
  logical_type: { type: 'STRING' },
} as const satisfies Partial<SchemaElement>;

/**
 * The schema elements of a column: one leaf, or a three-level LIST group. A JSON column gets
 * its converted type only when the file is finished (see parquet-file.ts).
 */
export function schemaElements(
  name: string,
  kind: ColumnKind,
  isNullable: boolean,
): SchemaElement[] {
  const repetition_type = isNullable ? 'OPTIONAL' : 'REQUIRED';
  switch (kind) {
    case 'int32':
      return [{ name, repetition_type, type: 'INT32' }];
    case 'int64':
      return [{ name, repetition_type, type: 'INT64' }];
    case 'boolean':
      return [{ name, repetition_type, type: 'BOOLEAN' }];
    case 'double':
      return [{ name, repetition_type, type: 'DOUBLE' }];
    case 'timestamp':
      return [
        {
          name,
          repetition_type,
          type: 'INT64',
          converted_type: 'TIMESTAMP_MICROS',
          logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' },
        },
      ];
    case 'date':
      return [
        {
          name,
          repetition_type,
          type: 'INT32',
          converted_type: 'DATE',
          logical_type: { type: 'DATE' },
        },
      ];
    case 'string':
    case 'as-text':
      return [{ name, repetition_type, ...STRING_ELEMENT }];
    case 'json':
      return [{ name, repetition_type, type: 'BYTE_ARRAY', logical_type: { type: 'JSON' } }];
    case 'string-list':
      return [
        {
          name,
          repetition_type,
          num_children: 1,
          converted_type: 'LIST',
          logical_type: { type: 'LIST' },
        },
        { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
        { name: 'element', repetition_type: 'OPTIONAL', ...STRING_ELEMENT },
      ];
  }
}

const encoder = new TextEncoder();

type Converter = (value: unknown) => unknown;

const asText = (value: unknown): string => {
  if (typeof value !== 'string')
    throw new Error(`expected text from the database, got ${typeof value}`);
  return value;
};

/** From what the driver returns (see readAs) to what the Parquet writer takes; null stays null. */
const CONVERTERS: Record<ColumnKind, Converter> = {
  int32: (value) => value,
  boolean: (value) => value,
  double: (value) => value,
  int64: (value) => int8ToBigInt(asText(value)),
  timestamp: (value) => timestamptzToMicros(asText(value)),
  date: (value) => dateToDays(asText(value)),
  string: asText,
  'as-text': asText,
  // Bytes, not a string: the writer would JSON.stringify a string (see parquet-file.ts).
  json: (value) => encoder.encode(asText(value)),
  'string-list': (value) => JSON.parse(asText(value)) as Array<string | null>,
};

export function convertValue(kind: ColumnKind, value: unknown): unknown {
  return value === null || value === undefined ? null : CONVERTERS[kind](value);
}
