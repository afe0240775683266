import type { RankedList } from './model.ts';

// The queries give counts (bigint) and percentages (numeric) as exact decimal strings;
// the report's model holds numbers.

export function toNumber(value: string | number): number {
  return typeof value === 'number' ? value : Number(value);
}

export function toNumberOrNull(value: string | number | null): number | null {
  return value === null ? null : toNumber(value);
}

/** `row` with the given fields as numbers (a null stays null). */
export type WithNumbers<Row, Key extends keyof Row> = {
  [P in keyof Row]: P extends Key ? (null extends Row[P] ? number | null : number) : Row[P];
};

export function withNumbers<Row extends object, Key extends keyof Row>(
  row: Row,
  keys: readonly Key[],
): WithNumbers<Row, Key> {
  const out: Record<string, unknown> = { ...(row as Record<string, unknown>) };
  for (const key of keys) {
    const value = row[key];
    out[key as string] = value === null ? null : toNumber(value as string | number);
  }
  return out as WithNumbers<Row, Key>;
}

/** Rows cut to a limit, with `matching` (from every row) lifted to the list. */
export function ranked<Row extends { matching: string }, Out>(
  rows: Row[],
  map: (row: Omit<Row, 'matching'>) => Out,
): RankedList<Out> {
  return {
    matching: rows.length === 0 ? 0 : toNumber(rows[0]!.matching),
    rows: rows.map(({ matching: _, ...row }) => map(row)),
  };
}
