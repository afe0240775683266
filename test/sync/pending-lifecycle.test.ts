import { describe, expect, it } from 'vitest';

import {
  changesStored,
  discoveryDone,
  languagesDue,
  languagesRead,
  snapshotsDeferred,
  snapshotsDue,
  snapshotsTaken,
  translationsDeleted,
  translationsStored,
  unitsRead,
} from '../../src/db/queries/pending-lifecycle.ts';
import {
  applyTransitions,
  pending,
  type PendingName,
  type Transition,
} from '../../src/db/queries/sync-state.ts';
import { useTestDatabases } from '../helpers/database.ts';

// The pending lifecycle of docs/architecture.md (Sync state) as tables: each stage's
// transitions folded over the pending sets, then whole runs in sequence. The last test holds
// the database's interpreter to the same fold.

type Pending = Partial<Record<PendingName, string[]>>;

const NAMES = Object.keys(pending) as PendingName[];

const byNumber = (a: string, b: string) => Number(BigInt(a) - BigInt(b));

/** The pending sets after `transitions`, as applyTransitions leaves them (cursors aside). */
function fold(start: Pending, transitions: readonly Transition[]): Pending {
  const sets = new Map(NAMES.map((n) => [n, new Set(start[n] ?? [])]));
  for (const t of transitions) {
    if (t.op === 'cursor') continue;
    const set = sets.get(t.step)!;
    if (t.op === 'settleAll') set.clear();
    else for (const id of t.ids) set[t.op === 'note' ? 'add' : 'delete'](String(id));
  }
  const out: Pending = {};
  for (const [name, set] of sets) {
    if (set.size > 0) out[name] = [...set].sort(byNumber);
  }
  return out;
}

describe('each stage, folded over what is pending', () => {
  it.each<{ stage: string; before: Pending; transitions: Transition[]; after: Pending }>([
    {
      stage: 'a change page: changes new to the mirror name their units and await discovery',
      before: {},
      transitions: changesStored(
        [
          { id: '10', unitId: 7n },
          { id: '11', unitId: null },
          { id: '12', unitId: 8 },
        ],
        new Set(['10', '11']),
      ),
      after: { namedUnits: ['7'], newChanges: ['10', '11'] },
    },
    {
      stage: 'a change page read again within the lookback: nothing owed twice',
      before: { namedUnits: ['7'] },
      transitions: changesStored([{ id: '10', unitId: 7 }], new Set()),
      after: { namedUnits: ['7'] },
    },
    {
      stage: 'a unit id past 2^53 stays exact',
      before: {},
      transitions: changesStored([{ id: '1', unitId: 9007199254740993n }], new Set(['1'])),
      after: { namedUnits: ['9007199254740993'], newChanges: ['1'] },
    },
    {
      stage: 'a translation page: only the translations whose record moved',
      before: {},
      transitions: translationsStored([1, 2, 3], [2], { everyOne: false }),
      after: { movedTranslations: ['2'] },
    },
    {
      stage: 'a translation page of a full sync: every translation listed',
      before: {},
      transitions: translationsStored([1, 2, 3], [2], { everyOne: true }),
      after: { movedTranslations: ['1', '2', '3'] },
    },
    {
      stage: 'discovery in a scheduled run settles its changes and the rechecks it read',
      before: { newChanges: ['10', '11'], recheckTranslations: ['3', '4'] },
      transitions: discoveryDone(['10', '11'], {
        recheckRead: ['3'],
        reread: [5],
        webhooks: false,
      }),
      after: { recheckTranslations: ['4'] },
    },
    {
      stage: 'discovery in a webhook run notes what it read right after a change, settles none',
      before: { newChanges: ['10'], recheckTranslations: ['3'] },
      transitions: discoveryDone(['10'], { recheckRead: [], reread: [5], webhooks: true }),
      after: { recheckTranslations: ['3', '5'] },
    },
    {
      stage: 'units read by id or by a partial walk settle those ids only',
      before: { namedUnits: ['7', '8', '9'] },
      transitions: unitsRead(['7', '9', '40'], { coversAll: false }),
      after: { namedUnits: ['8'] },
    },
    {
      stage: 'a complete walk of every project settles every named unit, read or not',
      before: { namedUnits: ['7', '8', '9'] },
      transitions: unitsRead(['7'], { coversAll: true }),
      after: {},
    },
    {
      stage: 'a run that reads no statistics owes them to the next',
      before: { movedTranslations: ['2', '3'], owedSnapshots: ['3', '4'] },
      transitions: snapshotsDeferred([2, 3]),
      after: { owedSnapshots: ['2', '3', '4'] },
    },
    {
      stage: 'a snapshot settles its translation as moved and as owed',
      before: { movedTranslations: ['2', '3'], owedSnapshots: ['3', '4'] },
      transitions: snapshotsTaken([3]),
      after: { movedTranslations: ['2'], owedSnapshots: ['4'] },
    },
    {
      stage: 'snapshots about to be taken owe their languages first',
      before: { owedSnapshots: ['3'] },
      transitions: [...languagesDue([9]), ...snapshotsTaken([3])],
      after: { staleLanguages: ['9'] },
    },
    {
      stage: 'languages read: those pending settle, those lagging stay, one both stays',
      before: { staleLanguages: ['1', '2'] },
      transitions: languagesRead([1, 2], [2, 6]),
      after: { staleLanguages: ['2', '6'] },
    },
    {
      stage: 'translations deleted leave their languages stale',
      before: { staleLanguages: ['1'] },
      transitions: translationsDeleted([1, 4]),
      after: { staleLanguages: ['1', '4'] },
    },
  ])('$stage', ({ before, transitions, after }) => {
    expect(fold(before, transitions)).toEqual(after);
  });
});

describe('statistics due', () => {
  it.each([
    { moved: [1, 2], owed: [2, 3], known: [1, 2, 3], read: [1, 2, 3], gone: [] },
    { moved: [1, 2], owed: [3], known: [2], read: [2], gone: [1, 3] },
    { moved: [], owed: [], known: [1], read: [], gone: [] },
  ])(
    'moved $moved and owed $owed, known $known: read $read',
    ({ moved, owed, known, read, gone }) => {
      const due = snapshotsDue(moved, owed, (id) => (known.includes(id) ? id : undefined));
      expect(due).toEqual({ read, gone });
    },
  );
});

/** Sync state after each stage of a run, in order. */
type Run = Array<{ stage: string; transitions: Transition[]; after: Pending }>;

const webhookRun: Run = [
  {
    stage: 'changes: a new change names unit 7 of translation 3',
    transitions: changesStored([{ id: '20', unitId: 7 }], new Set(['20'])),
    after: { namedUnits: ['7'], newChanges: ['20'] },
  },
  {
    stage: 'discovery reads translation 3 right after the change',
    transitions: [
      ...translationsStored([3], [3], { everyOne: false }),
      ...discoveryDone(['20'], { recheckRead: [], reread: [3], webhooks: true }),
    ],
    after: { namedUnits: ['7'], movedTranslations: ['3'], recheckTranslations: ['3'] },
  },
  {
    stage: 'units: unit 7 read by id',
    transitions: unitsRead(['7'], { coversAll: false }),
    after: { movedTranslations: ['3'], recheckTranslations: ['3'] },
  },
  {
    stage: 'statistics deferred',
    transitions: snapshotsDeferred([3]),
    after: { owedSnapshots: ['3'], recheckTranslations: ['3'] },
  },
];

const scheduledRunAfter: Run = [
  {
    stage: 'no change is new; discovery reads the recheck again',
    transitions: [
      ...changesStored([{ id: '20', unitId: 7 }], new Set()),
      ...translationsStored([3], [], { everyOne: false }),
      ...discoveryDone([], { recheckRead: ['3'], reread: [], webhooks: false }),
    ],
    after: { owedSnapshots: ['3'] },
  },
  {
    stage: 'statistics: the owed snapshot is read, its language read and found lagging',
    transitions: [...languagesDue([9]), ...snapshotsTaken([3]), ...languagesRead([9], [9])],
    after: { staleLanguages: ['9'] },
  },
  {
    stage: 'the next run reads the language again, caught up',
    transitions: languagesRead([9], []),
    after: {},
  },
];

describe('runs in sequence', () => {
  it.each([
    { name: 'a webhook run', runs: webhookRun },
    { name: 'a webhook run, then a scheduled one', runs: [...webhookRun, ...scheduledRunAfter] },
  ])('$name leaves owed only what a later run settles', ({ runs }) => {
    let state: Pending = {};
    for (const { stage, transitions, after } of runs) {
      state = fold(state, transitions);
      expect({ stage, pending: state }).toEqual({ stage, pending: after });
    }
  });
});

describe('applyTransitions', () => {
  const databases = useTestDatabases();

  it('leaves the database as the fold says, in chunks past 5,000 ids', async () => {
    const { db } = await databases.migrated();
    const many = Array.from({ length: 12_000 }, (_, i) => 1_000_000 + i * 7);
    const sequence: Transition[][] = [
      changesStored(
        many.map((id) => ({ id: String(id), unitId: BigInt(id) * 1000n })),
        new Set(many.map(String)),
      ),
      translationsStored(many, many.slice(0, 6_000), { everyOne: false }),
      unitsRead(
        many.slice(3_000, 9_000).map((id) => String(BigInt(id) * 1000n)),
        {
          coversAll: false,
        },
      ),
      snapshotsDeferred(many.slice(0, 5_500)),
      discoveryDone(many.slice(0, 11_000).map(String), {
        recheckRead: [],
        reread: [4, 5],
        webhooks: true,
      }),
      translationsDeleted([1, 2]),
      languagesDue([5]),
      languagesRead([1], [2, 3]),
      snapshotsTaken(many.slice(100, 200)),
      unitsRead([], { coversAll: true }),
    ];
    let model: Pending = {};
    for (const transitions of sequence) {
      await db.transaction().execute((trx) => applyTransitions(trx, transitions));
      model = fold(model, transitions);
      const stored: Pending = {};
      for (const name of NAMES) {
        const ids = await pending[name].list(db);
        if (ids.length > 0) stored[name] = ids.map(String).sort(byNumber);
      }
      expect(stored).toEqual(model);
    }
    expect(Object.keys(model).sort()).toEqual([
      'movedTranslations',
      'newChanges',
      'owedSnapshots',
      'recheckTranslations',
      'staleLanguages',
    ]);
  });
});
