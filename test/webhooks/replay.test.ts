import { describe, expect, it } from 'vitest';

import { createReplayMemory } from '../../src/webhooks/replay.ts';

describe('createReplayMemory', () => {
  it('knows an id until its expiry, then forgets it', () => {
    const memory = createReplayMemory();
    memory.remember('a', 10_000, 0);
    expect(memory.has('a', 9_999)).toBe(true);
    expect(memory.has('b', 9_999)).toBe(false);
    expect(memory.has('a', 10_000)).toBe(false);
    expect(memory.size()).toBe(0);
  });

  it('drops what has expired as new ids come', () => {
    const memory = createReplayMemory();
    for (let i = 0; i < 1000; i++) memory.remember(`id-${i}`, i * 1000 + 600_000, i * 1000);
    // At 999 s, the ids remembered up to 399 s have run out.
    expect(memory.size()).toBe(600);
    expect(memory.has('id-400', 999_000)).toBe(true);
    expect(memory.has('id-399', 999_000)).toBe(false);
  });

  it('holds at most maxIds, dropping the oldest first', () => {
    const memory = createReplayMemory(100);
    for (let i = 0; i < 10_000; i++) memory.remember(`id-${i}`, 600_000, 0);
    expect(memory.size()).toBe(100);
    expect(memory.has('id-9900', 1)).toBe(true);
    expect(memory.has('id-9899', 1)).toBe(false);
  });

  it('renews an id remembered again', () => {
    const memory = createReplayMemory(2);
    memory.remember('a', 600_000, 0);
    memory.remember('b', 600_000, 0);
    memory.remember('a', 700_000, 0);
    memory.remember('c', 600_000, 0);
    expect(memory.has('a', 650_000)).toBe(true);
    expect(memory.has('b', 1)).toBe(false);
  });
});
