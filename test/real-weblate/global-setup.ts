import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

import type { TestProject } from 'vitest/node';

import { TIER_RELEASE } from './harness/release.ts';
import { ensureTemplate } from './harness/template.ts';
import { TIER_DIR } from './harness/weblate.ts';

/**
 * Installs the Weblate release this run serves (setup.sh: quick when already installed;
 * WEBLATE_TIER_VERSION picks one of test/real-weblate/versions) and builds or reuses the
 * seeded template that every test file clones. Never skips: without a Weblate the tier fails.
 */
export default async function setup(project: TestProject): Promise<void> {
  const log = (line: string) => process.stderr.write(`[weblate tier] ${line}\n`);
  log(`Weblate ${TIER_RELEASE}`);
  const { stdout } = await promisify(execFile)('bash', [join(TIER_DIR, 'setup.sh'), TIER_RELEASE], {
    maxBuffer: 16 * 1024 * 1024,
    // A first run on a machine without a fitting Python builds one (about 10 minutes).
    timeout: 60 * 60_000,
  });
  const venv = stdout.trim().split('\n').at(-1) ?? '';
  if (venv === '') throw new Error('test/real-weblate/setup.sh printed no virtualenv');
  const started = Date.now();
  const template = await ensureTemplate(venv, log);
  log(`template ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  project.provide('weblateTemplate', template);
}
