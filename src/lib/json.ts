// Lossless JSON for API payloads: integers beyond 2^53 parse as exact decimal strings, and each
// `results` element keeps its own source text (docs/internals.md#json-without-rounding).

/** Integer literals with more digits than this may exceed Number.MAX_SAFE_INTEGER. */
const SAFE_DIGITS = 15;

export interface ParsedJson {
  /** The parsed value; unsafe integers appear as decimal strings. */
  value: unknown;
  /** For an object with a `results` array: the source text of each element, in order. */
  resultTexts: string[] | null;
}

export class JsonSyntaxError extends Error {
  override name = 'JsonSyntaxError';
}

interface Scan {
  bigInts: number[]; // start,end pairs of unsafe integer literals
  results: number[] | null; // start,end pairs of `results` elements
  /**
   * For each big integer that is a direct field of a `results` element: element index, key
   * start, key end (the key's text without quotes); null once one is anywhere else.
   */
  fields: number[] | null;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Index just past the closing quote of the string starting at `start` (a quote). */
function skipString(text: string, start: number): number {
  let i = start + 1;
  for (;;) {
    const end = text.indexOf('"', i);
    if (end === -1) throw new JsonSyntaxError('unterminated string in JSON text');
    let slashes = 0;
    for (let j = end - 1; text.charCodeAt(j) === BACKSLASH; j--) slashes++;
    if (slashes % 2 === 0) return end + 1;
    i = end + 1;
  }
}

function isNumberChar(c: number): boolean {
  // digits, minus, plus, dot, e, E
  return (
    (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x65 || c === 0x45
  );
}

function scan(text: string): Scan {
  const bigInts: number[] = [];
  let results: number[] | null = null;
  let depth = 0;
  let resultsDepth = -1; // depth inside the `results` array while walking it
  let lastKey: string | null = null;
  let elementStart = -1;
  let fields: number[] | null = [];
  let keyStart = -1; // the last string at record depth: the key of a value that follows it
  let keyEnd = -1;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = skipString(text, i);
      if (depth === 1) lastKey = text.slice(i + 1, end - 1);
      else if (depth === resultsDepth + 1) {
        keyStart = i + 1;
        keyEnd = end - 1;
      }
      if (depth === resultsDepth && elementStart === -1) results?.push(i, end);
      i = end;
      continue;
    }
    if (c === 0x7b || c === 0x5b) {
      // { or [
      if (depth === resultsDepth && elementStart === -1) elementStart = i;
      depth++;
      if (c === 0x5b && depth === 2 && lastKey === 'results' && results === null) {
        results = [];
        resultsDepth = 2;
      }
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
      if (depth === resultsDepth && elementStart !== -1) {
        results?.push(elementStart, i + 1);
        elementStart = -1;
      } else if (depth === 1 && resultsDepth === 2) {
        resultsDepth = -1;
      }
    } else if (c === 0x3a) {
      // ':' — a key was just read; values at depth 1 are not keys
    } else if (c === 0x2c) {
      if (depth === 1) lastKey = null;
    } else if (isNumberChar(c)) {
      let j = i + 1;
      while (j < n && isNumberChar(text.charCodeAt(j))) j++;
      if (depth === resultsDepth && elementStart === -1) results?.push(i, j);
      if (j - i > SAFE_DIGITS && isPlainInteger(text, i, j)) {
        bigInts.push(i, j);
        if (
          depth === resultsDepth + 1 &&
          elementStart !== -1 &&
          text.charCodeAt(elementStart) === 0x7b
        ) {
          // The element is in progress: its index is the number of elements completed.
          fields?.push(results!.length / 2, keyStart, keyEnd);
        } else fields = null;
      }
      i = j;
      continue;
    } else if (depth === resultsDepth && elementStart === -1 && c > 0x20) {
      // true, false, null as array elements
      let j = i + 1;
      while (j < n && text.charCodeAt(j) >= 0x61 && text.charCodeAt(j) <= 0x7a) j++;
      results?.push(i, j);
      i = j;
      continue;
    }
    i++;
  }
  return { bigInts, results, fields };
}

function isPlainInteger(text: string, start: number, end: number): boolean {
  let digits = 0;
  for (let k = start; k < end; k++) {
    const c = text.charCodeAt(k);
    if (c >= 0x30 && c <= 0x39) digits++;
    else if (!(c === 0x2d && k === start)) return false;
  }
  return digits > SAFE_DIGITS;
}

/**
 * Puts the exact text of each big integer back into the records of a plainly parsed page;
 * false (the caller then quotes) unless each one is found where the scan located it.
 */
function restoreBigInts(value: unknown, text: string, found: Scan): boolean {
  const { bigInts, fields, results } = found;
  if (fields === null || results === null) return false;
  const elements = (value as { results?: unknown }).results;
  if (!Array.isArray(elements) || elements.length !== results.length / 2) return false;
  for (let k = 0, f = 0; k < bigInts.length; k += 2, f += 3) {
    const literal = text.slice(bigInts[k], bigInts[k + 1]);
    const exact = Number(literal);
    if (Number.isSafeInteger(exact)) continue;
    const record = elements[fields[f]!] as Record<string, unknown>;
    const quotedKey = text.slice(fields[f + 1], fields[f + 2]);
    const key = quotedKey.includes('\\') ? (JSON.parse(`"${quotedKey}"`) as string) : quotedKey;
    // A duplicate key or a misplaced value shows here: the plain parse did not read this literal.
    if (record[key] !== exact) return false;
    record[key] = literal;
  }
  return true;
}

function quoteBigInts(text: string, ranges: number[]): string {
  if (ranges.length === 0) return text;
  const parts: string[] = [];
  let last = 0;
  for (let k = 0; k < ranges.length; k += 2) {
    const start = ranges[k]!;
    const end = ranges[k + 1]!;
    const literal = text.slice(start, end);
    parts.push(text.slice(last, start));
    // Keep literals that are exact anyway (e.g. 1000000000000000) as numbers.
    parts.push(Number.isSafeInteger(Number(literal)) ? literal : `"${literal}"`);
    last = end;
  }
  parts.push(text.slice(last));
  return parts.join('');
}

/** Parses JSON text without losing integer precision; see the module comment. */
export function parseJsonLossless(input: string): ParsedJson {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  let found: Scan;
  let value: unknown;
  try {
    found = scan(text);
    value = JSON.parse(text);
    if (found.bigInts.length > 0 && !restoreBigInts(value, text, found)) {
      value = JSON.parse(quoteBigInts(text, found.bigInts));
    }
  } catch (err) {
    if (err instanceof JsonSyntaxError) throw err;
    throw new JsonSyntaxError((err as Error).message);
  }
  const spans = found.results;
  const resultTexts: string[] | null = spans === null ? null : [];
  if (spans !== null && resultTexts !== null) {
    for (let k = 0; k < spans.length; k += 2) resultTexts.push(text.slice(spans[k], spans[k + 1]));
  }
  return { value, resultTexts };
}
