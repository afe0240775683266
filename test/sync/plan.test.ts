import { describe, expect, it } from 'vitest';

import { type DiscoveryCursor, transition } from '../../src/db/queries/sync-state.ts';
import {
  discoveryDue,
  planRun,
  type PlanStep,
  readingPlan,
  type RunPlan,
  type RunRequest,
  type RunState,
  statisticsPlan,
} from '../../src/sync/plan.ts';
import { UnitStrategyMemo } from '../../src/sync/streams/unit-strategy.ts';

const NOW = new Date('2026-11-28T12:00:00.000Z');
const HOUR = 3600;
const strategy = new UnitStrategyMemo(3_600_000);

/** A discovery mark `secondsAgo` before NOW, for `projects` (null: every project). */
function mark(secondsAgo: number, projects: string[] | null = null): DiscoveryCursor {
  return { at: new Date(NOW.getTime() - secondsAgo * 1000).toISOString(), projects };
}

function request(overrides: Partial<RunRequest> = {}): RunRequest {
  return {
    full: false,
    discoveryIntervalSeconds: HOUR,
    webhook: null,
    scope: { projects: null, users: [] },
    now: NOW,
    ...overrides,
  };
}

const succeeded = (discovery: DiscoveryCursor | null): RunState => ({
  hasSucceeded: true,
  discovery,
});

describe('planRun: run kinds', () => {
  const settle = (...steps: Array<'newChanges' | 'recheckTranslations'>) => ({
    apply: steps.map((step) => transition.settleAll(step)),
  });
  const discoveryMark = (projects: string[] | null = null) => ({
    apply: [transition.cursor('discovery', '', { at: NOW.toISOString(), projects })],
  });
  const fullSteps: PlanStep[] = [
    settle('newChanges', 'recheckTranslations'),
    { read: 'changesBesideUnits' },
    { read: 'statistics', deferSnapshots: false },
    { read: 'users' },
    { read: 'subscriptions' },
    discoveryMark(),
  ];
  const cases: Array<{
    name: string;
    state: RunState;
    request: RunRequest;
    plan: Omit<RunPlan, 'reading'>;
  }> = [
    {
      name: 'the first sync reads everything and estimates the history after',
      state: { hasSucceeded: false, discovery: null },
      request: request(),
      plan: { kind: 'full', mode: 'full', discovery: 'lists', steps: fullSteps, backfill: true },
    },
    {
      name: 'sync --full lists everything even when discovery is fresh, with no backfill',
      state: succeeded(mark(10)),
      request: request({ full: true }),
      plan: { kind: 'full', mode: 'full', discovery: 'lists', steps: fullSteps, backfill: false },
    },
    {
      name: 'an incremental sync within the interval discovers from the changes',
      state: succeeded(mark(HOUR - 1)),
      request: request(),
      plan: {
        kind: 'incremental',
        mode: 'incremental',
        discovery: 'mirrored',
        steps: [
          { read: 'changes', projects: null },
          { read: 'discoveryFromChanges', listed: false, webhooks: false },
          { read: 'units', knownStrategy: null },
          { read: 'statistics', deferSnapshots: false },
          { read: 'users' },
        ],
        backfill: false,
      },
    },
    {
      name: 'an incremental sync past the interval reads the lists and settles rechecks',
      state: succeeded(mark(HOUR)),
      request: request({ scope: { projects: ['b', 'a'], users: ['ann'] } }),
      plan: {
        kind: 'incremental',
        mode: 'incremental',
        discovery: 'lists',
        steps: [
          settle('recheckTranslations'),
          { read: 'changes', projects: null },
          { read: 'discoveryFromChanges', listed: true, webhooks: false },
          { read: 'units', knownStrategy: null },
          { read: 'statistics', deferSnapshots: false },
          { read: 'users' },
          { read: 'subscriptions' },
          discoveryMark(['a', 'b']),
        ],
        backfill: false,
      },
    },
    {
      name: 'a webhook sync never lists in step with the interval',
      state: succeeded(mark(30 * 86_400)),
      request: request({ webhook: { projects: new Set(['a']), unitStrategy: strategy } }),
      plan: {
        kind: 'webhook',
        mode: 'incremental',
        discovery: 'mirrored',
        steps: [
          { read: 'changes', projects: new Set(['a']) },
          { read: 'discoveryFromChanges', listed: false, webhooks: true },
          { read: 'units', knownStrategy: strategy },
          { read: 'statistics', deferSnapshots: true },
          { read: 'users' },
        ],
        backfill: false,
      },
    },
    {
      name: 'a webhook sync lists when the mirror has no discovery for its scope',
      state: succeeded(mark(10, ['a'])),
      request: request({ webhook: { projects: null, unitStrategy: strategy } }),
      plan: {
        kind: 'webhook',
        mode: 'incremental',
        discovery: 'lists',
        steps: [
          settle('recheckTranslations'),
          { read: 'changes', projects: null },
          { read: 'discoveryFromChanges', listed: true, webhooks: true },
          { read: 'units', knownStrategy: strategy },
          { read: 'statistics', deferSnapshots: true },
          { read: 'users' },
          { read: 'subscriptions' },
          discoveryMark(),
        ],
        backfill: false,
      },
    },
  ];
  for (const { name, state, request: asked, plan } of cases) {
    it(name, () => {
      expect(planRun(state, asked)).toEqual({ ...plan, reading: readingPlan(plan.mode) });
    });
  }

  it('refuses a webhook sync before any sync succeeded', () => {
    const webhook = { projects: null, unitStrategy: strategy };
    expect(() => planRun({ hasSucceeded: false, discovery: null }, request({ webhook }))).toThrow(
      /follows a sync that succeeded/,
    );
  });

  it('snapshots statistics of what the mirror holds, and nothing else, in the statistics job', () => {
    expect(statisticsPlan()).toEqual({
      kind: 'statistics',
      mode: 'incremental',
      reading: readingPlan('incremental'),
      discovery: null,
      steps: [{ read: 'statisticsSnapshot' }],
      backfill: false,
    });
  });

  it('marks discovery, and reads subscriptions, exactly when it read the lists', () => {
    for (const { state, request: asked } of cases) {
      const { discovery, steps } = planRun(state, asked);
      const marks = steps.filter((s) => 'apply' in s && s.apply.some((t) => t.op === 'cursor'));
      const subscriptions = steps.filter((s) => 'read' in s && s.read === 'subscriptions');
      const listed = discovery === 'lists' ? 1 : 0;
      expect([marks.length, subscriptions.length]).toEqual([listed, listed]);
    }
  });
});

describe('discoveryDue', () => {
  const all = { projects: null, users: [] };
  const cases: Array<[string, DiscoveryCursor | null, RunRequest['scope'], number, boolean]> = [
    ['never discovered', null, all, HOUR, true],
    ['an interval of 0 lists every sync', mark(0), all, 0, true],
    ['just under the interval', mark(HOUR - 1), all, HOUR, false],
    ['exactly the interval', mark(HOUR), all, HOUR, true],
    ['the clock went back', mark(-60), all, HOUR, true],
    [
      'the scope is the same, in another order',
      mark(5, ['a', 'b']),
      { projects: ['b', 'a'], users: [] },
      HOUR,
      false,
    ],
    [
      'a project was added to the scope',
      mark(5, ['a']),
      { projects: ['a', 'b'], users: [] },
      HOUR,
      true,
    ],
    ['the scope went from some projects to all', mark(5, ['a']), all, HOUR, true],
    ['the scope went from all to some', mark(5), { projects: ['a'], users: [] }, HOUR, true],
    ['an infinite interval lists only for a new scope', mark(365 * 86_400), all, Infinity, false],
  ];
  for (const [name, last, scope, interval, due] of cases) {
    it(name, () => {
      expect(discoveryDue(last, scope, NOW, interval)).toBe(due);
    });
  }
});

describe('readingPlan: what a full run does differently', () => {
  it('reads everything again in a full run: the whole history, one window at a time', () => {
    expect(readingPlan('full')).toEqual({
      fromScratch: true,
      changeWindowsSideBySide: false,
      followNewChanges: false,
      recheckEveryTranslation: true,
    });
  });

  it('resumes and follows what is new in an incremental run, windows side by side', () => {
    expect(readingPlan('incremental')).toEqual({
      fromScratch: false,
      changeWindowsSideBySide: true,
      followNewChanges: true,
      recheckEveryTranslation: false,
    });
  });
});
