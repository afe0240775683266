/**
 * The Weblate release the simulator answers as. The differences of record shapes, links and
 * authentication are those of Weblate's own serializers (see docs/weblate-compatibility.md):
 * - 5.14: the default;
 * - 5.15: a subscription's `project` and `component` are API links, not nested objects;
 * - 2026: 5.15's, with the records of Weblate 2026.10.1 (fields-2026.ts: projects, components,
 *   translations, units and changes with the fields it added and without those it dropped,
 *   in its order), an Authorization header of another scheme refused with 401, and webhook
 *   bodies sent compact, as UTF-8, with the unit's `context`.
 */
export const RELEASES = ['5.14', '5.15', '2026'] as const;
export type Release = (typeof RELEASES)[number];

export const DEFAULT_RELEASE: Release = '5.14';

/** Whether `release` is `since` or later. */
export function isAtLeast(release: Release, since: Release): boolean {
  return RELEASES.indexOf(release) >= RELEASES.indexOf(since);
}

/** A release from text such as "2026", "2026.10.1", "5.15" or "5.14.3"; null for another. */
export function parseRelease(text: string): Release | null {
  const found = RELEASES.find((release) => text === release || text.startsWith(`${release}.`));
  return found ?? null;
}
