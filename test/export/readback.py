"""Reads an export back with DuckDB and with pyarrow, and prints per table its columns, its
rows and a checksum of each column: the sum (mod 2^64) of the first 8 bytes of the sha256 of
each value's canonical text (see readback.ts, which computes the same from the database)."""
import glob
import hashlib
import json
import struct
import sys
from datetime import date, datetime, timedelta, timezone

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
NULL = "\x00NULL"


def canonical(value):
    if value is None:
        return NULL
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return struct.pack(">d", value).hex()
    if isinstance(value, datetime):
        return str((value - EPOCH) // timedelta(microseconds=1))
    if isinstance(value, date):
        return str((value - date(1970, 1, 1)).days)
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    raise TypeError(f"no canonical text for {type(value)}: {value!r}")


def checksum(values):
    total = 0
    for value in values:
        total += int.from_bytes(hashlib.sha256(canonical(value).encode("utf-8")).digest()[:8], "big")
    return format(total % (1 << 64), "016x")


def summary(names, types, columns):
    rows = len(columns[0]) if columns else 0
    return {
        "columns": names,
        "types": dict(zip(names, types)),
        "rows": rows,
        "checksums": {n: checksum(c) for n, c in zip(names, columns)},
    }


def with_duckdb(out, table):
    relation = duckdb.sql(
        f"select * from read_parquet('{out}/{table}/**/*.parquet', hive_partitioning = false)"
    )
    names = relation.columns
    rows = relation.fetchall()
    types = [str(t) for t in relation.types]
    return summary(names, types, [[row[i] for row in rows] for i in range(len(names))])


def with_pyarrow(out, table):
    files = sorted(glob.glob(f"{out}/{table}/**/*.parquet", recursive=True))
    tables = [pq.read_table(f) for f in files]
    merged = pa.concat_tables(tables)
    names = merged.column_names
    types = [str(merged.schema.field(n).type) for n in names]
    return summary(names, types, [merged.column(n).to_pylist() for n in names])


def main():
    out, tables = sys.argv[1], sys.argv[2].split(",")
    print(json.dumps({
        "duckdb": {t: with_duckdb(out, t) for t in tables},
        "pyarrow": {t: with_pyarrow(out, t) for t in tables},
    }))


main()
