/**
 * JSON as Weblate's DRF renderer writes it (compact, UTF-8, U+2028/U+2029 escaped), with two
 * additions JSON.stringify cannot do:
 * - `bigint` values become bare integer literals, so id_hash/content_hash beyond 2^53 are
 *   exact on the wire;
 * - whole numbers under a key ending in `_percent` are written with one decimal (`100.0`),
 *   because Python serialises these floats that way and a lossless client sees the text.
 */
export function toJsonText(value: unknown): string {
  // JSON.stringify with a replacer that marks the two additions as strings, unmarked after:
  // about a third faster than writing value by value, which the simulator does for every
  // record it serves. A text that already held a marker is written value by value instead.
  let marked = 0;
  const text = JSON.stringify(value, function (this: unknown, key: string, item: unknown) {
    if (typeof item === 'bigint') {
      marked++;
      return `${MARK}${item.toString()}`;
    }
    if (typeof item === 'number' && key.endsWith('_percent') && Number.isInteger(item)) {
      marked++;
      return `${MARK}${item}.0`;
    }
    return item;
  }) as string | undefined;
  if (text === undefined) return 'null';
  let unmarked = 0;
  const json =
    marked === 0
      ? text
      : text.replace(MARKED, (_, literal: string) => {
          unmarked++;
          return literal;
        });
  if (unmarked !== marked) return write(value, false);
  return LINE_SEPARATORS.test(json) ? escapeLineSeparators(json) : json;
}

/** A marked value: NUL (which JSON.stringify writes as \u0000) and a tag, then its literal. */
const MARK = '\u0000weblate-mirror:';
const MARKED = /"\\u0000weblate-mirror:([^"\\]*)"/g;

const LINE_SEPARATORS = /[\u2028\u2029]/;

function escapeLineSeparators(json: string): string {
  return json.replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

function writeString(text: string): string {
  const json = JSON.stringify(text);
  // Rare in text: the search runs only where one occurs.
  return LINE_SEPARATORS.test(text) ? escapeLineSeparators(json) : json;
}

function writeNumber(value: number, isPercent: boolean): string {
  if (!Number.isFinite(value)) return 'null';
  return isPercent && Number.isInteger(value) ? `${value}.0` : String(value);
}

function write(value: unknown, isPercent: boolean): string {
  switch (typeof value) {
    case 'string':
      return writeString(value);
    case 'number':
      return writeNumber(value, isPercent);
    case 'bigint':
      return value.toString();
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      if (value === null) return 'null';
      if (Array.isArray(value)) return `[${value.map((item) => write(item, false)).join(',')}]`;
      return writeObject(value as Record<string, unknown>);
    case 'undefined':
    case 'function':
    case 'symbol':
      return 'null';
  }
}

function writeObject(object: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const key of Object.keys(object)) {
    const item = object[key];
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
    parts.push(`${writeString(key)}:${write(item, key.endsWith('_percent'))}`);
  }
  return `{${parts.join(',')}}`;
}
