/**
 * SipHash-2-4 exactly as Weblate's `weblate/utils/hash.py` uses it (through the `siphashc`
 * C module): key "Weblate Sip Hash", input the UTF-8 bytes of the plain concatenation.
 * The 64-bit lanes are kept as 32-bit halves because BigInt arithmetic per round is about
 * 50× slower, and the simulator hashes every source string of a 200k-unit instance.
 */

const KEY = Buffer.from('Weblate Sip Hash', 'ascii');
const TWO_63 = 2n ** 63n;

// v0..v3 as [lo, hi] pairs: indexes 0/1 = v0, 2/3 = v1, 4/5 = v2, 6/7 = v3.
const state = new Uint32Array(8);

function readLe32(bytes: Uint8Array, at: number): number {
  return (
    ((bytes[at] ?? 0) |
      ((bytes[at + 1] ?? 0) << 8) |
      ((bytes[at + 2] ?? 0) << 16) |
      ((bytes[at + 3] ?? 0) << 24)) >>>
    0
  );
}

const K0_LO = readLe32(KEY, 0);
const K0_HI = readLe32(KEY, 4);
const K1_LO = readLe32(KEY, 8);
const K1_HI = readLe32(KEY, 12);

/** a += b on the lanes at indexes a and b. */
function add(a: number, b: number): void {
  const lo = (state[a] ?? 0) + (state[b] ?? 0);
  state[a + 1] = (state[a + 1] ?? 0) + (state[b + 1] ?? 0) + (lo > 0xffffffff ? 1 : 0);
  state[a] = lo;
}

/** a = rotl(a, n) for 0 < n < 32. */
function rotl(a: number, n: number): void {
  const lo = state[a] ?? 0;
  const hi = state[a + 1] ?? 0;
  state[a + 1] = (hi << n) | (lo >>> (32 - n));
  state[a] = (lo << n) | (hi >>> (32 - n));
}

function rotl32(a: number): void {
  const lo = state[a] ?? 0;
  state[a] = state[a + 1] ?? 0;
  state[a + 1] = lo;
}

function xor(a: number, b: number): void {
  state[a] = (state[a] ?? 0) ^ (state[b] ?? 0);
  state[a + 1] = (state[a + 1] ?? 0) ^ (state[b + 1] ?? 0);
}

function sipRound(): void {
  add(0, 2);
  rotl(2, 13);
  xor(2, 0);
  rotl32(0);
  add(4, 6);
  rotl(6, 16);
  xor(6, 4);
  add(0, 6);
  rotl(6, 21);
  xor(6, 0);
  add(4, 2);
  rotl(2, 17);
  xor(2, 4);
  rotl32(4);
}

function compress(lo: number, hi: number): void {
  state[6] = (state[6] ?? 0) ^ lo;
  state[7] = (state[7] ?? 0) ^ hi;
  sipRound();
  sipRound();
  state[0] = (state[0] ?? 0) ^ lo;
  state[1] = (state[1] ?? 0) ^ hi;
}

/** Unsigned SipHash-2-4 of `bytes` under Weblate's key. */
export function siphash(bytes: Uint8Array): bigint {
  state[0] = K0_LO ^ 0x70736575;
  state[1] = K0_HI ^ 0x736f6d65;
  state[2] = K1_LO ^ 0x6e646f6d;
  state[3] = K1_HI ^ 0x646f7261;
  state[4] = K0_LO ^ 0x6e657261;
  state[5] = K0_HI ^ 0x6c796765;
  state[6] = K1_LO ^ 0x79746573;
  state[7] = K1_HI ^ 0x74656462;
  const length = bytes.length;
  const whole = length - (length % 8);
  for (let at = 0; at < whole; at += 8) {
    compress(readLe32(bytes, at), readLe32(bytes, at + 4));
  }
  // Final block: the remaining bytes little-endian, the length's low byte on top.
  const tail = new Uint8Array(8);
  tail.set(bytes.subarray(whole));
  tail[7] = length & 0xff;
  compress(readLe32(tail, 0), readLe32(tail, 4));
  state[4] = (state[4] ?? 0) ^ 0xff;
  for (let round = 0; round < 4; round += 1) sipRound();
  const lo = ((state[0] ?? 0) ^ (state[2] ?? 0) ^ (state[4] ?? 0) ^ (state[6] ?? 0)) >>> 0;
  const hi = ((state[1] ?? 0) ^ (state[3] ?? 0) ^ (state[5] ?? 0) ^ (state[7] ?? 0)) >>> 0;
  return (BigInt(hi) << 32n) | BigInt(lo);
}

/** Weblate's `calculate_hash(*parts)`: siphash of the concatenation, shifted into int64. */
export function calculateHash(...parts: string[]): bigint {
  return siphash(Buffer.from(parts.join(''), 'utf8')) - TWO_63;
}

/** Weblate's `hash_to_checksum`: 16 lowercase hex digits of the unsigned value. */
export function hashToChecksum(idHash: bigint): string {
  return (idHash + TWO_63).toString(16).padStart(16, '0');
}

/** Inverse of `hashToChecksum`, as Weblate's `checksum_to_hash`. */
export function checksumToHash(checksum: string): bigint {
  return BigInt(`0x${checksum}`) - TWO_63;
}
