import type { z } from 'zod';

// A fast path for validating API records, compiled from their zod schemas: checks in place,
// without zod's copies; when not sure, zod decides (docs/internals.md#fast-validation-of-records).

/** What a compiled check returns for a value it does not accept. */
const NOT_SURE: unique symbol = Symbol('not sure');

type Check = (value: unknown) => unknown;

/** Building blocks whose conversion is not a zod primitive: the schema and its fast check. */
const named = new Map<z.ZodType, Check>();

/**
 * Registers the fast check of a building block (e.g. int64): `convert` returns the converted
 * value, or undefined where the schema would refuse the value. The schema must accept what
 * `convert` returns and convert it to itself: a record the fast path gives up on halfway
 * reaches zod with the fields before that point already converted.
 */
export function fastCheck<T>(schema: z.ZodType<T>, convert: (value: unknown) => T | undefined) {
  named.set(schema, (value) => {
    const converted = convert(value);
    return converted === undefined ? NOT_SURE : converted;
  });
  return schema;
}

type ZodInternal = {
  _zod: {
    def: {
      type: string;
      checks?: Array<{
        _zod: { def: { check: string; format?: string; pattern?: RegExp; minimum?: number } };
      }>;
      innerType?: ZodInternal;
      element?: ZodInternal;
      shape?: Record<string, ZodInternal>;
      catchall?: unknown;
    };
  };
};

function compile(schema: ZodInternal, top = false): Check | null {
  const known = named.get(schema as unknown as z.ZodType);
  if (known !== undefined) return known;
  const def = schema._zod.def;
  const checks = def.checks ?? [];
  switch (def.type) {
    case 'string': {
      const patterns: RegExp[] = [];
      let minLength = 0;
      for (const check of checks) {
        const { check: kind, format, pattern, minimum } = check._zod.def;
        if (kind === 'string_format' && format === 'regex' && pattern !== undefined) {
          patterns.push(pattern);
        } else if (kind === 'min_length' && typeof minimum === 'number') {
          minLength = Math.max(minLength, minimum);
        } else return null;
      }
      return (value) =>
        typeof value === 'string' &&
        value.length >= minLength &&
        patterns.every((p) => matches(p, value))
          ? value
          : NOT_SURE;
    }
    case 'number': {
      if (checks.length === 0) {
        return (value) => (typeof value === 'number' && Number.isFinite(value) ? value : NOT_SURE);
      }
      const only = checks.length === 1 ? checks[0]!._zod.def : null;
      if (only?.check !== 'number_format' || only.format !== 'safeint') return null;
      return (value) => (Number.isSafeInteger(value) ? value : NOT_SURE);
    }
    case 'boolean':
      return checks.length === 0
        ? (value) => (typeof value === 'boolean' ? value : NOT_SURE)
        : null;
    case 'unknown':
      return (value) => value;
    case 'optional':
    case 'nullable': {
      const inner = def.innerType === undefined ? null : compile(def.innerType);
      if (inner === null) return null;
      const empty = def.type === 'optional' ? undefined : null;
      return (value) => (value === empty ? value : inner(value));
    }
    case 'array': {
      const element = def.element === undefined ? null : compile(def.element);
      if (element === null || checks.length > 0) return null;
      return (value) => {
        if (!Array.isArray(value)) return NOT_SURE;
        for (let i = 0; i < value.length; i++) {
          const item: unknown = value[i];
          const converted = element(item);
          if (converted === NOT_SURE) return NOT_SURE;
          if (converted !== item) value[i] = converted;
        }
        return value as unknown[];
      };
    }
    case 'object':
      return def.shape === undefined || def.catchall !== undefined
        ? null
        : compileObject(def.shape, top);
    default:
      return null;
  }
}

/**
 * A record is checked and converted in place; an object inside it is copied with only the
 * keys its schema names, as zod does (they are few and small).
 */
function compileObject(shape: Record<string, ZodInternal>, inPlace: boolean): Check | null {
  const keys = Object.keys(shape);
  const fields: Check[] = [];
  for (const key of keys) {
    const field = compile(shape[key]!);
    if (field === null) return null;
    fields.push(field);
  }
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return NOT_SURE;
    const record = value as Record<string, unknown>;
    const out: Record<string, unknown> = inPlace ? record : {};
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const field: unknown = record[key];
      const converted = fields[i]!(field);
      if (converted === NOT_SURE) return NOT_SURE;
      if (inPlace ? converted !== field : converted !== undefined || key in record) {
        out[key] = converted;
      }
    }
    return out;
  };
}

function matches(pattern: RegExp, text: string): boolean {
  // A global or sticky pattern keeps state between calls; zod resets it, so do the same.
  pattern.lastIndex = 0;
  return pattern.test(text);
}

const compiled = new WeakMap<z.ZodType, Check | null>();

/**
 * The fast path of `schema`: the record (converted in place) when it surely fits, else
 * undefined and the caller asks zod. Undefined for every value when the schema uses
 * something the fast path does not know.
 */
export function fastParse<T>(schema: z.ZodType<T>, value: unknown): T | undefined {
  let check = compiled.get(schema);
  if (check === undefined) {
    check = compile(schema, true);
    compiled.set(schema, check);
  }
  if (check === null) return undefined;
  const result = check(value);
  return result === NOT_SURE ? undefined : (result as T);
}
