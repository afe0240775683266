import { describe, expect, it } from 'vitest';

import { RateGate } from '../../src/weblate/rate-gate.ts';

/** A request that answers when told to, noting the budget its answer advertised. */
function pending(gate: RateGate) {
  let answer!: (remaining: number, resetSeconds?: number) => void;
  const done = gate.run(
    (ticket) =>
      new Promise<void>((resolve) => {
        answer = (remaining, resetSeconds = 60) => {
          gate.noteBudget(remaining, resetSeconds, ticket);
          resolve();
        };
      }),
  );
  return { done, answer: (remaining: number, reset?: number) => answer(remaining, reset) };
}

/** Lets the gate start what it may. */
const settle = () => new Promise((r) => setTimeout(r, 5));

describe('the rate gate', () => {
  it('takes the other requests in flight off an answer, and lets a late answer only lower the budget', async () => {
    const gate = new RateGate({ concurrency: 4, maxRps: 0 });
    const [first, second, third] = [pending(gate), pending(gate), pending(gate)];
    await settle();
    // The server counted the third last: 8 left after it; two others still in flight.
    third.answer(8);
    await third.done;
    expect(gate.budgetRemaining).toBe(6);
    second.answer(9);
    await second.done;
    expect(gate.budgetRemaining).toBe(6);
    // Even alone in flight by now, the first was counted among the others: its answer is stale.
    first.answer(10);
    await first.done;
    expect(gate.budgetRemaining).toBe(6);
  });

  it('takes the answer to a request that was alone all its life as it comes, higher or lower', async () => {
    const gate = new RateGate({ concurrency: 4, maxRps: 0 });
    const first = pending(gate);
    await settle();
    first.answer(3);
    await first.done;
    expect(gate.budgetRemaining).toBe(3);
    // Older requests left the server's window meanwhile: more is free.
    const alone = pending(gate);
    await settle();
    expect(gate.budgetRemaining).toBe(2);
    alone.answer(12);
    await alone.done;
    expect(gate.budgetRemaining).toBe(12);
    const lower = pending(gate);
    await settle();
    lower.answer(1);
    await lower.done;
    expect(gate.budgetRemaining).toBe(1);
  });

  it('waits for the later of two resets when a late answer spends the budget', async () => {
    let now = 1_000_000;
    const gate = new RateGate({ concurrency: 4, maxRps: 0, now: () => now });
    const [a, b] = [pending(gate), pending(gate)];
    await settle();
    a.answer(1, 30);
    await a.done;
    expect(gate.budgetRemaining).toBe(0);
    b.answer(0, 10);
    await b.done;
    expect(gate.budgetRemaining).toBe(0);
    // 11 s later the sooner reset has passed, the later not: still nothing to spend.
    now += 11_000;
    expect(gate.budgetRemaining).toBe(0);
    now += 20_000;
    expect(gate.budgetRemaining).toBeNull();
  });
});
