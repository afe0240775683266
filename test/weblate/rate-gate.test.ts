import { describe, expect, it } from 'vitest';

import { RateGate } from '../../src/weblate/rate-gate.ts';

/** A request that answers when its `answer` is called, noting the budget it was told. */
function pending(gate: RateGate) {
  let answer!: (remaining: number) => void;
  let startedAs = 0;
  const done = gate.run(
    (started) =>
      new Promise<void>((resolve) => {
        startedAs = started;
        answer = (remaining) => {
          gate.noteBudget(remaining, 60, started);
          resolve();
        };
      }),
  );
  return {
    done,
    answer: (remaining: number) => answer(remaining),
    startedAs: () => startedAs,
  };
}

const started = () => new Promise((r) => setTimeout(r, 5));

describe('the rate gate', () => {
  it('keeps the budget of the newest request when answers overtake each other', async () => {
    const gate = new RateGate({ concurrency: 4, maxRps: 0 });
    const [first, second, third] = [pending(gate), pending(gate), pending(gate)];
    await started();
    expect([first.startedAs(), second.startedAs(), third.startedAs()]).toEqual([1, 2, 3]);
    // The server counted the third last: its answer says the least is left.
    third.answer(8);
    await third.done;
    expect(gate.budgetRemaining).toBe(8);
    // Answers to earlier requests, arriving late, say more is left: that budget is spent.
    first.answer(10);
    second.answer(9);
    await Promise.all([first.done, second.done]);
    expect(gate.budgetRemaining).toBe(8);
  });

  it('takes off the requests that started after the one answered', async () => {
    const gate = new RateGate({ concurrency: 4, maxRps: 0 });
    const first = pending(gate);
    await started();
    first.answer(20);
    await first.done;
    expect(gate.budgetRemaining).toBe(20);
    const [a, b] = [pending(gate), pending(gate)];
    await started();
    // Each start takes one.
    expect(gate.budgetRemaining).toBe(18);
    // The answer to `a` did not count `b`, which started after it.
    a.answer(15);
    await a.done;
    expect(gate.budgetRemaining).toBe(14);
    b.answer(14);
    await b.done;
    expect(gate.budgetRemaining).toBe(14);
  });
});
