export type Picked<T, K extends keyof T> = { [P in K]-?: Exclude<T[P], undefined> | null };

/** Copies `keys` of `record`, turning absent (undefined) values into null. */
export function pickNullable<T extends object, K extends keyof T>(
  record: T,
  keys: readonly K[],
): Picked<T, K> {
  const out = {} as Picked<T, K>;
  for (const key of keys) out[key] = (record[key] ?? null) as Picked<T, K>[K];
  return out;
}
