import type { SimComponent, SimProject, SimSubscription, SimUser } from './model.ts';
import type { Rng } from './prng.ts';

const PEOPLE: readonly (readonly [string, string])[] = [
  ['alice', 'Alice Anderson'],
  ['bob', 'Bob Brown'],
  ['carol', 'Carol Černá'],
  ['dave', 'Dave Dvořák'],
  ['eve', 'Eve Ευαγγελία'],
  ['frank', 'Frank Müller'],
  ['grace', 'Grace 李'],
  ['heidi', 'Heidi Ó Briain'],
  ['ivan', 'Иван Петров'],
  ['jan.novak', 'Jan Novák'],
  ['karim', 'كريم حداد'],
  ['leah', 'Leah Cohen'],
];

/** Notification kinds exactly as Weblate's notification class names spell them (weblate/accounts/notifications.py). */
export const NOTIFICATION_KINDS: readonly string[] = [
  'MentionCommentNotificaton',
  'LastAuthorCommentNotificaton',
  'NewAnnouncementNotificaton',
  'MergeFailureNotification',
  'ParseErrorNotification',
  'NewTranslationNotificaton',
  'NewAlertNotificaton',
];

/** Weblate's NotificationScope; project (30) and component (40) scopes carry their object. */
const SCOPES: readonly (readonly [number, number])[] = [
  [0, 30],
  [10, 30],
  [20, 20],
  [30, 12],
  [40, 8],
];

const FIRST_USER_SCOPES: readonly number[] = [0, 30, 40];

interface SubscriptionContext {
  rng: Rng;
  projects: readonly SimProject[];
  components: readonly SimComponent[];
  nextId: { value: number };
}

function pickScopes(rng: Rng, count: number): number[] {
  const scopes = new Set<number>();
  while (scopes.size < count) scopes.add(rng.weighted(SCOPES));
  return [...scopes].sort((a, b) => a - b);
}

function buildSubscriptions(context: SubscriptionContext, isFirstUser: boolean): SimSubscription[] {
  const { rng, projects, components, nextId } = context;
  const kinds = rng.shuffled(NOTIFICATION_KINDS).slice(0, rng.int(3, 6));
  const subscriptions: SimSubscription[] = [];
  for (const [k, notification] of kinds.entries()) {
    // The same kind under several scopes; the first user always shows it, with both scopes
    // that carry an object (a project's, a component's), whatever else the seed draws.
    const count = rng.weighted([
      [1, 5],
      [2, 3],
      [3, 1],
    ] as const);
    const scopes = isFirstUser && k === 0 ? FIRST_USER_SCOPES : pickScopes(rng, count);
    for (const scope of scopes) {
      nextId.value += rng.chance(0.1) ? 2 : 1;
      const projectId = scope === 30 && projects.length > 0 ? rng.pick(projects).id : null;
      const componentId = scope === 40 && components.length > 0 ? rng.pick(components).id : null;
      const frequency = rng.int(1, 4);
      subscriptions.push({
        id: nextId.value,
        notification,
        scope,
        frequency,
        projectId,
        componentId,
      });
    }
  }
  return subscriptions;
}

/** `anonymous` (no subscriptions) plus `count` named users with subscriptions. */
export function buildUsers(
  rng: Rng,
  count: number,
  catalog: { projects: readonly SimProject[]; components: readonly SimComponent[] },
): SimUser[] {
  const context: SubscriptionContext = { rng, ...catalog, nextId: { value: 0 } };
  const users: SimUser[] = [
    { id: 1, username: 'anonymous', fullName: 'Anonymous', subscriptions: [] },
  ];
  for (let i = 0; i < count; i += 1) {
    const [username, fullName] = PEOPLE[i] ?? [`user${i + 1}`, `User ${i + 1}`];
    users.push({
      id: i + 2,
      username,
      fullName,
      subscriptions: buildSubscriptions(context, i === 0),
    });
  }
  return users;
}
