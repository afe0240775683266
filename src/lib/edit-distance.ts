/**
 * Edit distance between two texts, as Weblate's `Change.get_distance()` computes it:
 * rapidfuzz's `DamerauLevenshtein.distance`, the unrestricted Damerau–Levenshtein distance
 * (a transposed pair may be edited again, unlike optimal string alignment) over Unicode code
 * points. docs/schema.md#edit-distance says how the figures derived from it read.
 */

/**
 * Cells of the distance table computed at most (about a second's work): beyond it, after the
 * common prefix and suffix are set aside, the distance is not computed (null).
 */
export const MAX_DISTANCE_CELLS = 25_000_000;

/** The Damerau–Levenshtein distance of `a` and `b`, or null past MAX_DISTANCE_CELLS. */
export function editDistance(a: string, b: string): number | null {
  const s1 = codePoints(a);
  const s2 = codePoints(b);
  // A common prefix or suffix changes no distance (rapidfuzz sets it aside too).
  let start = 0;
  while (start < s1.length && start < s2.length && s1[start] === s2[start]) start++;
  let end1 = s1.length;
  let end2 = s2.length;
  while (end1 > start && end2 > start && s1[end1 - 1] === s2[end2 - 1]) {
    end1--;
    end2--;
  }
  const x = s1.subarray(start, end1);
  const y = s2.subarray(start, end2);
  if (x.length === 0 || y.length === 0) return Math.max(x.length, y.length);
  if (x.length * y.length > MAX_DISTANCE_CELLS) return null;
  return zhao(x, y);
}

function codePoints(text: string): Int32Array {
  const points = new Int32Array(text.length);
  let n = 0;
  for (const char of text) points[n++] = char.codePointAt(0)!;
  return points.subarray(0, n);
}

/** Zhao's algorithm, as rapidfuzz implements it (`_damerau_levenshtein_distance_zhao`). */
function zhao(s1: Int32Array, s2: Int32Array): number {
  const maxVal = Math.max(s1.length, s2.length) + 1;
  const size = s2.length + 2;
  const lastRow = new Map<number, number>();
  const fr = new Int32Array(size).fill(maxVal);
  let r1 = new Int32Array(size).fill(maxVal);
  let r = new Int32Array(size);
  for (let j = 0; j < size; j++) r[j] = j;
  r[size - 1] = maxVal;
  for (let i = 1; i <= s1.length; i++) {
    [r, r1] = [r1, r];
    let lastCol = -1;
    let lastI2l1 = r[0]!;
    r[0] = i;
    let t = maxVal;
    const ch1 = s1[i - 1]!;
    for (let j = 1; j <= s2.length; j++) {
      const ch2 = s2[j - 1]!;
      let temp = Math.min(r1[j - 1]! + (ch1 === ch2 ? 0 : 1), r[j - 1]! + 1, r1[j]! + 1);
      if (ch1 === ch2) {
        lastCol = j;
        // r1[-1] in Python is the sentinel at the end of the row.
        fr[j] = j >= 2 ? r1[j - 2]! : r1[size - 1]!;
        t = lastI2l1;
      } else {
        const k = lastRow.get(ch2) ?? -1;
        if (j - lastCol === 1) temp = Math.min(temp, fr[j]! + (i - k));
        else if (i - k === 1) temp = Math.min(temp, t + (j - lastCol));
      }
      lastI2l1 = r[j]!;
      r[j] = temp;
    }
    lastRow.set(ch1, i);
  }
  return r[s2.length]!;
}
