import { describe, expect, it } from 'vitest';

import { forEachLimited } from '../../src/lib/task-group.ts';

const tick = (ms = 1) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe('forEachLimited', () => {
  it('runs every item, never more than the limit at a time, started in order', async () => {
    const started: number[] = [];
    let running = 0;
    let most = 0;
    await forEachLimited([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 3, async (i) => {
      started.push(i);
      running++;
      most = Math.max(most, running);
      await tick(1 + (i % 3));
      running--;
    });
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(most).toBe(3);
  });

  it('starts nothing after a failure, lets the running items finish, then throws it', async () => {
    const finished: number[] = [];
    const started: number[] = [];
    const run = forEachLimited([0, 1, 2, 3, 4, 5], 2, async (i) => {
      started.push(i);
      if (i === 1) throw new Error('item 1 failed');
      await tick(5);
      finished.push(i);
    });
    await expect(run).rejects.toThrow('item 1 failed');
    // 0 was running when 1 failed: it finished; nothing after 1 started.
    expect(started).toEqual([0, 1]);
    expect(finished).toEqual([0]);
  });

  it('does nothing for no items and treats a limit below 1 as 1', async () => {
    await forEachLimited([], 4, () => Promise.reject(new Error('never')));
    const order: number[] = [];
    await forEachLimited([1, 2], 0, async (i) => {
      order.push(i);
      await tick();
    });
    expect(order).toEqual([1, 2]);
  });
});
