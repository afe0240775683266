import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { type Browser, chromium } from 'playwright-core';

/**
 * Debian's Chromium through playwright-core, offline (file:// only), for the tests that
 * open the HTML report in a real browser.
 */

export const CHROMIUM = '/usr/bin/chromium';
export const HAS_CHROMIUM = existsSync(CHROMIUM);
export const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url));
// CI (.ci/run sets CI=true, as CI services do) installs Chromium: there, its absence fails the
// test instead of skipping it, so that the check cannot silently stop running.
const IS_CI = !['', '0', 'false'].includes((process.env.CI ?? '').toLowerCase());
const INSTALL = 'apt-get install -y chromium; .ci/run does it';

/** Whether a browser test runs here; says why not on stderr when it does not. */
export function shouldRunInChromium(file: string): boolean {
  if (!HAS_CHROMIUM && !IS_CI)
    process.stderr.write(`${file}: skipped, ${CHROMIUM} is not installed (${INSTALL})\n`);
  return HAS_CHROMIUM || IS_CI;
}

export async function launchChromium(): Promise<Browser> {
  if (!HAS_CHROMIUM)
    throw new Error(`${CHROMIUM} is not installed, and CI must run this test (${INSTALL})`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}
