/**
 * What every mutation shares: the instance, the clock, id sequences that never hand out an
 * id twice (as a database sequence, even after deletes), timestamps formatted like the
 * generated data, new revisions and the change records themselves.
 */
import { actionName } from './actions.ts';
import { offsetFor } from './clock.ts';
import { appendChanges } from './index-updates.ts';
import type { SimChange, SimInstance, SimTranslation } from './model.ts';
import { calculateHash, hashToChecksum } from './siphash.ts';
import { formatInstant } from './time.ts';

export interface MutationContext {
  instance: SimInstance;
  /** Epoch milliseconds, fractions allowed (microseconds are kept); default real time. */
  now: () => number;
  /** Hears every change recorded, once appended (the simulator's webhooks). */
  onChanges?: (changes: readonly SimChange[]) => void;
}

interface Sequences {
  project: number;
  component: number;
  unit: number;
  change: number;
  translation: number;
  /** Counts new revisions and generated texts, so that both are deterministic. */
  edit: number;
}

const sequences = new WeakMap<SimInstance, Sequences>();

function maxId(items: readonly { id: number }[]): number {
  let max = 0;
  for (const item of items) if (item.id > max) max = item.id;
  return max;
}

function sequencesOf(instance: SimInstance): Sequences {
  let found = sequences.get(instance);
  if (found === undefined) {
    found = {
      project: maxId(instance.projects),
      component: maxId(instance.components),
      unit: maxId(instance.units),
      change: maxId(instance.changes),
      translation: maxId(instance.translations),
      edit: 0,
    };
    sequences.set(instance, found);
  }
  return found;
}

/**
 * Starts the id sequences at the instance's current highest ids (once), so that an id a
 * later deletion removes is never handed out again, even if nothing was added before it.
 */
export function startSequences(instance: SimInstance): void {
  sequencesOf(instance);
}

export function nextId(
  instance: SimInstance,
  kind: 'project' | 'component' | 'unit' | 'change' | 'translation',
): number {
  const state = sequencesOf(instance);
  state[kind] += 1;
  return state[kind];
}

/** A counter per instance for deterministic generated texts. */
export function nextEdit(instance: SimInstance): number {
  const state = sequencesOf(instance);
  state.edit += 1;
  return state.edit;
}

/** Real time with sub-millisecond precision, so timestamps carry real microseconds. */
export function realNow(): number {
  return performance.timeOrigin + performance.now();
}

export interface Stamp {
  text: string;
  us: number;
}

/** The instant `secondsAgo` before now, written with the offset `key` selects (or Z). */
export function stamp(context: MutationContext, key: number, secondsAgo = 0): Stamp {
  const us = Math.floor((context.now() - secondsAgo * 1000) * 1000);
  return { text: formatInstant(us, offsetFor(key)), us };
}

function revisionHex(seed: string): string {
  const parts = [0, 1, 2].map((i) => hashToChecksum(calculateHash(seed, String(i))));
  return parts.join('').slice(0, 40);
}

/**
 * Gives a translation a new revision after its units changed. Monolingual targets keep
 * "file,template": the template part changes only when the source strings did.
 */
export function bumpRevision(
  instance: SimInstance,
  translation: SimTranslation,
  hasTemplateChanged = false,
): void {
  const seed = `${translation.id}/${nextEdit(instance)}/${translation.revision}`;
  const [, template] = translation.revision.split(',');
  const next = revisionHex(`${seed}/file`);
  if (template === undefined) translation.revision = next;
  else translation.revision = `${next},${hasTemplateChanged ? revisionHex(`${seed}/t`) : template}`;
}

export type ChangeDraft = Pick<SimChange, 'action' | 'projectId'> &
  Partial<Omit<SimChange, 'id' | 'timestamp' | 'timestampUs' | 'actionName'>>;

/** Records changes with new ids, stamped now (or `secondsAgo` earlier), in the index too. */
export function recordChanges(
  context: MutationContext,
  drafts: readonly ChangeDraft[],
  secondsAgo = 0,
): SimChange[] {
  const changes = drafts.map((draft): SimChange => {
    const id = nextId(context.instance, 'change');
    const { text, us } = stamp(context, id, secondsAgo);
    return {
      id,
      actionName: actionName(draft.action),
      componentId: null,
      translationId: null,
      unitId: null,
      user: null,
      author: null,
      target: '',
      old: '',
      details: {},
      ...draft,
      timestamp: text,
      timestampUs: us,
    };
  });
  appendChanges(context.instance, changes);
  context.onChanges?.(changes);
  return changes;
}

/** The acting user: the given one (which must exist), else the first real user. */
export function actingUser(instance: SimInstance, user: string | null | undefined): string | null {
  if (user === undefined) {
    return instance.users.find((u) => u.username !== 'anonymous')?.username ?? null;
  }
  if (user !== null && !instance.index.userByUsername.has(user)) {
    throw new Error(`unknown user "${user}"`);
  }
  return user;
}

/** The scope fields of a change about a translation. */
export function translationScope(
  instance: SimInstance,
  translation: SimTranslation,
): Pick<SimChange, 'projectId' | 'componentId' | 'translationId'> {
  const component = instance.index.componentById.get(translation.componentId);
  return {
    projectId: component?.projectId ?? 0,
    componentId: translation.componentId,
    translationId: translation.id,
  };
}
