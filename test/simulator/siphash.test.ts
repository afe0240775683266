import { describe, expect, it } from 'vitest';

import { calculateHash, checksumToHash, hashToChecksum } from '../../src/simulator/siphash.ts';

// Vectors from weblate/utils/tests/test_hash.py.
const VECTORS: readonly (readonly [string[], bigint, string])[] = [
  [['Message'], 8445691827737211251n, 'f5351ff85ab23173'],
  [['Context', 'Message'], -1602104568316855346n, '69c42e6228717bce'],
  [['Příšerně žluťoučký kůň úpěl ďábelské ódy'], -4296353750398394478n, '44604906ee161f92'],
];

describe('siphash', () => {
  it.each(VECTORS)('hashes %j like Weblate', (parts, hash, checksum) => {
    expect(calculateHash(...parts)).toBe(hash);
    expect(hashToChecksum(hash)).toBe(checksum);
    expect(checksumToHash(checksum)).toBe(hash);
  });

  it('hashes the plain concatenation of the parts', () => {
    expect(calculateHash('Cont', 'extMessage')).toBe(calculateHash('ContextMessage'));
  });

  it('covers inputs of every length modulo 8 and the empty string', () => {
    const seen = new Set<bigint>();
    for (let length = 0; length < 17; length += 1) seen.add(calculateHash('x'.repeat(length)));
    expect(seen.size).toBe(17);
    for (const hash of seen) {
      expect(hash).toBeGreaterThanOrEqual(-(2n ** 63n));
      expect(hash).toBeLessThan(2n ** 63n);
      expect(hashToChecksum(hash)).toMatch(/^[0-9a-f]{16}$/);
    }
  });
});
