import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { isAtLeast, parseRelease, type Release, RELEASES } from '../../../src/simulator/index.ts';
import { TIER_DIR } from './weblate.ts';

/** The Weblate releases of test/real-weblate/versions, in its order. */
export const TIER_RELEASES: readonly string[] = readFileSync(join(TIER_DIR, 'versions'), 'utf8')
  .split('\n')
  .flatMap((line) => /^weblate\s+(\S+)/.exec(line)?.[1] ?? []);

/** The release this run of the tier serves: WEBLATE_TIER_VERSION, or the file's first. */
export const TIER_RELEASE: string = tierRelease(process.env.WEBLATE_TIER_VERSION);

/** The simulator's release that answers like TIER_RELEASE (a newer one: the newest it knows). */
export const TIER_SIM_RELEASE: Release = parseRelease(TIER_RELEASE) ?? RELEASES.at(-1)!;

/** Whether the tier's Weblate is `since` or later. */
export function tierIsAtLeast(since: Release): boolean {
  return isAtLeast(TIER_SIM_RELEASE, since);
}

function tierRelease(asked: string | undefined): string {
  if (asked === undefined || asked === '') return TIER_RELEASES[0]!;
  if (!TIER_RELEASES.includes(asked)) {
    throw new Error(
      `WEBLATE_TIER_VERSION=${asked} is not in test/real-weblate/versions (${TIER_RELEASES.join(', ')})`,
    );
  }
  return asked;
}
