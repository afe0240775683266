import { bundleCli } from '../../scripts/bundle-cli.ts';

/**
 * Global setup of both configurations: bundles the CLI from the sources as they are, so the
 * commands the tests start run the bundle, as installs do, instead of falling back to the
 * sources through tsx after every edit (bin/weblate-mirror.js): about 0.3 s a start against 1.6.
 */
export default async function setup(): Promise<void> {
  await bundleCli();
}
