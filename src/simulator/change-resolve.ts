/**
 * Resolves the planned unit changes into Weblate's records, newest first: a unit ends in
 * the state the generator gave it, so walking back from that state, each change that moves
 * it picks the state it came from (which the change before it then ends in). That makes
 * every `details.old_state` equal the state just before and the action follow Weblate's
 * rule (history.ts), and it yields the true moves of every unit, removed ones included.
 */
import { actionName } from './actions.ts';
import type { ChangePlan, ChangeState, PlanKind } from './change-state.ts';
import { pickUser } from './change-state.ts';
import { PLURAL_SEPARATOR } from './generate-units.ts';
import { NO_STRING, stateAction, stateDetails } from './history.ts';
import type { SimChange, SimStateMove, SimUnit } from './model.ts';
import type { Rng } from './prng.ts';
import { COMMENT_TEXTS, pickTarget } from './text-bank.ts';

/** Not yet touched: the unit's state is its final one. */
const UNSET = -2;
/** Created by the change just resolved: nothing may come before. */
const UNBORN = -3;

type Weights = readonly (readonly [number, number])[];

interface Resolver {
  state: ChangeState;
  /** Per unit id, its state just after the change being resolved. */
  states: Int16Array;
  /** Newest first while resolving. */
  moves: SimStateMove[];
}

/** The states an edit into a state came from, with relative weights. */
function editSources(after: number, hasReview: boolean): Weights {
  if (after === 10)
    return [
      [20, 5],
      [0, 3],
      [10, 1],
    ];
  if (after === 11 || after === 12)
    return [
      [20, 3],
      [0, 1],
      [10, 2],
    ];
  if (after === 30)
    return [
      [20, 7],
      [0, 2],
      [30, 1],
      [10, 1],
    ];
  return [
    [0, 9],
    [10, 5],
    [20, 5],
    [30, hasReview ? 1 : 0],
  ];
}

const isEditable = (after: number): boolean => after >= 10 && after <= 30;
const isTranslated = (after: number): boolean => after === 20 || after === 30;

/**
 * The action and earlier state of a state-saving change into `after`, or null when that
 * kind cannot end there (nothing to accept into an empty string): it becomes a suggestion
 * or a comment instead.
 */
function resolveMove(
  rng: Rng,
  kind: PlanKind,
  after: number,
  hasReview: boolean,
): { action: number; before: number } | null {
  const from = (weights: Weights): number => rng.weighted(weights);
  if (kind === 'repository') {
    if (after < 10 || after >= 100) return { action: 59, before: 20 };
    if (after < 20) return { action: 59, before: 20 };
    const before = from([
      [after, 5],
      [0, 2],
      [10, 2],
    ]);
    return { action: 59, before };
  }
  if (!isEditable(after)) return null;
  if (kind === 'edit') {
    const before = from(editSources(after, hasReview));
    return { action: stateAction(before, after), before };
  }
  if (kind === 'bulk' && after !== 11 && after !== 12) {
    const others = [10, 20, 30].filter((s) => s !== after && (hasReview || s !== 30));
    return { action: 32, before: rng.pick(others) };
  }
  if (!isTranslated(after)) return null;
  if (kind === 'accept')
    return {
      action: 7,
      before: from([
        [0, 6],
        [10, 2],
        [20, 2],
      ]),
    };
  return null;
}

function contentAuthor(state: ChangeState, action: number, user: string | null): string | null {
  const { rng } = state;
  if (action === 7) return rng.chance(0.3) ? 'anonymous' : pickUser(state);
  if (action === 4 && rng.chance(0.35)) return 'anonymous';
  if (user === null) return rng.chance(0.5) ? 'anonymous' : null;
  return rng.chance(0.03) ? null : user;
}

function setAction(change: SimChange, action: number): void {
  change.action = action;
  change.actionName = actionName(action);
}

function record(resolver: Resolver, change: SimChange, unit: SimUnit, from: number): void {
  const to = (change.details as { state: number }).state;
  resolver.moves.push({
    us: change.timestampUs,
    unitId: unit.id,
    translationId: unit.translationId,
    words: unit.numWords,
    from,
    to,
    changeId: change.id,
  });
  resolver.states[unit.id] = from === NO_STRING ? UNBORN : from;
}

/** The unit's text in state `state`: its final text if nothing follows, else a made-up one. */
function textIn(resolver: Resolver, unit: SimUnit, state: number): string {
  if (state === 0) return '';
  if (state === 100 || resolver.states[unit.id] === UNSET)
    return unit.target.join(PLURAL_SEPARATOR);
  const script = resolver.state.world.scriptByTranslation.get(unit.translationId) ?? 'latin';
  return pickTarget(resolver.state.rng, script);
}

function resolveCreation(resolver: Resolver, change: SimChange, plan: ChangePlan): void {
  const { unit } = plan;
  const after = currentState(resolver, unit);
  let action = plan.kind === 'added' ? 31 : 71;
  // A bilingual source string comes from the translation files: NEW_SOURCE, old == new.
  const isBilingual = resolver.state.world.bilingualComponents.has(change.componentId ?? 0);
  if (action === 71 && after === 100 && isBilingual) action = 13;
  setAction(change, action);
  change.details = stateDetails(unit, action === 71 ? NO_STRING : after, after);
  change.target = textIn(resolver, unit, after);
  if (action === 31) change.old = change.target;
  if (change.user !== null) change.author = change.user;
  unit.timestamp = change.timestamp;
  unit.lastUpdated = change.timestamp;
  unit.lastUpdatedUs = change.timestampUs;
  record(resolver, change, unit, NO_STRING);
}

function resolveRemoval(resolver: Resolver, change: SimChange, plan: ChangePlan): void {
  const { unit } = plan;
  const before = currentState(resolver, unit);
  const target = textIn(resolver, unit, before);
  change.target = target;
  change.details = { source: unit.source.join(PLURAL_SEPARATOR), target, context: unit.context };
  resolver.moves.push({
    us: change.timestampUs,
    unitId: unit.id,
    translationId: unit.translationId,
    words: unit.numWords,
    from: before,
    to: NO_STRING,
    changeId: change.id,
  });
  resolver.states[unit.id] = before;
}

function resolveRemark(resolver: Resolver, change: SimChange, plan: ChangePlan): void {
  const { rng } = resolver.state;
  const { unit } = plan;
  const script = resolver.state.world.scriptByTranslation.get(unit.translationId) ?? 'latin';
  if (plan.kind === 'explanation') {
    const now = currentState(resolver, unit);
    setAction(change, 66);
    change.target = `Explanation: ${rng.pick(COMMENT_TEXTS)}`;
    // Weblate logs the explanation with the unit's state as both states (unit.py:2118-2167).
    change.details = stateDetails(unit, now, now);
    record(resolver, change, unit, now);
  } else if (plan.kind === 'comment') {
    setAction(change, 3);
    change.target = rng.pick(COMMENT_TEXTS);
  } else {
    setAction(change, 4);
    change.target = pickTarget(rng, script);
  }
  change.author = contentAuthor(resolver.state, change.action, change.user);
}

const OLD_TEXT_ACTIONS: ReadonlySet<number> = new Set([2, 7, 36, 37, 59]);

function resolveSave(resolver: Resolver, change: SimChange, plan: ChangePlan): void {
  const { rng, world } = resolver.state;
  const { unit } = plan;
  const after = currentState(resolver, unit);
  const projectId = world.projectOfComponent.get(change.componentId ?? 0) ?? 0;
  const move = resolveMove(rng, plan.kind, after, world.reviewingProjects.has(projectId));
  if (move === null) {
    resolveRemark(resolver, change, { unit, kind: rng.chance(0.6) ? 'suggestion' : 'comment' });
    return;
  }
  setAction(change, move.action);
  change.details = stateDetails(unit, move.before, after);
  change.target = textIn(resolver, unit, after);
  const script = world.scriptByTranslation.get(unit.translationId) ?? 'latin';
  if (move.before !== 0 && OLD_TEXT_ACTIONS.has(move.action)) change.old = pickTarget(rng, script);
  if (move.action !== 59) change.author = contentAuthor(resolver.state, move.action, change.user);
  record(resolver, change, unit, move.before);
}

function currentState(resolver: Resolver, unit: SimUnit): number {
  const state = resolver.states[unit.id] ?? UNSET;
  if (state === UNBORN) throw new Error(`unit ${unit.id} has a change before its creation`);
  return state === UNSET ? unit.state : state;
}

function resolveOne(resolver: Resolver, change: SimChange, plan: ChangePlan): void {
  switch (plan.kind) {
    case 'added':
    case 'added-repository':
      resolveCreation(resolver, change, plan);
      return;
    case 'removed':
      resolveRemoval(resolver, change, plan);
      return;
    case 'comment':
    case 'suggestion':
    case 'explanation':
      resolveRemark(resolver, change, plan);
      return;
    case 'edit':
    case 'accept':
    case 'bulk':
    case 'repository':
      resolveSave(resolver, change, plan);
  }
}

/**
 * Fills in the planned changes (newest first) and returns every unit's true moves in the
 * order they happened, including those of units removed later.
 */
export function resolveChanges(state: ChangeState): SimStateMove[] {
  const resolver: Resolver = {
    state,
    states: new Int16Array(state.world.maxUnitId + 1).fill(UNSET),
    moves: [],
  };
  for (let i = state.changes.length - 1; i >= 0; i -= 1) {
    const plan = state.plans[i];
    if (plan !== undefined) resolveOne(resolver, state.changes[i] as SimChange, plan);
  }
  return resolver.moves.reverse();
}
