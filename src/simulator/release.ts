/**
 * The Weblate release the simulator answers as: 5.14 (default), 5.15 or 2026
 * (docs/internals.md#simulated-releases).
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
